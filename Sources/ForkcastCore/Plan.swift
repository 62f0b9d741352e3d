import Foundation

/// A meal placed on a calendar day (seed 000 `MealAssignment`).
public struct Assignment: Identifiable, Hashable, Sendable {
    public let id: UUID
    public let mealId: UUID
    public let date: CalendarDate
    public let createdAt: Date

    public init(id: UUID = UUID(), mealId: UUID, date: CalendarDate, createdAt: Date = Date()) {
        self.id = id
        self.mealId = mealId
        self.date = date
        self.createdAt = createdAt
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

    /// Day name, date and every planned meal, as the planner and the command line show it (002 Req 4.2).
    public var displayText: String {
        let heading = "\(weekday.name) \(date.iso)"
        guard !entries.isEmpty else { return heading + ": nothing planned" }
        return heading + ": " + entries.map(\.meal.displayText).joined(separator: "; ")
    }
}

/// Builds the days of a window from assignments and the meals they point at.
public enum PlanBuilder {
    /// Days in order, each with its assignments in the order they were made; assignments outside the
    /// window, or whose meal is missing, are left out.
    public static func days(in window: WeekWindow, assignments: [Assignment], meals: [UUID: Meal]) -> [PlanDay] {
        let byDate = Dictionary(grouping: assignments.filter { window.contains($0.date) }, by: \.date)
        return window.dates.map { date in
            let entries = (byDate[date] ?? [])
                .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
                .compactMap { a in meals[a.mealId].map { PlanDay.Entry(assignment: a, meal: $0) } }
            return PlanDay(date: date, entries: entries)
        }
    }
}
