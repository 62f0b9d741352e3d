import Foundation

/// A meal as a schema.org Recipe in JSON-LD, for a file to download, a page to embed it in, or
/// another program (another Forkcast, Mealie, Tandoor) to import.
public struct RecipeDocument: Encodable, Sendable {
    public var name: String
    public var recipeYield: String
    public var prepTime: String?
    public var cookTime: String?
    public var totalTime: String?
    public var recipeIngredient: [String]
    public var recipeInstructions: [Step]
    public var description: String?
    public var isBasedOn: String?
    public var nutrition: Nutrition?
    /// The photo's address, where whoever reads the document can fetch it (a shared recipe's).
    public var image: String?

    public struct Step: Encodable, Sendable {
        public var text: String
        /// An ISO 8601 duration: the step's timer.
        public var timeRequired: String?
        private enum CodingKeys: String, CodingKey { case type = "@type", text, timeRequired }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode("HowToStep", forKey: .type); try c.encode(text, forKey: .text); try c.encodeIfPresent(timeRequired, forKey: .timeRequired)
        }
    }

    public struct Nutrition: Encodable, Sendable {
        public var values: [String: String]
        public func encode(to encoder: any Encoder) throws {
            try (["@type": "NutritionInformation", "servingSize": "1 serving"].merging(values) { $1 }).encode(to: encoder)
        }
    }

    public init(meal: Meal, foods: [UUID: Food], perServing: Nutrients?) {
        name = meal.description
        recipeYield = "\(meal.servings) serving\(meal.servings == 1 ? "" : "s")"
        let r = meal.recipe
        prepTime = r.prepMinutes.map { "PT\($0)M" }
        cookTime = r.cookMinutes.map { "PT\($0)M" }
        totalTime = r.prepMinutes == nil && r.cookMinutes == nil ? nil : "PT\((r.prepMinutes ?? 0) + (r.cookMinutes ?? 0))M"
        recipeIngredient = meal.recipeLines(foods: foods).map(\.exactText)
        recipeInstructions = r.steps.map { Step(text: $0.text, timeRequired: $0.timerSeconds.map { "PT\($0)S" }) }
        description = r.notes
        isBasedOn = r.source
        let grams: [(String, Nutrient)] = [("proteinContent", .protein), ("carbohydrateContent", .carbohydrates), ("fatContent", .fat),
                                           ("fiberContent", .fiber), ("sugarContent", .sugars), ("saturatedFatContent", .saturatedFat)]
        var values: [String: String] = [:]
        if let kcal = perServing?.energyKcal { values["calories"] = "\(kcal.display(0)) kcal" }
        for (key, nutrient) in grams { if let v = perServing?[nutrient] { values[key] = "\(v.display(1)) g" } }
        if let sodium = perServing?[.sodium] { values["sodiumContent"] = "\(sodium.display(0)) mg" }
        nutrition = values.isEmpty ? nil : Nutrition(values: values)
    }

    private enum CodingKeys: String, CodingKey {
        case context = "@context", type = "@type", name, recipeYield, prepTime, cookTime, totalTime, recipeIngredient, recipeInstructions
        case description, isBasedOn, nutrition, image
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("https://schema.org", forKey: .context); try c.encode("Recipe", forKey: .type)
        try c.encode(name, forKey: .name); try c.encode(recipeYield, forKey: .recipeYield)
        try c.encodeIfPresent(prepTime, forKey: .prepTime); try c.encodeIfPresent(cookTime, forKey: .cookTime)
        try c.encodeIfPresent(totalTime, forKey: .totalTime)
        try c.encode(recipeIngredient, forKey: .recipeIngredient); try c.encode(recipeInstructions, forKey: .recipeInstructions)
        try c.encodeIfPresent(description, forKey: .description); try c.encodeIfPresent(isBasedOn, forKey: .isBasedOn)
        try c.encodeIfPresent(nutrition, forKey: .nutrition); try c.encodeIfPresent(image, forKey: .image)
    }

    /// The document as JSON safe inside a page's `<script>`: `<` written as `\u003c`.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return text.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
