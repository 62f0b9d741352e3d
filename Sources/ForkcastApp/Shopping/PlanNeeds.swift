import ForkcastCore
import Foundation

/// What the plan of a range needs, read inside a transaction: the planned meals' foods with the
/// aisle of each (the person's earlier choice, the catalogue's category, or the food's icon's).
struct PlanNeeds {
    let catalog: any FoodCatalog

    /// The catalogue foods the plan of the range uses (read in a transaction of its own).
    static func catalogIDs(from: CalendarDate, to: CalendarDate, in tx: any LibraryTransaction) async throws -> Set<String> {
        let entries = try await tx.plan.entries(from: from, to: to)
        let foods = try await tx.foods.find(ids: Array(Set(entries.flatMap { $0.meal.ingredients.map(\.foodId) })))
        return Set(foods.values.compactMap(\.catalogId))
    }

    /// Their categories. The API and the web look them up between two writes: the catalogue may be
    /// loading, and a person's write must not wait for it (nor hold the write lock meanwhile). A
    /// sync push makes its lists inside the push's one write, so a ``FoodCatalog`` read inside a
    /// write reads through it and loads nothing there (on SQLite a read through another connection
    /// would wait for the write's own).
    func categories(of ids: Set<String>) async throws -> [String: String] {
        var result: [String: String] = [:]
        for id in ids.sorted() { result[id] = try await catalog.find(id)?.category }
        return result
    }

    /// `bought`: the list's own items, whose lots (booked when ticked) are what it bought, not what
    /// the pantry held: they do not cover the list that bought them.
    static func needs(from: CalendarDate, to: CalendarDate, in tx: any LibraryTransaction, catalogCategories: [String: String],
                      bought: Set<UUID> = []) async throws -> [ShoppingPlan.Need] {
        let entries = try await tx.plan.entries(from: from, to: to)
        let foodIDs = Array(Set(entries.flatMap { $0.meal.ingredients.map(\.foodId) }))
        let foods = try await tx.foods.find(ids: foodIDs)
        let chosen = try await tx.shopping.chosenCategories(for: foodIDs)
        var categories: [UUID: (name: String, chosen: Bool)] = [:]
        for food in foods.values {
            if let name = chosen[food.id] { categories[food.id] = (name, true); continue }
            categories[food.id] = (ShoppingCategory.of(food, catalogCategory: food.catalogId.flatMap { catalogCategories[$0] }), false)
        }
        var stock: [UUID: Decimal] = [:]
        for lot in try await tx.pantry.items(of: foodIDs) where !bought.contains(lot.id) { stock[lot.foodId, default: 0] += lot.amount }
        return ShoppingPlan.covered(ShoppingPlan.needs(entries, foods: foods, categories: categories), stock: stock, foods: foods)
    }
}
