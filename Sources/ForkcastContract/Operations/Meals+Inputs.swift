import ForkcastCore
import Foundation

/// `POST /api/v1/meals` and `PUT /api/v1/meals/{id}` (a PUT replaces every field).
public struct MealInput: Codable, Sendable, Hashable, SchemaDocumented {
    /// An amount of a food (`foodId`, `quantity`, `unit`), or a line kept as written (`text`).
    public struct IngredientInput: Codable, Sendable, Hashable, SchemaDocumented {
        public var foodId: UUID?
        public var quantity: Decimal?
        public var unit: String?
        public var text: String?
        public var writtenUnit: String?
        public var writtenUnitSize: Decimal?
        public init(foodId: UUID, quantity: Decimal, unit: String, written: WrittenUnit? = nil) {
            self.foodId = foodId
            self.quantity = quantity
            self.unit = unit
            writtenUnit = written?.unit?.rawValue
            writtenUnitSize = written?.size
        }
        public init(text: String) { self.text = text }
        public static let schemaName = "IngredientInput"
        public static var fieldNotes: [String: FieldNote] {
            ["foodId": FieldNote("One of your foods (422 otherwise)"),
             "quantity": FieldNote(range: Plausible.quantity),
             "unit": FieldNote("g or ml as the food's basis; serving when the food has a serving size",
                               schema: ["type": "string", "enum": .array(QuantityUnit.allCases.map { .string($0.rawValue) })]),
             "writtenUnit": FieldNote("The unit the cook wrote (\"cup\"), shown instead of `unit`; needs writtenUnitSize",
                                      schema: ["type": ["string", "null"], "enum": .array(CookUnit.allCases.map { .string($0.rawValue) } + [.null])]),
             "writtenUnitSize": FieldNote("How much of `unit` one writtenUnit is (a cup of this flour: 125 g); without writtenUnit, one of the food as counted (an egg: 50 g)",
                                          range: Plausible.quantity),
             "text": FieldNote("A line no food matches, kept as written and left out of the totals (\"salt to taste\")",
                               minLength: 1, maxLength: Recipe.maximumLineLength, pattern: FieldNote.notBlank)]
        }
        public static var schemaExtras: [String: JSONValue] {
            ["oneOf": [["required": ["foodId", "quantity", "unit"], "properties": ["text": ["type": "null"]]],
                       ["required": ["text"], "properties": ["foodId": ["type": "null"], "quantity": ["type": "null"], "unit": ["type": "null"],
                                                                  "writtenUnit": ["type": "null"], "writtenUnitSize": ["type": "null"]]]]]
        }
    }

    /// One step of the recipe; `timerSeconds` a whole number from 1 to 172,800 (48 hours).
    public struct StepInput: Codable, Sendable, Hashable, SchemaDocumented {
        public var text: String
        public var timerSeconds: Decimal?
        public init(text: String, timerSeconds: Decimal? = nil) {
            self.text = text
            self.timerSeconds = timerSeconds
        }
        public static let schemaName = "StepInput"
        public static var fieldNotes: [String: FieldNote] {
            ["text": FieldNote(maxLength: Recipe.maximumStepLength),
             "timerSeconds": FieldNote("A whole number of seconds", schema: ["type": ["integer", "null"], "minimum": 1,
                                                                               "maximum": .number(Double(Recipe.maximumTimerSeconds))])]
        }
    }

    public struct NutritionInput: Codable, Sendable, Hashable, SchemaDocumented {
        public var energyKcal: Decimal?
        public var protein: Decimal?
        public var carbohydrates: Decimal?
        public var fat: Decimal?
        public init(energyKcal: Decimal? = nil, protein: Decimal? = nil, carbohydrates: Decimal? = nil, fat: Decimal? = nil) {
            self.energyKcal = energyKcal
            self.protein = protein
            self.carbohydrates = carbohydrates
            self.fat = fat
        }
        public static let schemaName = "MealNutritionInput"
        public static var fieldNotes: [String: FieldNote] {
            let value = FieldNote(range: Plausible.quickAddValue)
            return ["energyKcal": value, "protein": value, "carbohydrates": value, "fat": value]
        }
    }

    public var description: String
    public var primaryProtein: String?
    public var primaryCarb: String?
    public var otherComponents: [String]?
    /// A number, so 1.5 is answered by the whole-number rule (422 naming the field), not as bad JSON.
    public var servings: Decimal?
    public var ingredients: [IngredientInput]?
    /// Nutrition per serving typed in by hand (used when there are no ingredients).
    public var nutrition: NutritionInput?
    public var steps: [StepInput]?
    public var prepMinutes: Decimal?
    public var cookMinutes: Decimal?
    public var source: String?
    public var notes: String?

