import Foundation

/// Weeks of the plan kept under a name, to put on any week again: each entry is a meal on a day of
/// the template (0 = its first Monday … or whichever day it was saved from), in a slot, with its
/// portions and eaters. Several templates one after another make a rotation.
public struct PlanTemplate: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public var name: String
    /// How many weeks it holds (1 to ``weeksRange``).
    public var weeks: Int
    public var entries: [Entry]
    public let createdAt: Date

    public struct Entry: Hashable, Sendable, Codable {
        /// Days from the template's first day (0 ..< weeks × 7).
        public var day: Int
        public var mealId: UUID
        public var mealType: String?
        public var servings: Int?
        public var eaters: [Eater]?
        public init(day: Int, mealId: UUID, mealType: String? = nil, servings: Int? = nil, eaters: [Eater]? = nil) {
            self.day = day
            self.mealId = mealId
            self.mealType = mealType
            self.servings = servings
            self.eaters = eaters
        }
    }

    public init(id: UUID, name: String, weeks: Int, entries: [Entry], createdAt: Date) {
        self.id = id
        self.name = name
        self.weeks = weeks
        self.entries = entries
        self.createdAt = createdAt
    }

    public static let weeksRange = 1...8
    public static let nameLength = 1...100
    /// The most templates a household keeps.
    public static let maximumCount = 100
    /// The most times a rotation is put on the plan in one go (a year of one week).
    public static let cyclesRange = 1...52
    /// The most entries one apply plans (a year of a full week of three meals, with room).
    public static let maximumPlanned = 1_500
    /// The most meals one template keeps, and the most templates one rotation has.
    public static let maximumEntries = 500
    public static let maximumRotation = 12

    /// The template of the plan's `weeks` weeks from `start`: each assignment in them, by its day.
    public static func capture(id: UUID, name: String, from start: CalendarDate, weeks: Int, plan: [Assignment], now: Date) -> PlanTemplate {
        let entries = plan.compactMap { a -> Entry? in
            let day = start.days(until: a.date)
            guard (0..<(weeks * 7)).contains(day) else { return nil }
            return Entry(day: day, mealId: a.mealId, mealType: a.mealType, servings: a.servings, eaters: a.eaters)
        }.sorted { ($0.day, $0.mealType ?? "~") < ($1.day, $1.mealType ?? "~") }
        return PlanTemplate(id: id, name: name, weeks: weeks, entries: entries, createdAt: now)
    }

    /// The name trimmed, or the problem with it and with `weeks` and `start`.
    public static func validated(name: String, weeks: Int, start: CalendarDate) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        var problems: [ValidationError.Field] = []
        if !nameLength.contains(trimmed.count) {
            problems.append(.init(field: "name", message: "Name the template in 1 to \(nameLength.upperBound) characters."))
        }
        if !weeksRange.contains(weeks) {
            problems.append(.init(field: "weeks", message: "A template holds 1 to \(weeksRange.upperBound) weeks; got \(weeks)."))
        }
        if let problem = start.problem(field: "start") { problems.append(problem) }
        if !problems.isEmpty { throw ValidationError(problems) }
        return trimmed
    }

    /// One planned day of a rotation put on the plan.
    public struct Planned: Hashable, Sendable {
        public var date: CalendarDate
        public var entry: Entry
    }

    /// The days `rotation` (templates one after another, each its own weeks) plans from `start`,
    /// `cycles` times over, in order; throws when it is more than one go may plan.
    public static func apply(_ rotation: [PlanTemplate], from start: CalendarDate, cycles: Int) throws -> [Planned] {
        if rotation.count > maximumRotation {
            throw ValidationError(field: "then", "A rotation has at most \(maximumRotation) templates; got \(rotation.count).")
        }
        if !cyclesRange.contains(cycles) {
            throw ValidationError(field: "cycles", "Put a rotation on the plan 1 to \(cyclesRange.upperBound) times; got \(cycles).")
        }
        let length = rotation.reduce(0) { $0 + $1.weeks * 7 }
        let count = rotation.reduce(0) { $0 + $1.entries.count } * cycles
        if count > maximumPlanned || length * cycles > 7 * cyclesRange.upperBound {
            throw ValidationError(field: "cycles", "That would plan \(count) meals over \(length * cycles) days; one go plans at most \(maximumPlanned) meals over a year.")
        }
        var planned: [Planned] = []
        var offset = 0
        for _ in 0..<cycles {
            for template in rotation {
                for entry in template.entries { planned.append(Planned(date: start.adding(days: offset + entry.day), entry: entry)) }
                offset += template.weeks * 7
            }
        }
        if let last = planned.last, let problem = last.date.problem(field: "start") { throw ValidationError([problem]) }
        return planned
    }
}
