import Foundation

/// An amount of a food in a meal.
public struct Ingredient: Hashable, Sendable, Codable {
    public var foodId: UUID
    public var quantity: Decimal
    public var unit: QuantityUnit

    public init(foodId: UUID, quantity: Decimal, unit: QuantityUnit) {
        self.foodId = foodId
        self.quantity = quantity
        self.unit = unit
    }
}

/// What a meal holds: nutrition and cost of the whole and of one serving.
public struct MealTotals: Hashable, Sendable {
    public var total: Nutrients
    public var perServing: Nutrients
    /// Cost of the whole meal, when every ingredient has a price.
    public var cost: Decimal?
    public var costPerServing: Decimal?

    public init(total: Nutrients, perServing: Nutrients, cost: Decimal?, costPerServing: Decimal?) {
        self.total = total
        self.perServing = perServing
        self.cost = cost
        self.costPerServing = costPerServing
    }

    public static let unknown = MealTotals(total: Nutrients(), perServing: Nutrients(), cost: nil, costPerServing: nil)

    /// Totals from the ingredients (each one's share of its food's per-100 values), or from the
    /// nutrition typed in by hand when the meal has no ingredients.
    public static func of(_ meal: Meal, foods: [UUID: Food]) throws(FoodMath.ConversionError) -> MealTotals {
        let servings = Decimal(max(meal.servings, 1))
        guard !meal.ingredients.isEmpty else {
            let per = meal.manualNutrition ?? Nutrients()
            return MealTotals(total: per.scaled(by: servings), perServing: per, cost: nil, costPerServing: nil)
        }
        var total = Nutrients()
        var cost: Decimal? = 0
        for ingredient in meal.ingredients {
            guard let food = foods[ingredient.foodId] else { continue }
            total = total + (try FoodMath.nutrients(of: food, quantity: ingredient.quantity, unit: ingredient.unit))
            let share = try FoodMath.cost(of: food, quantity: ingredient.quantity, unit: ingredient.unit)
            cost = share.flatMap { s in cost.map { $0 + s } }
        }
        return MealTotals(total: total, perServing: total.scaled(by: 1 / servings), cost: cost, costPerServing: cost.map { $0 / servings })
    }
}

/// Totals of planned meals: one serving of each assignment.
public struct PlanTotals: Hashable, Sendable {
    public var nutrients: Nutrients
    /// Sum of the known costs; nil when no planned meal has one.
    public var cost: Decimal?

    public init(nutrients: Nutrients, cost: Decimal?) {
        self.nutrients = nutrients
        self.cost = cost
    }

    public static let empty = PlanTotals(nutrients: Nutrients(), cost: nil)

    public static func of(_ meals: [MealTotals]) -> PlanTotals {
        var result = PlanTotals.empty
        for meal in meals { result = result + PlanTotals(nutrients: meal.perServing, cost: meal.costPerServing) }
        return result
    }

    public static func + (a: PlanTotals, b: PlanTotals) -> PlanTotals {
        let cost: Decimal? = switch (a.cost, b.cost) {
        case (nil, nil): nil
        case let (x?, nil): x
        case let (nil, y?): y
        case let (x?, y?): x + y
        }
        return PlanTotals(nutrients: a.nutrients + b.nutrients, cost: cost)
    }
}
