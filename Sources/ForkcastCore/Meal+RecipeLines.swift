import Foundation

/// One ingredient line of a recipe as a cook reads it, for some number of servings.
public struct RecipeLineText: Hashable, Sendable {
    /// "1.5 kg", "⅔ cup", "2 × 1 clove (3 g)"; nil for a line without an amount.
    public var amount: String?
    /// The rest of the line: the food's name, or the written line's food and preparation.
    public var name: String
    /// What a step calls it ("Garlic" for "Garlic, raw").
    public var key: String
    /// A line kept as written (no food).
    public var isText: Bool
    /// What a line in the cook's unit weighs as stored ("80 g" for "1 cup"), for other apps.
    public var measured: String?

    /// The whole line: "1.5 kg Flour".
    public var text: String { amount.map { "\($0) \(name)" } ?? name }
    /// The line with its weight where the cook's unit only estimates it ("1 cup Rolled oats (80 g)"), so
    /// the recipe imported elsewhere weighs what it did here. More than one says "in all" (not each: "2 cans").
    public var exactText: String { measured.map { "\(text) (\($0))" } ?? text }
}

extension Meal {
    /// Every line of the recipe, in order, with its amount for `servings` (the recipe's own by
    /// default): a food's grams as a cook writes them, a written line scaled where it has an amount.
    public func recipeLines(foods: [UUID: Food], servings: Int? = nil) -> [RecipeLineText] {
        let factor = Decimal(servings ?? self.servings) / Decimal(max(self.servings, 1))
        return lines.map { line in
            switch line {
            case .food(let ingredient):
                let food = foods[ingredient.foodId]
                let name = food?.name ?? "A food no longer in the library"
                let q = CookQuantity(ingredient.quantity * factor)
                let metric: CookUnit? = switch ingredient.unit { case .gram: .gram; case .milliliter: .milliliter; case .serving: nil }
                let amount = ingredient.written.map { $0.text(q.amount) } ?? metric.map { q.text(unit: $0) }
                    ?? "\(q.text(unit: nil)) × \(food?.serving?.displayLabel ?? "serving")"
                let measured = ingredient.written.flatMap { written in
                    metric.map { q.text(unit: $0) + (q.amount / written.size > Decimal(string: "1.01")! ? " in all" : "") }
                }
                return RecipeLineText(amount: amount, name: name, key: String(name.prefix { $0 != "," && $0 != "(" }).trimmed, isText: false,
                                      measured: measured)
            case .text(let text):
                let parsed = IngredientLine(text)
                guard parsed.quantity != nil, !parsed.food.isEmpty else { return RecipeLineText(amount: nil, name: text, key: parsed.food, isText: true) }
                let rest = [parsed.food, parsed.preparation].compactMap { $0 }.joined(separator: ", ") + (parsed.note.map { " (\($0))" } ?? "")
                return RecipeLineText(amount: parsed.scaled(by: factor).amountText, name: rest, key: parsed.food, isText: true)
            }
        }
    }
}
