import Fluent
import ForkcastCore
import Foundation

/// Planning a meal on a day: the one way an assignment is made, from the API, the planner page and
/// a synced device. The meal must be the person's own, and a meal slot, when one is asked for, must
/// be one of their meal types (stored by its key, so "Dinner" and "dinner" plan the same slot). The
/// check and the write happen in one transaction, so a meal deleted meanwhile is never planned.
struct PlanMeal {
    let plan: PlanRepository
    let mealTypes: MealTypeRepository
    let now: Date

    /// Plans `mealID` on `date` as assignment `id`, in `mealType`'s slot or none; nil when the person
    /// has no such meal. `replacing`: a synced device's edit — an assignment with that id is replaced.
    /// Throws ``ValidationError`` for a meal type the person does not have.
    @discardableResult
    func callAsFunction(_ mealID: UUID, on date: CalendarDate, mealType: String?, id: UUID, replacing: Bool = false) async throws -> PlanDay.Entry? {
        let plan = plan, mealTypes = mealTypes, now = now
        var slot = mealType?.trimmed.nilIfEmptyString
        if let given = slot {
            let types = try await mealTypes.catalog(now: now)
            if let problem = types.problem(given) { throw ValidationError([problem]) }
            slot = types.normalized(given)
        }
        let slotKey = slot
        return try await plan.db.write { tx in
            let plan = PlanRepository(db: tx, ownerID: plan.ownerID)
            guard let meal = try await plan.meals.find(mealID) else { return nil }
            if replacing { _ = try await plan.delete(id, now: now) }
            let assignment = Assignment(id: id, mealId: mealID, date: date, createdAt: now, mealType: slotKey)
            try await plan.insert(assignment, now: now)
            return PlanDay.Entry(assignment: assignment, meal: meal)
        }
    }
}
