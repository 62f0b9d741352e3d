import ForkcastCore
import Foundation

/// A recipe brought in from a page, a file or pasted text, read and matched but not saved: each
/// ingredient line matched to one of the person's foods, else a catalogue food, else kept as text.
/// The person corrects the draft and saves it with ``SaveMeal``.
public struct DraftRecipe: Sendable {
    public enum Source: Sendable {
        case html(String), jsonLD(String), text(String)
    }

    public enum Match: Sendable, Hashable {
        case food(Food)
        case catalog(CatalogFood)
        case none
    }

    public struct Line: Sendable {
        public var line: IngredientLine
        public var match: Match
        /// The amount in the matched food's terms, when the line's unit relates to it.
        public var amount: (quantity: Decimal, unit: QuantityUnit, conversion: IngredientLine.Conversion)?
        /// The unit the line was written in, kept beside the amount ("⅓ cup" for 67 g of sugar).
        public var written: WrittenUnit? {
            amount.flatMap { WrittenUnit(quantity: line.quantity?.amount, unit: line.unit, stored: $0.quantity, as: $0.unit) }
        }
    }

    public struct Draft: Sendable {
        public var recipe: ImportedRecipe
        /// How many recipes the source held (the draft is the first).
        public var found: Int
        public var meal: MealDraft
        public var lines: [Line]
        /// Of the matched lines with an amount, per serving.
        public var nutritionPerServing: Nutrients
    }

    /// The person's foods whose names match a query, best first.
    let ownFoods: @Sendable (String) async throws -> [Food]
    let catalog: any FoodCatalog
    public static let maximumLines = 500

    public init(ownFoods: @escaping @Sendable (String) async throws -> [Food], catalog: any FoodCatalog) {
        self.ownFoods = ownFoods
        self.catalog = catalog
    }

    /// The recipes in a source: plain work on the text, for a caller to run off its event loop.
    public static func read(_ source: Source) -> [ImportedRecipe] {
        switch source {
        case .html(let html): RecipePage.recipes(inHTML: html)
        case .jsonLD(let json): RecipePage.recipes(inHTML: "<script type=\"application/ld+json\">\(json)</script>")
        case .text(let text): RecipeText.recipe(in: text).map { [$0] } ?? []
        }
    }

    /// The draft of the first of `recipes` read from `source` (``read(_:)``); none, or more lines
    /// than a recipe holds, is a ``ValidationError``.
    public func draft(_ recipes: [ImportedRecipe], from source: Source) async throws -> Draft {
        guard let recipe = recipes.first else {
            throw ValidationError(field: Self.field(source), "No recipe found: paste a page with schema.org Recipe data, a recipe's JSON-LD, or its text.")
        }
        guard recipe.ingredients.count <= Self.maximumLines, recipe.steps.count <= Self.maximumLines else {
            throw ValidationError(field: Self.field(source), "This recipe has \(recipe.ingredients.count) ingredient lines and \(recipe.steps.count) steps; a recipe holds at most \(MealDraft.maximumIngredients) ingredients and \(Recipe.maximumSteps) steps.")
        }
        var lines: [Line] = []
        var lookups = Lookups()
        for text in recipe.ingredients {
            lines.append(try await match(IngredientLine(text), &lookups))
        }
        let servings = min(max(recipe.servings ?? 1, 1), MealDraft.maximumServings)
        var mealLines: [MealLine] = []
        var total = Nutrients()
        for line in lines {
            switch (line.match, line.amount) {
            case _ where line.line.isOptional:
                // An extra ("Optional: chicken", "olives (optional)") stays as written, out of the totals.
                mealLines.append(.text(line.line.text))
            case let (.food(food), amount?):
                mealLines.append(.food(Ingredient(foodId: food.id, quantity: amount.quantity, unit: amount.unit, written: line.written)))
                total = total + ((try? FoodMath.nutrients(of: food, quantity: amount.quantity, unit: amount.unit)) ?? Nutrients())
            case let (.catalog(entry), amount?):
                // Asked without a serving, a catalogue food's amount is always in grams.
                mealLines.append(.text(line.line.text))
                total = total + entry.per100.scaled(by: amount.quantity / 100)
            default:
                mealLines.append(.text(line.line.text))
            }
        }
        let (ingredients, texts) = MealLine.split(mealLines)
        let meal = MealDraft(
            description: String(recipe.name.prefix(MealDraft.maximumDescriptionLength)), servings: servings, ingredients: ingredients,
            recipe: Recipe(steps: recipe.steps.prefix(Recipe.maximumSteps).map { RecipeStep(text: String($0.prefix(Recipe.maximumStepLength))) },
                           prepMinutes: recipe.prepMinutes.map { min($0, Recipe.maximumMinutes) },
                           cookMinutes: recipe.cookMinutes.map { min($0, Recipe.maximumMinutes) },
                           source: String((recipe.url ?? "").prefix(Recipe.maximumSourceLength)).trimmed.nilIfEmptyString,
                           notes: recipe.description.map { String($0.prefix(Recipe.maximumNotesLength)) }, textIngredients: texts))
        return Draft(recipe: recipe, found: recipes.count, meal: meal, lines: lines, nutritionPerServing: total.scaled(by: 1 / Decimal(servings)))
    }

