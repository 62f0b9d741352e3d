import ForkcastCore
import Foundation

/// Planning a meal on a day: the one way an assignment is made, from the API, the planner page, a
/// synced device and an account import. The meal must be the person's own, and a meal slot, when
/// one is asked for, must be one of their meal types (stored by its key, so "Dinner" and "dinner"
/// plan the same slot). The checks and the write happen in one transaction, so a meal deleted
/// meanwhile is never planned.
public struct PlanMeal: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// Plans `mealID` on `date` as assignment `id`, in `mealType`'s slot or none; nil when the person
    /// has no such meal. `replacing`: a synced device's edit — an assignment with that id is replaced.
    /// Throws ``ValidationError`` for a meal type the person does not have.
    @discardableResult
    public func callAsFunction(_ mealID: UUID, on date: CalendarDate, mealType: String?, id: UUID, replacing: Bool = false) async throws -> PlanDay.Entry? {
        let now = now
        let asked = mealType?.trimmed.nilIfEmptyString
        return try await library.write { tx in
            var slot: String?
            if let asked {
                let types = try await tx.mealTypes.catalog(now: now)
                if let problem = types.problem(asked) { throw ValidationError([problem]) }
                slot = types.normalized(asked)
            }
            guard let meal = try await tx.meals.find(mealID) else { return nil }
            if replacing { _ = try await tx.plan.delete(id, now: now) }
            let assignment = Assignment(id: id, mealId: mealID, date: date, createdAt: now, mealType: slot)
            try await tx.plan.insert(assignment, now: now)
            return PlanDay.Entry(assignment: assignment, meal: meal)
        }
    }
}
