import Fluent
import ForkcastCore
import Foundation

/// Deleting a meal (the API, the Meals page and a synced device's delete): the meal and every day it
/// was planned on, each in the change feed, in one write. Diary entries logged from it keep the
/// values they were logged with.
struct DeleteMeal {
    let meals: MealRepository
    let now: Date

    /// The meal deleted; nil when the person has none with that id.
    @discardableResult
    func callAsFunction(_ id: UUID) async throws -> Meal? {
        let meals = meals, now = now
        return try await meals.db.write { tx in
            let meals = MealRepository(db: tx, ownerID: meals.ownerID)
            guard let meal = try await meals.find(id), try await meals.delete(id, now: now) else { return nil }
            return meal
        }
    }
}
