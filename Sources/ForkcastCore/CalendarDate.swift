import Foundation

/// A day on the calendar (`YYYY-MM-DD`), never a timestamp: plan days are dates, not instants.
///
/// Arithmetic runs on a proleptic Gregorian day number, so adding days is exact across month, year,
/// leap-day and daylight-saving boundaries (a date has no time of day for DST to shift).
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, or nil when the day does not exist (2026-02-30, month 13, …).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; anything else (or a day that does not exist) is nil.
    public init?(iso string: String) {
        let parts = string.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Years a date sent by a person or a client may fall in (the same as ``Instant``'s), so
    /// arithmetic on it (a week later, a plan window) always stays a real, writable date.
    public static var plausibleYears: ClosedRange<Int> { Instant.plausibleYears }

    /// A day a person's data may be kept on: in ``plausibleYears``, as every date a client sends is
    /// read, so what is saved can be exported and imported again. nil when it may; else the
    /// problem, named `field`. Use cases check each day they store with it, whatever door sent it.
    public func problem(field: String) -> ValidationError.Field? {
        Self.plausibleYears.contains(year) ? nil
            : .init(field: field, message: "The day must be in the years \(Self.plausibleYears.lowerBound)–\(Self.plausibleYears.upperBound); got \(iso).")
    }

    /// Parses `YYYY-MM-DD` as sent by a client: a day that exists, in ``plausibleYears``.
    public init?(input string: String) {
        guard let date = CalendarDate(iso: string), Self.plausibleYears.contains(date.year) else { return nil }
        self = date
    }

    /// A date read back from storage: whatever an older version wrote there (a five-digit year, a
    /// day that does not exist) becomes the nearest real date instead of stopping the server.
    public init(stored string: String) {
        if let date = CalendarDate(iso: string) { self = date; return }
        let negative = string.hasPrefix("-")
        let parts = (negative ? String(string.dropFirst()) : string).split(separator: "-").map { Int($0) ?? 1 }
        let year = min(max((negative ? -1 : 1) * (parts.first ?? 1970), 1), 9999)
        let month = min(max(parts.count > 1 ? parts[1] : 1, 1), 12)
        let day = min(max(parts.count > 2 ? parts[2] : 1, 1), CalendarDate.daysIn(month: month, year: year))
        self.init(unchecked: year, month, day)
    }

    /// The calendar date of an instant as seen in a time zone (seed 000's "Date Normalization").
    public init(_ instant: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        self.init(unchecked: c.year!, c.month!, c.day!)
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The instant this day reaches a time of day in a time zone (e.g. midnight, or noon).
    public func instant(hour: Int = 0, minute: Int = 0, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// `YYYY-MM-DD`.
    public var iso: String {
        let y = String(year), m = String(month), d = String(day)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-"
            + (m.count < 2 ? "0" + m : m) + "-" + (d.count < 2 ? "0" + d : d)
    }

    public var description: String { iso }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before), after Howard Hinnant's `days_from_civil`.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date with the given day number (inverse of ``dayNumber``).
    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(unchecked: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public func adding(days: Int) -> CalendarDate {
        CalendarDate(dayNumber: dayNumber + days)
    }

    public func days(until other: CalendarDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// English month names, January first (the web pages' and the command line's dates).
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                                    "November", "December"]

    /// "Monday 23 November 2026": how a person reads a day (not "Monday 2026-11-23").
    public var longText: String { "\(weekday.name) \(day) \(Self.monthNames[month - 1]) \(year)" }

    /// "8–14 December", "29 November – 5 December", "29 December 2026 – 4 January 2027": a range as
    /// a person says it (the year only where the two ends' years differ).
    public static func rangeText(from: CalendarDate, to: CalendarDate) -> String {
        let month = { (d: CalendarDate) in monthNames[d.month - 1] }
        if from == to { return "\(from.day) \(month(from))" }
        if from.year != to.year { return "\(from.day) \(month(from)) \(from.year) – \(to.day) \(month(to)) \(to.year)" }
        if from.month != to.month { return "\(from.day) \(month(from)) – \(to.day) \(month(to))" }
        return "\(from.day)–\(to.day) \(month(to))"
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((dayNumber % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday.allCases[index]
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// Days of the week, Monday first (ISO 8601).
public enum Weekday: String, CaseIterable, Sendable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// English day name, e.g. "Monday".
    public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    public var shortName: String { String(name.prefix(3)) }
}

extension CalendarDate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = CalendarDate(input: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text.prefix(40))' is not a calendar date; use YYYY-MM-DD with a day that exists, in the years \(CalendarDate.plausibleYears.lowerBound)–\(CalendarDate.plausibleYears.upperBound)")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}
