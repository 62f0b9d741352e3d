import Foundation

/// The days a request for a range of the diary covers (its summary, its export).
///
/// One end alone stands for the default span from (or up to) it, and today's span when neither is
/// given. A span worked out from one end stops at the first or last plausible day
/// (``CalendarDate/plausibleYears``): `to=1900-01-01` covers 1900-01-01 alone, never 1899.
public struct DayRange: Hashable, Sendable {
    public let from: CalendarDate
    public let to: CalendarDate

    /// The range asked for, or the problem with it: `from` after `to`, or more than `maximumDays`.
    public static func asked(from: CalendarDate?, to: CalendarDate?, today: CalendarDate,
                             defaultDays: Int, maximumDays: Int) -> Result<DayRange, Problem> {
        let span = defaultDays - 1
        let to = to ?? from.map { min($0.adding(days: span), .lastPlausible) } ?? today
        let from = from ?? max(to.adding(days: -span), .firstPlausible)
        guard from <= to else { return .failure(Problem(message: "from (\(from)) must not be after to (\(to)).")) }
        guard from.days(until: to) < maximumDays else { return .failure(Problem(message: "Ask for at most \(maximumDays) days at once.")) }
        return .success(DayRange(from: from, to: to))
    }

    /// Why a range cannot be answered.
    public struct Problem: Error, Hashable, Sendable {
        public let message: String
    }

    /// Every day of the range in order.
    public var dates: [CalendarDate] { WeekWindow(start: from, length: from.days(until: to) + 1).dates }
}

extension CalendarDate {
    /// The first day a person's data may be kept on (the start of ``plausibleYears``).
    public static var firstPlausible: CalendarDate { CalendarDate(year: plausibleYears.lowerBound, month: 1, day: 1)! }
    /// The last day a person's data may be kept on (the end of ``plausibleYears``).
    public static var lastPlausible: CalendarDate { CalendarDate(year: plausibleYears.upperBound, month: 12, day: 31)! }
}
