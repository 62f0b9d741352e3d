import Foundation

/// An amount of a food in a meal.
public struct Ingredient: Hashable, Sendable, Codable {
    public var foodId: UUID
    public var quantity: Decimal
    public var unit: QuantityUnit
    /// The unit the cook wrote it in ("⅓ cup"), shown instead of grams; the totals use `quantity`.
    public var written: WrittenUnit?

    public init(foodId: UUID, quantity: Decimal, unit: QuantityUnit, written: WrittenUnit? = nil) {
        self.foodId = foodId
        self.quantity = quantity
        self.unit = unit
        self.written = written
    }
}

/// A cook's unit for an ingredient stored in grams, millilitres or servings: one `unit` ("cup") is
/// `size` of the stored unit (a cup of this flour, 125 g); without `unit`, one of the food as
/// counted (an egg, 50 g). Kept as a ratio, so an edited amount still reads in the cook's unit.
public struct WrittenUnit: Hashable, Sendable, Codable {
    public var unit: CookUnit?
    public var size: Decimal

    /// Nil unless `size` is a plausible amount (a cup is at most 100 kg of anything).
    public init?(unit: CookUnit?, size: Decimal) {
        guard Plausible.quantity.contains(size) else { return nil }
        self.unit = unit
        self.size = size
    }

    /// How a line written as `quantity` `unit` became `stored` of a food: nil where the cook's
    /// unit is the stored one (grams written as grams) or nothing was written.
    public init?(quantity: Decimal?, unit: CookUnit?, stored: Decimal, as storedUnit: QuantityUnit) {
        guard let quantity, quantity > 0, storedUnit != .serving || unit != nil else { return nil }
        if unit == .gram && storedUnit == .gram || unit == .milliliter && storedUnit == .milliliter { return nil }
        self.init(unit: unit, size: stored / quantity)
    }

    /// A file or a device is held to the same bounds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let checked = WrittenUnit(unit: try c.decodeIfPresent(CookUnit.self, forKey: .unit), size: try c.decode(Decimal.self, forKey: .size)) else {
            throw DecodingError.dataCorruptedError(forKey: .size, in: c, debugDescription: "A written unit's size is from \(Plausible.quantity.lower) to \(Plausible.quantity.upper).")
        }
        self = checked
    }

    /// `amount` of the stored unit in the cook's: 67 g of sugar at 200 g a cup → "⅓ cup".
    public func text(_ amount: Decimal) -> String { CookQuantity(amount / size).text(unit: unit) }
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