    /// What one draft has looked up, so that lines naming the same food ask once; at most
    /// `limit` names are asked in all (500 lines of eight names each would be 4,000 searches).
    struct Lookups {
        var own: [String: [Food]] = [:]
        /// Asked only for a name no own food answers.
        var catalog: [String: [CatalogFood]] = [:]
        static let limit = 1_500
    }

    /// The line's food by each of its ``IngredientLine/searchNames`` in turn: among the person's
    /// foods, then the catalogue's, taking only a food whose name has every word of the name. Of
    /// the catalogue's, the first in the state the line means (dry pasta) and stating its energy
    /// that the line's amount relates to, else the first.
    private func match(_ line: IngredientLine, _ lookups: inout Lookups) async throws -> Line {
        // 38 catalogue foods state no energy (olive oil, butter among them): one is taken only
        // when no name of the line finds another.
        var withoutEnergy: Line?
        for name in line.searchNames {
            if lookups.own[name] == nil {
                guard lookups.own.count < Lookups.limit else { break }
                lookups.own[name] = try await ownFoods(name)
            }
            let own = lookups.own[name] ?? []
            if let food = own.first(where: { $0.name.matchKey == name.matchKey }) ?? own.first(where: { IngredientLine.names(name, match: $0.name) }) {
                return Line(line: line, match: .food(food), amount: line.amount(basis: food.basis, serving: food.serving,
                                                                                  density: CookWeight.gramsPerMilliliter(line: line.food, name: food.name)))
            }
            if lookups.catalog[name] == nil { lookups.catalog[name] = try await catalog.search(name, page: try Paging(per: 8)).items }
            let named = (lookups.catalog[name] ?? []).filter { IngredientLine.names(name, match: $0.name) }
            let rank = { (food: CatalogFood) in (food.per100.energyKcal == nil ? 2 : 0) + (line.means(food.name) ? 0 : 1) }
            let lines = (0...3).flatMap { r in named.filter { rank($0) == r } }.map { food in
                Line(line: line, match: .catalog(food), amount: line.amount(
                    basis: .gram, serving: nil, portions: food.portions,
                    density: CookWeight.gramsPerMilliliter(line: line.food, name: food.name, category: food.category),
                    each: CookWeight.gramsEach(line: line.food, name: food.name)))
            }
            guard let best = lines.first(where: { $0.amount != nil }) ?? lines.first else { continue }
            if case .catalog(let food) = best.match, food.per100.energyKcal == nil {
                withoutEnergy = withoutEnergy ?? best
                continue
            }
            return best
        }
        return withoutEnergy ?? Line(line: line, match: .none)
    }

    private static func field(_ source: Source) -> String {
        switch source { case .html: "html"; case .jsonLD: "jsonld"; case .text: "text" }
    }
}
