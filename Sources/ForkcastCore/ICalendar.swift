import Foundation

/// An iCalendar document (RFC 5545) of timed events: text escaped, lines folded at 75 octets,
/// CRLF line ends, times in UTC (a calendar app shows them in its own zone).
public enum ICalendar {
    public struct Event: Hashable, Sendable {
        /// Stable across edits, so an app updates the event it has instead of adding one.
        public var uid: String
        public var start: Date
        public var end: Date
        public var summary: String
        public var description: String
        public var url: String?

        public init(uid: String, start: Date, end: Date, summary: String, description: String, url: String? = nil) {
            self.uid = uid
            self.start = start
            self.end = end
            self.summary = summary
            self.description = description
            self.url = url
        }
    }

    /// The whole calendar; `zone` is the person's, named for apps that show a feed's own zone.
    public static func document(name: String, zone: String, events: [Event], stamp: Date) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Forkcast//Meal plan//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
                     "X-WR-CALNAME:" + escaped(name), "X-WR-TIMEZONE:" + escaped(zone), "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
                     "X-PUBLISHED-TTL:PT1H"]
        for event in events {
            lines += ["BEGIN:VEVENT", "UID:" + escaped(event.uid), "DTSTAMP:" + utc(stamp), "DTSTART:" + utc(event.start),
                      "DTEND:" + utc(event.end), "SUMMARY:" + escaped(event.summary), "DESCRIPTION:" + escaped(event.description)]
            if let url = event.url { lines.append("URL:" + url) }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(folded).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT as RFC 5545 §3.3.11 writes it; control characters other than line breaks are dropped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A content line split into lines of at most 75 octets, each continued with a space, never
    /// inside a UTF-8 sequence (a letter with many combining marks may be split between them).
    static func folded(_ line: String) -> String {
        var result = "", count = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if count + size > 75 {
                result += "\r\n "
                count = 1
            }
            result.unicodeScalars.append(scalar)
            count += size
        }
        return result
    }

    /// A UTC date-time as RFC 5545 writes it: 20261203T180000Z.
    public static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }
}
