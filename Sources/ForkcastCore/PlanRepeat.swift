import Foundation

/// How a plan entry repeats: on some weekdays, every N weeks, until a day or a number of times.
/// The repeat is stored as its days (one plan entry each, sharing a series id), so every reader of
/// the plan — the week view, the shopping list, the calendar feed, sync — sees ordinary entries.
public struct PlanRepeat: Hashable, Sendable, Codable {
    /// ISO weekdays, 1 = Monday … 7 = Sunday; empty: the first day's weekday.
    public var weekdays: [Int]
    /// 1: every week; 2: every other week (counted from the first day's week); up to ``everyWeeksRange``.
    public var everyWeeks: Int
    /// The last day it may fall on (inclusive); nil: ``horizonDays`` after the first day at most.
    public var until: CalendarDate?
    /// How many days it makes at most; nil: as many as fit before `until` or the horizon.
    public var count: Int?

    public init(weekdays: [Int] = [], everyWeeks: Int = 1, until: CalendarDate? = nil, count: Int? = nil) {
        self.weekdays = weekdays
        self.everyWeeks = everyWeeks
        self.until = until
        self.count = count
    }

    public enum CodingKeys: String, CodingKey { case weekdays, everyWeeks, until, count }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        weekdays = try c.decodeIfPresent([Int].self, forKey: .weekdays) ?? []
        everyWeeks = try c.decodeIfPresent(Int.self, forKey: .everyWeeks) ?? 1
        until = try c.decodeIfPresent(CalendarDate.self, forKey: .until)
        count = try c.decodeIfPresent(Int.self, forKey: .count)
    }

    /// A repeat never reaches further than this many days from its first day: the days are stored,
    /// so an endless repeat would be endless rows. A year covers every rotation people ask for.
    public static let horizonDays = 366
    public static let everyWeeksRange = 1...12
    /// The most days one repeat makes (every day for the horizon).
    public static var countRange: ClosedRange<Int> { 1...horizonDays }

    /// The weekdays Monday to Friday: "every weekday".
    public static let workdays = [1, 2, 3, 4, 5]

    /// The problems with this repeat starting on `start`, each field under `repeat.`; empty when it is fine.
    public func problems(from start: CalendarDate) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        if let bad = weekdays.first(where: { !(1...7).contains($0) }) {
            problems.append(.init(field: "repeat.weekdays", message: "Weekdays are 1 (Monday) to 7 (Sunday); got \(bad)."))
        }
        if !Self.everyWeeksRange.contains(everyWeeks) {
            problems.append(.init(field: "repeat.everyWeeks", message: "Repeat every 1 to \(Self.everyWeeksRange.upperBound) weeks; got \(everyWeeks)."))
        }
        if let count, !Self.countRange.contains(count) {
            problems.append(.init(field: "repeat.count", message: "A repeat makes 1 to \(Self.horizonDays) days; got \(count)."))
        }
        if let until {
            if until < start {
                problems.append(.init(field: "repeat.until", message: "The repeat ends (\(until.iso)) before its first day (\(start.iso))."))
            } else if start.days(until: until) >= Self.horizonDays {
                problems.append(.init(field: "repeat.until", message: "A repeat reaches at most \(Self.horizonDays) days ahead: end it by \(start.adding(days: Self.horizonDays - 1).iso)."))
            }
        }
        if problems.isEmpty {
            let days = dates(from: start)
            if days.isEmpty {
                problems.append(.init(field: "repeat", message: "No day from \(start.iso) to its end falls on the weekdays chosen."))
            } else if let problem = days.last!.problem(field: "repeat.until") {
                problems.append(problem)
            }
        }
        return problems
    }

    /// The days it falls on from `start` on, in order: each chosen weekday of every `everyWeeks`-th
    /// week counted from `start`'s week (Monday to Sunday), not before `start`, up to `until`,
    /// `count` days and the horizon. `start` itself is one of them only when its weekday is chosen.
    public func dates(from start: CalendarDate) -> [CalendarDate] {
        let days = Set(weekdays.isEmpty ? [start.isoWeekday] : weekdays.filter { (1...7).contains($0) }).sorted()
        let every = min(max(everyWeeks, 1), Self.everyWeeksRange.upperBound)
        let horizon = start.adding(days: Self.horizonDays - 1)
        let last = min(until ?? horizon, horizon)
        let limit = min(count ?? Self.horizonDays, Self.horizonDays)
        let monday = start.adding(days: 1 - start.isoWeekday)
        var result: [CalendarDate] = []
        var week = 0
        while result.count < limit {
            let weekStart = monday.adding(days: 7 * week)
            if weekStart > last { break }
            for day in days {
                let date = weekStart.adding(days: day - 1)
                guard date >= start, date <= last, result.count < limit else { continue }
                result.append(date)
            }
            week += every
        }
        return result
    }
}

extension CalendarDate {
    /// 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int { Weekday.allCases.firstIndex(of: weekday)! + 1 }
}

/// Which entries of a repeating plan entry a change or removal reaches.
public enum SeriesScope: String, Codable, Sendable, CaseIterable {
    /// Only this day (removing it skips the day).
    case one
    /// This day and the series' later days.
    case following
    /// Every day of the series.
    case all

    /// The entries of `series` the scope reaches from `entry`: the entry itself alone when it
    /// repeats not or the scope is `one`.
    public func reach(from entry: Assignment, in series: [Assignment]) -> [Assignment] {
        guard entry.seriesId != nil, self != .one else { return [entry] }
        let members = series.filter { $0.seriesId == entry.seriesId }
        return self == .all ? members : members.filter { $0.date >= entry.date }
    }
}
