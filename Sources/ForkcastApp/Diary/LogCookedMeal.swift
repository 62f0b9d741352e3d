import ForkcastCore
import Foundation

/// "We ate this" at the end of cooking: a planned meal logged into each eater's own diary (their
/// portions, its day, its slot) by the cook's one tap, in the write it is called in. An eater who
/// has that meal in their diary on that day, in that slot, already is left as they are (they
/// logged it themselves), and so is a named eater who is no longer in the household.
public struct LogCookedMeal: Sendable {
    let cook: LogEntry
    let members: Set<UUID>
    let logging: @Sendable (UUID) async throws -> LogEntry?

    /// `logging(eater)`: that member's logging, on the same write; nil for someone unknown.
    public init(cook: LogEntry, members: Set<UUID>, logging: @escaping @Sendable (UUID) async throws -> LogEntry?) {
        self.cook = cook
        self.members = members
        self.logging = logging
    }

    public struct Logged: Sendable {
        public let eater: UUID
        public let entry: DiaryEntry
        /// The portions put into their diary.
        public var portions: Decimal { if case .meal(_, let servings) = entry.kind { servings } else { 0 } }
    }

    /// Nil when the household has no such plan entry. Without named eaters it is the cook's alone.
    public func callAsFunction(_ assignmentID: UUID) async throws -> (assignment: Assignment, logged: [Logged])? {
        let me = cook.diary.owner
        guard let assignment = try await cook.diary.assignment(assignmentID) else { return nil }
        var logged: [Logged] = []
        for eater in assignment.eaters?.map(\.userId) ?? [me] where eater == me || members.contains(eater) {
            guard let log = eater == me ? cook : try await logging(eater) else { continue }
            let eaten = try await log.diary.entries(on: assignment.date).contains { entry in
                guard case .meal(let meal, _) = entry.kind, meal == assignment.mealId else { return false }
                return assignment.mealType == nil || entry.mealType == assignment.mealType
            }
            if !eaten, let entry = try await log.planned(assignmentID) { logged.append(Logged(eater: eater, entry: entry)) }
        }
        return (assignment, logged)
    }
}
