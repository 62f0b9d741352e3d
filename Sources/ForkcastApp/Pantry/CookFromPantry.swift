import ForkcastCore
import Foundation

/// A planned meal cooked: its ingredients, scaled to the plan entry's portions, taken out of the
/// pantry, from the lot that goes off first — partly where there is less than needed, which is
/// said. Once per plan entry, whichever door comes first ("cooked" on the planner, "We ate this",
/// Log on Today): a second one takes nothing.
public struct CookFromPantry: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// One ingredient's taking, in the food's g or ml.
    public struct Line: Sendable, Hashable {
        public let foodId: UUID
        public let name: String
        public let unit: NutritionBasis
        public let needed: Decimal
        public let taken: Decimal
        /// What the pantry did not hold.
        public let short: Decimal
    }

    public struct Cooked: Sendable, Hashable {
        public let assignment: Assignment
        /// Empty when the entry had been cooked already.
        public let lines: [Line]
        public let alreadyCooked: Bool
    }

    /// Nil when the household has no such plan entry.
    public func callAsFunction(_ assignmentID: UUID) async throws -> Cooked? {
        let now = now
        return try await library.write { tx in
            guard let assignment = try await tx.plan.find(assignmentID), let meal = try await tx.meals.find(assignment.mealId) else { return nil }
            guard try await tx.pantry.markCooked(assignmentID, now: now) else {
                return Cooked(assignment: assignment, lines: [], alreadyCooked: true)
            }
            let foods = try await tx.foods.find(ids: meal.ingredients.map(\.foodId))
            let needs = ShoppingPlan.needs([PlanDay.Entry(assignment: assignment, meal: meal)], foods: foods, categories: [:])
            let lots = Dictionary(grouping: try await tx.pantry.items(of: needs.map(\.foodId)), by: \.foodId)
            var lines: [Line] = []
            for need in needs {
                // A food without a serving size needed in servings cannot be weighed against its lots.
                guard let food = foods[need.foodId], need.unit == food.basis.rawValue else { continue }
                let taking = PantryRules.take(need.quantity, from: lots[food.id] ?? [], now: now)
                for lot in taking.left {
                    if lot.amount > 0 { _ = try await tx.pantry.replace(lot, now: now) } else { try await tx.pantry.delete([lot.id], now: now) }
                }
                lines.append(Line(foodId: food.id, name: food.name, unit: food.basis, needed: need.quantity, taken: taking.taken, short: taking.short))
            }
            return Cooked(assignment: assignment, lines: lines, alreadyCooked: false)
        }
    }
}
