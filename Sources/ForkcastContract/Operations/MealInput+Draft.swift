import ForkcastCore
import Foundation

extension MealInput {
    /// The meal this input describes: units and servings checked here, the rest by ``SaveMeal``.
    /// Throws ``ValidationError`` naming each field.
    public func draft() throws -> MealDraft {
        var problems: [ValidationError.Field] = []
        var lines: [MealLine] = []
        for (index, input) in (self.ingredients ?? []).enumerated() {
            if let text = input.text, input.foodId == nil, input.quantity == nil, input.unit == nil, input.writtenUnit == nil, input.writtenUnitSize == nil {
                lines.append(.text(text))
                continue
            }
            guard let foodId = input.foodId, let quantity = input.quantity, input.text == nil else {
                problems.append(.init(field: "ingredients[\(index)]", message: "An ingredient is either foodId, quantity and unit, or text alone."))
                continue
            }
            guard let unit = input.unit.flatMap(QuantityUnit.init(rawValue:)) else {
                problems.append(.init(field: "ingredients[\(index)].unit", message: "unit must be \"g\", \"ml\" or \"serving\"."))
                continue
            }
            var written: WrittenUnit?
            if input.writtenUnit != nil || input.writtenUnitSize != nil {
                let cookUnit = input.writtenUnit.flatMap(CookUnit.init(rawValue:))
                guard input.writtenUnit == nil || cookUnit != nil, let size = input.writtenUnitSize, let found = WrittenUnit(unit: cookUnit, size: size) else {
                    problems.append(.init(field: "ingredients[\(index)].writtenUnitSize", message: "A written unit is one of the cook's units with its size in `unit`, from \(Plausible.quantity.lower) to \(Plausible.quantity.upper)."))
                    continue
                }
                written = found
            }
            lines.append(.food(Ingredient(foodId: foodId, quantity: quantity, unit: unit, written: written)))
        }
        let (ingredients, texts) = MealLine.split(lines)
        var steps: [RecipeStep] = []
        for (index, step) in (self.steps ?? []).enumerated() {
            let timer = step.timerSeconds.flatMap { Self.whole($0, in: 1...Recipe.maximumTimerSeconds) }
            if step.timerSeconds != nil, timer == nil {
                problems.append(.init(field: "steps[\(index)].timerSeconds", message: "A step's timer is a whole number of seconds from 1 to \(Recipe.maximumTimerSeconds) (48 hours)."))
            }
            steps.append(RecipeStep(text: step.text, timerSeconds: timer))
        }
        var minutes: [Int?] = []
        for (field, value) in [("prepMinutes", prepMinutes), ("cookMinutes", cookMinutes)] {
            let whole = value.flatMap { Self.whole($0, in: 0...Recipe.maximumMinutes) }
            if value != nil, whole == nil {
                problems.append(.init(field: field, message: "Minutes are a whole number from 0 to \(Recipe.maximumMinutes) (a week)."))
            }
            minutes.append(whole)
        }
        var wholeServings = 1
        if let servings {
            if let whole = Self.whole(servings, in: 1...MealDraft.maximumServings) {
                wholeServings = whole
            } else {
                problems.append(.init(field: "servings", message: "Servings must be a whole number from 1 to \(MealDraft.maximumServings)."))
            }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let manual = nutrition.map { Nutrients(energyKcal: $0.energyKcal, protein: $0.protein, carbohydrates: $0.carbohydrates, fat: $0.fat) }
        return MealDraft(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb,
                         otherComponents: otherComponents ?? [], servings: wholeServings, ingredients: ingredients,
                         manualNutrition: manual,
                         recipe: Recipe(steps: steps, prepMinutes: minutes[0], cookMinutes: minutes[1], source: source, notes: notes,
                                        textIngredients: texts))
    }

    private static func whole(_ value: Decimal, in range: ClosedRange<Int>) -> Int? {
        guard value == value.rounded(0), value >= Decimal(range.lowerBound), value <= Decimal(range.upperBound) else { return nil }
        return NSDecimalNumber(decimal: value).intValue
    }
}
