import ForkcastCore
import Foundation

extension MealInput {
    /// The meal this input describes: units and servings checked here, the rest by ``SaveMeal``.
    /// Throws ``ValidationError`` naming each field.
    public func draft() throws -> MealDraft {
        var problems: [ValidationError.Field] = []
        var ingredients: [Ingredient] = []
        for (index, input) in (self.ingredients ?? []).enumerated() {
            guard let unit = QuantityUnit(rawValue: input.unit) else {
                problems.append(.init(field: "ingredients[\(index)].unit", message: "unit must be \"g\", \"ml\" or \"serving\"."))
                continue
            }
            ingredients.append(Ingredient(foodId: input.foodId, quantity: input.quantity, unit: unit))
        }
        var wholeServings = 1
        if let servings {
            if servings == servings.rounded(0), servings >= 1, servings <= Decimal(MealDraft.maximumServings) {
                wholeServings = NSDecimalNumber(decimal: servings).intValue
            } else {
                problems.append(.init(field: "servings", message: "Servings must be a whole number from 1 to \(MealDraft.maximumServings)."))
            }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let manual = nutrition.map { Nutrients(energyKcal: $0.energyKcal, protein: $0.protein, carbohydrates: $0.carbohydrates, fat: $0.fat) }
        return MealDraft(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb,
                         otherComponents: otherComponents ?? [], servings: wholeServings, ingredients: ingredients,
                         manualNutrition: manual)
    }
}
