import Foundation

/// A meal placed on a calendar day (seed 000's `MealAssignment`).
public struct Assignment: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public let mealId: UUID
    public let date: CalendarDate
    public let createdAt: Date
    /// The meal slot (a meal type key) it is planned for; nil when it has none.
    public var mealType: String?
    /// How many portions are made that day; nil makes the meal's own ``Meal/servings``.
    public var servings: Int?
    /// Who eats it and how many portions each; nil: every member of the household, one each
    /// (``portions(for:)``).
    public var eaters: [Eater]?
    /// The repeat it is one day of (``PlanRepeat``): every day of one repeat shares it; nil when it stands alone.
    public var seriesId: UUID?

    public init(id: UUID = UUID.timeOrdered(), mealId: UUID, date: CalendarDate, createdAt: Date = Date(), mealType: String? = nil, servings: Int? = nil,
                eaters: [Eater]? = nil, seriesId: UUID? = nil) {
        self.seriesId = seriesId
        self.id = id
        self.mealId = mealId
        self.date = date
        self.createdAt = createdAt
        self.mealType = mealType
        self.servings = servings
        self.eaters = eaters
    }

    /// The portions made: the assignment's own, or the meal's.
    public func portions(of meal: Meal) -> Int { servings ?? max(meal.servings, 1) }

    /// How much of the meal's ingredients are cooked that day: `servings / meal.servings`.
    public func scale(of meal: Meal) -> Decimal {
        let portions = portions(of: meal), servings = max(meal.servings, 1)
        // Most entries cook the meal as written; Decimal division is slow enough to show in a week's answer.
        return portions == servings ? 1 : Decimal(portions) / Decimal(servings)
    }

    /// The portions a plan entry may make: the same range as a meal's servings.
    public static let servingsRange = 1...MealDraft.maximumServings

    /// The most meals planned in one change (a week's suggestions ticked, a batch from the API).
    public static let maximumAtOnce = 100

    /// Nil when `count` meals may be planned at once; otherwise the problem.
    public static func problem(plannedAtOnce count: Int) -> ValidationError.Field? {
        guard !(1...maximumAtOnce).contains(count) else { return nil }
        return .init(field: "assignments", message: "Plan 1 to \(maximumAtOnce) meals at once; got \(count).")
    }

    /// Nil when `servings` is absent or in range; otherwise the problem.
    public static func problem(servings: Int?) -> ValidationError.Field? {
        guard let servings, !servingsRange.contains(servings) else { return nil }
        return .init(field: "servings", message: "Servings must be a whole number from 1 to \(MealDraft.maximumServings); got \(servings).")
    }

    /// Where it sorts in its day: slots in the person's meal-type order, then the unslotted.
    public func slotOrder(in types: MealTypeCatalog?) -> Int {
        guard let mealType else { return Int.max }
        return types?.position(of: mealType) ?? MealType.systemDefaults.firstIndex { $0.key == mealType } ?? Int.max - 1
    }
}

/// One day of a week view with the meals planned for it.
public struct PlanDay: Hashable, Sendable {
    public let date: CalendarDate
    public let entries: [Entry]

    public struct Entry: Hashable, Sendable {
        public let assignment: Assignment
        public let meal: Meal
        public init(assignment: Assignment, meal: Meal) {
            self.assignment = assignment
            self.meal = meal
        }
    }

    public init(date: CalendarDate, entries: [Entry]) {
        self.date = date
        self.entries = entries
    }

    public var weekday: Weekday { date.weekday }

    /// Day name, date and every planned meal, as the planner and the command line show it (seed 002 Req 4.2).
    public var displayText: String {
        let heading = "\(weekday.name) \(date.iso)"
        guard !entries.isEmpty else { return heading + ": nothing planned" }
        return heading + ": " + entries.map { entry in
            entry.assignment.servings.map { "\(entry.meal.displayText) (for \($0))" } ?? entry.meal.displayText
        }.joined(separator: "; ")
    }
}

/// Builds the days of a window from assignments and the meals they point at.
public enum PlanBuilder {
    /// Days in order, each with its assignments by slot (breakfast … snack, then unslotted) and in
    /// the order they were made; assignments outside the
    /// window, or whose meal is missing, are left out.
    public static func days(in window: WeekWindow, assignments: [Assignment], meals: [UUID: Meal], types: MealTypeCatalog? = nil) -> [PlanDay] {
        let byDate = Dictionary(grouping: assignments.filter { window.contains($0.date) }, by: \.date)
        return window.dates.map { date in
            let entries = (byDate[date] ?? [])
                .sorted { ($0.slotOrder(in: types), $0.createdAt, $0.id.uuidString) < ($1.slotOrder(in: types), $1.createdAt, $1.id.uuidString) }
                .compactMap { a in meals[a.mealId].map { PlanDay.Entry(assignment: a, meal: $0) } }
            return PlanDay(date: date, entries: entries)
        }
    }
}

extension PlanDay {
    /// The planned meals of this day that are already in its diary: each meal entry of the day marks
    /// one planning of that meal, in the order the day shows them (so a meal planned for lunch and
    /// dinner and logged once counts lunch as done).
    public func logged(by diary: [DiaryEntry]) -> Set<UUID> {
        var eaten: [UUID: Int] = [:]
        for entry in diary where entry.date == date {
            if case let .meal(mealId, _) = entry.kind { eaten[mealId, default: 0] += 1 }
        }
        var logged = Set<UUID>()
        for entry in entries where (eaten[entry.meal.id] ?? 0) > 0 {
            eaten[entry.meal.id]! -= 1
            logged.insert(entry.assignment.id)
        }
        return logged
    }
}
