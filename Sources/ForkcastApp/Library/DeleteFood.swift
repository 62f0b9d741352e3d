import ForkcastCore
import Foundation

/// Deleting a food (the API, the Foods page and a synced device's delete). A food some meal uses is
/// kept, with a ``Refusal/conflict(_:)`` naming those meals: deleting it would silently change
/// their nutrition.
public struct DeleteFood: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The food deleted; nil when the person has none with that id.
    @discardableResult
    public func callAsFunction(_ id: UUID) async throws -> Food? {
        let now = now
        return try await library.write { tx in
            guard let food = try await tx.foods.find(id) else { return nil }
            let meals = try await tx.foods.meals(using: id)
            guard meals.isEmpty else {
                throw Refusal.conflict("“\(food.name)” is an ingredient of \(meals.map { "“\($0)”" }.joined(separator: ", ")); remove it from those meals first.")
            }
            // Its lots go with it: a pantry holds only foods the household has.
            try await tx.pantry.delete(try await tx.pantry.items(of: [id]).map(\.id), now: now)
            _ = try await tx.foods.delete(id, now: now)
            return food
        }
    }
}
