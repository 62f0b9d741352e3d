import Fluent
import ForkcastCore
import Foundation

/// Deleting a food (the API, the Foods page and a synced device's delete). A food some meal uses is
/// kept, with a 409 naming those meals: deleting it would silently change their nutrition.
struct DeleteFood {
    let foods: FoodRepository
    let now: Date

    /// The food deleted; nil when the person has none with that id.
    @discardableResult
    func callAsFunction(_ id: UUID) async throws -> Food? {
        let foods = foods, now = now
        return try await foods.db.write { tx in
            let foods = FoodRepository(db: tx, ownerID: foods.ownerID)
            guard let food = try await foods.find(id) else { return nil }
            let meals = try await foods.meals(using: id)
            guard meals.isEmpty else {
                throw AppError.conflict("“\(food.name)” is an ingredient of \(meals.map { "“\($0)”" }.joined(separator: ", ")); remove it from those meals first.")
            }
            _ = try await foods.delete(id, now: now)
            return food
        }
    }
}
