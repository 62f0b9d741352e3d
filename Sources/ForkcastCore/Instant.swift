import Foundation

/// Instants as clients write them (ISO 8601 with an offset), read strictly: an hour of 25 or a
/// 30th of February is refused, not rolled over into the next day as lenient parsers do.
public enum Instant {
    /// Years an instant may fall in: anything else is a typo, not something eaten.
    public static let plausibleYears = 1900...2200

    /// `2026-11-22T07:30:00.250000Z`: UTC to the microsecond, which ``parse(_:)`` reads back.
    public static func format(_ date: Date) -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = Int((micros / 1_000_000).rounded(.down))
        let fraction = Int(micros - Double(seconds) * 1_000_000)
        let epochDay = CalendarDate(year: 1970, month: 1, day: 1)!.dayNumber
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let day = CalendarDate(dayNumber: epochDay + days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var micro = String(fraction)
        micro = String(repeating: "0", count: max(0, 6 - micro.count)) + micro
        return "\(day.iso)T\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)).\(micro)Z"
    }

    /// `2026-11-22T08:30:00+01:00`, `…T08:30Z`, `…T08:30:00.250Z`, `…+0100`; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                guard b[k] >= 48, b[k] <= 57 else { return nil }
                value = value * 10 + Int(b[k] - 48)
            }
            i += count
            return value
        }
        func take(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
              take("T") || take("t") || take(" "), let hour = digits(2), take(":"), let minute = digits(2) else { return nil }
        var second = 0, fraction = 0.0
        if take(":") {
            guard let s = digits(2) else { return nil }
            second = s
            if take(".") || take(",") {
                let start = i
                while i < b.count, b[i] >= 48, b[i] <= 57, i - start < 9 { i += 1 }
                guard i > start, let f = Double("0." + String(decoding: b[start..<i], as: UTF8.self)) else { return nil }
                fraction = f
            }
        }
        var offset = 0
        if take("Z") || take("z") {
            offset = 0
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            var om = 0
            if take(":") { guard let m = digits(2) else { return nil }; om = m } else if i < b.count { guard let m = digits(2) else { return nil }; om = m }
            guard oh <= 23, om < 60 else { return nil }  // RFC 3339 allows any offset; real zones stay within ±14
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil  // an instant needs its offset
        }
        guard i == b.count, plausibleYears.contains(year), hour < 24, minute < 60, second < 60,
              let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        let epochDay = CalendarDate(year: 1970, month: 1, day: 1)!.dayNumber
        let seconds = (date.dayNumber - epochDay) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}

/// A time of day as a person types it in a form: "HH:MM" (or "H:MM"), 00:00 to 23:59.
public struct ClockTime: Hashable, Sendable {
    public let hour: Int
    public let minute: Int

    public init?(_ text: String) {
        let parts = text.trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }
}
