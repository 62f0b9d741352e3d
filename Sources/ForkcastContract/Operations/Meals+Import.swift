import ForkcastCore
import Foundation

extension Meals {
    public enum Import: APIOperation {
        public typealias Body = RecipeImportInput
        public typealias Answer = RecipeDraftAnswer
        public static let spec = OperationSpec(.post, "/api/v1/meals/import", "importRecipe", tag: "meals",
            summary: "Read a recipe from a page's HTML, its JSON-LD or its text into a draft meal; nothing is saved",
            success: Outcome(200, "The draft: the meal to send to POST /api/v1/meals once corrected, each ingredient line with its match"),
            failures: Outcome.writeJSON)
    }

    public enum RecipeJSONLD: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.get, "/api/v1/meals/{id}/recipe.jsonld", "getRecipeJSONLD", tag: "meals",
            summary: "The meal as a schema.org Recipe (JSON-LD), a file another recipe app imports",
            success: Outcome(200, "The recipe"), failures: [Outcome(404, "No such meal in your account")] + Outcome.read,
            parameterNotes: ["id": FieldNote("The meal's id")],
            answerHeaders: ["Content-Disposition": "attachment; filename=…"], rawAnswer: ["application/ld+json": ["type": "object"]])
    }
}

/// `POST /api/v1/meals/import`: exactly one of a page's HTML, a JSON-LD document, or a recipe's text.
public struct RecipeImportInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var html: String?
    public var jsonld: String?
    public var text: String?
    public init(html: String? = nil, jsonld: String? = nil, text: String? = nil) {
        self.html = html
        self.jsonld = jsonld
        self.text = text
    }
    public static let schemaName = "RecipeImportInput"
    public static var fieldNotes: [String: FieldNote] {
        ["html": FieldNote("A saved page: its schema.org Recipe (JSON-LD or microdata) is read, nothing is fetched"),
         "jsonld": FieldNote("A schema.org Recipe document (a .json file)"),
         "text": FieldNote("A recipe as text: title first, then ingredients and steps")]
    }
    public static var schemaExtras: [String: JSONValue] {
        ["oneOf": [["required": ["html"], "properties": ["jsonld": ["type": "null"], "text": ["type": "null"]]],
                   ["required": ["jsonld"], "properties": ["html": ["type": "null"], "text": ["type": "null"]]],
                   ["required": ["text"], "properties": ["html": ["type": "null"], "jsonld": ["type": "null"]]]]]
    }
}

/// What a line of the draft was matched to: one of your foods, a catalogue food (adopt it to use
/// it), or nothing (kept as text).
public struct RecipeMatchAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var kind: String
    public var foodId: UUID?
    public var catalogId: String?
    public var name: String?
    /// The line's amount in the food's terms (g, ml or serving), when its unit relates to the food.
    public var quantity: Decimal?
    public var unit: String?
    /// exact (a weight), portion (through a known portion such as "1 cup = 128 g") or estimated (a
    /// volume at the food's usual density, a count at a usual weight).
    public var conversion: String?
    public init(kind: String, foodId: UUID? = nil, catalogId: String? = nil, name: String? = nil, quantity: Decimal? = nil,
                unit: String? = nil, conversion: String? = nil) {
        self.kind = kind; self.foodId = foodId; self.catalogId = catalogId; self.name = name
        self.quantity = quantity; self.unit = unit; self.conversion = conversion
    }
    public static let schemaName = "RecipeMatch"
    public static var fieldNotes: [String: FieldNote] {
        ["kind": FieldNote("food, catalog or none", schema: ["type": "string", "enum": ["food", "catalog", "none"]])]
    }
}

/// One ingredient line of a draft, read into its parts.
public struct RecipeLineAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var text: String
    public var quantity: Decimal?
    /// The upper end of a range ("2-3").
    public var upTo: Decimal?
    /// The unit as written, normalised ("cup", "tbsp", "g"); null for a count.
    public var unit: String?
    public var food: String
    public var preparation: String?
    public var note: String?
    public var match: RecipeMatchAnswer
    public init(text: String, quantity: Decimal?, upTo: Decimal?, unit: String?, food: String, preparation: String?, note: String?,
                match: RecipeMatchAnswer) {
        self.text = text; self.quantity = quantity; self.upTo = upTo; self.unit = unit; self.food = food
        self.preparation = preparation; self.note = note; self.match = match
    }
    public static let schemaName = "RecipeLine"
}

/// `POST /api/v1/meals/import`: the draft, saved by nobody.
public struct RecipeDraftAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    /// Ready for POST /api/v1/meals: lines matched to your foods as ingredients, the others as text.
    public var meal: MealInput
    public var lines: [RecipeLineAnswer]
    /// Of the lines matched (to your foods or the catalogue) with an amount, per serving.
    public var nutritionPerServing: NutrientsAnswer
    /// The page's own nutrition per serving, when it states one.
    public var pageNutrition: NutrientsAnswer?
    public var yield: String?
    /// How many recipes the source held; the draft is the first.
    public var recipesFound: Int
    public init(meal: MealInput, lines: [RecipeLineAnswer], nutritionPerServing: NutrientsAnswer, pageNutrition: NutrientsAnswer?,
                yield: String?, recipesFound: Int) {
        self.meal = meal; self.lines = lines; self.nutritionPerServing = nutritionPerServing
        self.pageNutrition = pageNutrition; self.yield = yield; self.recipesFound = recipesFound
    }
    public static let schemaName = "RecipeDraft"
}

extension MealInput {
    /// A draft as the input that would save it.
    public init(_ draft: MealDraft) {
        let lines = MealLine.merging(draft.ingredients, draft.recipe.textIngredients)
        self.init(description: draft.description, primaryProtein: draft.primaryProtein, primaryCarb: draft.primaryCarb,
                  otherComponents: draft.otherComponents, servings: Decimal(draft.servings),
                  ingredients: lines.map { line in
                      switch line {
                      case .food(let i): IngredientInput(foodId: i.foodId, quantity: i.quantity, unit: i.unit.rawValue, written: i.written)
                      case .text(let text): IngredientInput(text: text)
                      }
                  },
                  steps: draft.recipe.steps.map { StepInput(text: $0.text, timerSeconds: $0.timerSeconds.map { Decimal($0) }) },
                  prepMinutes: draft.recipe.prepMinutes.map { Decimal($0) }, cookMinutes: draft.recipe.cookMinutes.map { Decimal($0) },
                  source: draft.recipe.source, notes: draft.recipe.notes)
    }
}