    public init(description: String, primaryProtein: String? = nil, primaryCarb: String? = nil, otherComponents: [String]? = nil,
                servings: Decimal? = nil, ingredients: [IngredientInput]? = nil, nutrition: NutritionInput? = nil,
                steps: [StepInput]? = nil, prepMinutes: Decimal? = nil, cookMinutes: Decimal? = nil, source: String? = nil, notes: String? = nil) {
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.servings = servings
        self.ingredients = ingredients
        self.nutrition = nutrition
        self.steps = steps
        self.prepMinutes = prepMinutes
        self.cookMinutes = cookMinutes
        self.source = source
        self.notes = notes
    }

    public static let schemaName = "MealInput"
    public static var fieldNotes: [String: FieldNote] {
        let name = FieldNote(maxLength: MealDraft.maximumNameLength)
        let minutes = FieldNote("Whole minutes", schema: ["type": ["integer", "null"], "minimum": 0, "maximum": .number(Double(Recipe.maximumMinutes))])
        return ["description": FieldNote("Trimmed; 1 to \(MealDraft.maximumDescriptionLength) characters", minLength: 1,
                                         maxLength: MealDraft.maximumDescriptionLength, pattern: FieldNote.notBlank, example: "Chicken curry with rice"),
                "primaryProtein": name.with(example: "chicken"), "primaryCarb": name.with(example: "rice"),
                "otherComponents": FieldNote("Blank and repeated (case-insensitive) names are dropped; at most \(MealDraft.maximumComponents) remain (each at most \(MealDraft.maximumNameLength) characters)"),
                "servings": FieldNote("A whole number", schema: ["type": ["integer", "null"], "minimum": 1,
                                                                 "maximum": .number(Double(MealDraft.maximumServings)), "default": 1]),
                "ingredients": FieldNote("At most \(MealDraft.maximumIngredients), in the order shown", maxLength: MealDraft.maximumIngredients),
                "nutrition": FieldNote("Per serving, for meals without ingredients"),
                "steps": FieldNote("At most \(Recipe.maximumSteps), in order; blank ones are dropped", maxLength: Recipe.maximumSteps),
                "prepMinutes": minutes, "cookMinutes": minutes,
                "source": FieldNote("Where the recipe comes from: an address or a book", maxLength: Recipe.maximumSourceLength),
                "notes": FieldNote(maxLength: Recipe.maximumNotesLength)]
    }
}

extension MealFacets: SchemaDocumented {
    public static let schemaName = "MealFacets"
}

/// `?plannedFrom=&plannedTo=`: the window `isPlanned` is about.
public struct PlannedWindow: Codable, Sendable, Hashable {
    public var plannedFrom: CalendarDate?
    public var plannedTo: CalendarDate?
    public init(plannedFrom: CalendarDate? = nil, plannedTo: CalendarDate? = nil) {
        self.plannedFrom = plannedFrom
        self.plannedTo = plannedTo
    }
    static var notes: [String: FieldNote] {
        ["plannedFrom": FieldNote("First day of the window for isPlanned (default today)"),
         "plannedTo": FieldNote("Last day of the window for isPlanned (default plannedFrom + 6; not before plannedFrom: 400 otherwise)")]
    }
}

/// `GET /api/v1/meals`: the filters, the page and the window.
public struct MealQuery: Codable, Sendable, Hashable {
    public var protein: String?
    public var carb: String?
    public var component: [String]?
    public var q: String?
    public var page: Int?
    public var per: Int?
    public var plannedFrom: CalendarDate?
    public var plannedTo: CalendarDate?
    public init(protein: String? = nil, carb: String? = nil, component: [String]? = nil, q: String? = nil, page: Int? = nil,
                per: Int? = nil, plannedFrom: CalendarDate? = nil, plannedTo: CalendarDate? = nil) {
        self.protein = protein
        self.carb = carb
        self.component = component
        self.q = q
        self.page = page
        self.per = per
        self.plannedFrom = plannedFrom
        self.plannedTo = plannedTo
    }
    public var paging: PageQuery { PageQuery(page: page, per: per) }
    public var window: PlannedWindow { PlannedWindow(plannedFrom: plannedFrom, plannedTo: plannedTo) }
    public var filter: MealFilter { MealFilter(protein: protein, carb: carb, components: component ?? [], text: q) }
}

/// `{id}`, the window `isPlanned` is about and, to read, the servings to scale the ingredients to.
public struct MealParameters: Codable, Sendable, Hashable {
    public var id: UUID
    public var plannedFrom: CalendarDate?
    public var plannedTo: CalendarDate?
    public var servings: Int?
    public init(_ id: UUID, window: PlannedWindow = PlannedWindow(), servings: Int? = nil) {
        self.id = id
        plannedFrom = window.plannedFrom
        plannedTo = window.plannedTo
        self.servings = servings
    }
    static var servingsNote: [String: FieldNote] {
        ["servings": FieldNote("Scale the ingredients to this many servings (recipeServings then says what the recipe makes)",
                               minimum: 1, maximum: Decimal(MealDraft.maximumServings))]
    }
    public var window: PlannedWindow { PlannedWindow(plannedFrom: plannedFrom, plannedTo: plannedTo) }
}
