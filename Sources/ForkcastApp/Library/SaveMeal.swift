import ForkcastCore
import Foundation

/// Saving a meal: the one way a meal is added or changed, from the API, the Meals page, a synced
/// device and an account import. It validates with ForkcastCore's ``MealDraft``, checks that every
/// ingredient is one of the person's foods in a unit that food can be measured in, and writes the
/// meal with its components and ingredients in one transaction.
public struct SaveMeal: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// A new meal. Throws ``ValidationError`` naming each bad field, and a
    /// ``Refusal/missingReference(field:detail:)`` for an ingredient that is not one of the
    /// person's foods.
    public func add(_ draft: MealDraft, id: UUID) async throws -> Meal {
        try await save(draft, id: id, mode: .add)!
    }

    /// A change to one of the person's meals; nil when they have none with that id.
    public func change(_ draft: MealDraft, id: UUID) async throws -> Meal? {
        try await save(draft, id: id, mode: .change)
    }

    /// A synced device's meal: changed when the person has it, added when not.
    @discardableResult
    public func addOrChange(_ draft: MealDraft, id: UUID) async throws -> Meal {
        try await save(draft, id: id, mode: .addOrChange)!
    }

    private enum Mode { case add, change, addOrChange }

    private func save(_ draft: MealDraft, id: UUID, mode: Mode) async throws -> Meal? {
        let content = try draft.validated()
        let now = now
        return try await library.write { tx in
            try await Self.checkIngredients(content.ingredients, foods: tx.foods)
            if mode != .add, let changed = try await tx.meals.replace(id, with: content, now: now) { return changed }
            if mode == .change { return nil }
            return try await tx.meals.insert(content, id: id, now: now)
        }
    }

    /// Every ingredient must be one of the person's foods, in a unit that food can be measured in.
    private static func checkIngredients(_ ingredients: [Ingredient], foods: any FoodRecords) async throws {
        guard !ingredients.isEmpty else { return }
        let found = try await foods.find(ids: ingredients.map(\.foodId))
        // A food the person does not have is a missing reference (404 naming the field), like any id.
        if let index = ingredients.firstIndex(where: { found[$0.foodId] == nil }) {
            throw Refusal.missingReference(field: "ingredients[\(index)].foodId",
                                           detail: "No food with id \(ingredients[index].foodId) exists in your account.")
        }
        var problems: [ValidationError.Field] = []
        for (index, ingredient) in ingredients.enumerated() {
            guard let food = found[ingredient.foodId] else { continue }
            do { _ = try FoodMath.basisAmount(of: food, quantity: ingredient.quantity, unit: ingredient.unit) } catch {
                problems.append(.init(field: "ingredients[\(index)].unit", message: error.message))
            }
        }
        if !problems.isEmpty { throw ValidationError(problems) }
    }
}
