import ForkcastCore
import Foundation

/// Nutrition and price of one serving (rounded to 2 decimals); null where unknown.
public struct PerServingAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var energyKcal: Decimal?
    public var protein: Decimal?
    public var carbohydrates: Decimal?
    public var fat: Decimal?
    public var price: Decimal?
    /// Every nutrient (energy and macros as above), null where unknown.
    public var nutrients: MacrosAnswer

    public init(_ n: Nutrients, price: Decimal?) {
        energyKcal = n.energyKcal?.rounded(2); protein = n.protein?.rounded(2)
        carbohydrates = n.carbohydrates?.rounded(2); fat = n.fat?.rounded(2); self.price = price?.rounded(2)
        nutrients = MacrosAnswer(n)
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(energyKcal, forKey: .energyKcal); try c.encode(protein, forKey: .protein)
        try c.encode(carbohydrates, forKey: .carbohydrates); try c.encode(fat, forKey: .fat); try c.encode(price, forKey: .price)
        try c.encode(nutrients, forKey: .nutrients)
    }

    public static let schemaName = "PerServing"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["price": FieldNote("In your currency; null when a food's price is unknown"),
         "nutrients": FieldNote("Every nutrient per serving (GET /api/v1/nutrients), null where unknown")]
    }
}

/// A meal's ingredient: an amount of a food, with the food; or a line kept as written (`text`,
/// the food fields null), left out of the totals.
public struct IngredientAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var foodId: UUID?
    public var food: FoodAnswer?
    public var quantity: Decimal?
    public var unit: Tolerant<QuantityUnit>?
    public var text: String?
    public var writtenUnit: String?
    public var writtenUnitSize: Decimal?

    public init(foodId: UUID, food: FoodAnswer?, quantity: Decimal, unit: QuantityUnit, written: WrittenUnit? = nil) {
        self.foodId = foodId
        self.food = food
        self.quantity = quantity
        self.unit = .known(unit)
        writtenUnit = written?.unit?.rawValue
        writtenUnitSize = written?.size
    }

    public init(text: String) { self.text = text }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(foodId, forKey: .foodId); try c.encode(food, forKey: .food)
        try c.encode(quantity, forKey: .quantity); try c.encode(unit, forKey: .unit); try c.encode(text, forKey: .text)
        try c.encode(writtenUnit, forKey: .writtenUnit); try c.encode(writtenUnitSize, forKey: .writtenUnitSize)
    }

    public static let schemaName = "Ingredient"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["text": FieldNote("Set on a line kept as written (then the food fields are null); not counted in the totals"),
         "writtenUnit": FieldNote("The unit the cook wrote (\"cup\"); null for grams as written or a count"),
         "writtenUnitSize": FieldNote("How much of `unit` one writtenUnit (or one counted) is; null when nothing else was written")]
    }
}

/// One step of a recipe.
public struct StepAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var text: String
    public var timerSeconds: Int?
    public init(_ step: RecipeStep) {
        text = step.text
        timerSeconds = step.timerSeconds
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text); try c.encode(timerSeconds, forKey: .timerSeconds)
    }
    public static let schemaName = "Step"
    public static let writesNulls = true
}

/// A meal of the library, as the API answers it (PRODUCT.md, API v1).
public struct MealAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var description: String
    public var primaryProtein: String?
    public var primaryCarb: String?
    public var otherComponents: [String]
    public var createdAt: Date
    public var updatedAt: Date
    /// Planned in the window asked about (default the 7 days from today).
    public var isPlanned: Bool
    public var servings: Int
    public var ingredients: [IngredientAnswer]
    /// Nutrition per serving typed in by hand (meals without ingredients).
    public var nutrition: NutrientsAnswer?
    public var perServing: PerServingAnswer
    public var steps: [StepAnswer]
    public var prepMinutes: Int?
    public var cookMinutes: Int?
    public var source: String?
    public var notes: String?
    /// The servings the recipe makes, when `ingredients` are scaled to other `servings` (`?servings=N`).
    public var recipeServings: Int?
    /// The recipe's photo (`GET /api/v1/meals/{id}/photo`), null without one.
    public var photoId: UUID?

    public init(id: UUID, description: String, primaryProtein: String?, primaryCarb: String?, otherComponents: [String],
                createdAt: Date, updatedAt: Date, isPlanned: Bool, servings: Int, ingredients: [IngredientAnswer],
                nutrition: NutrientsAnswer?, perServing: PerServingAnswer, recipe: Recipe = Recipe(), recipeServings: Int? = nil,
                photoId: UUID? = nil) {
        self.id = id
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isPlanned = isPlanned
        self.servings = servings
        self.ingredients = ingredients
        self.nutrition = nutrition
        self.perServing = perServing
        steps = recipe.steps.map(StepAnswer.init)
        prepMinutes = recipe.prepMinutes
        cookMinutes = recipe.cookMinutes
        source = recipe.source
        notes = recipe.notes
        self.recipeServings = recipeServings
        self.photoId = photoId
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(description, forKey: .description)
        try c.encode(primaryProtein, forKey: .primaryProtein)
        try c.encode(primaryCarb, forKey: .primaryCarb)
        try c.encode(otherComponents, forKey: .otherComponents)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isPlanned, forKey: .isPlanned)
        try c.encode(servings, forKey: .servings)
        try c.encode(ingredients, forKey: .ingredients)
        try c.encode(nutrition, forKey: .nutrition)
        try c.encode(perServing, forKey: .perServing)
        try c.encode(steps, forKey: .steps)
        try c.encode(prepMinutes, forKey: .prepMinutes)
        try c.encode(cookMinutes, forKey: .cookMinutes)
        try c.encode(source, forKey: .source)
        try c.encode(notes, forKey: .notes)
        try c.encode(recipeServings, forKey: .recipeServings)
        try c.encode(photoId, forKey: .photoId)
    }

    public static let schemaName = "Meal"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["description": FieldNote(example: "Chicken curry with rice"),
         "isPlanned": FieldNote("Planned in the window asked about (plannedFrom to plannedTo, default the 7 days from today)"),
         "servings": FieldNote(minimum: 1),
         "nutrition": FieldNote("Nutrition per serving typed in by hand (meals without ingredients)"),
         "photoId": FieldNote("The recipe's photo, null without one: GET /api/v1/meals/{id}/photo has it; PUT it there, DELETE it there"),
         "recipeServings": FieldNote("Null unless ?servings=N scaled the ingredients: then the servings the recipe makes, and servings is N")]
    }
}

/// A meal as a plan shows it: the contract's Meal fields, its servings and one serving's totals,
/// without the ingredients and their foods (`GET /api/v1/meals/{id}` has those). A week of plan
/// stays a few kilobytes however rich its meals are.
public struct PlannedMealAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var description: String
    public var primaryProtein: String?
    public var primaryCarb: String?
    public var otherComponents: [String]
    public var createdAt: Date
    public var updatedAt: Date
    /// Always true: the meal is planned (it is on the plan being shown).
    public var isPlanned: Bool
    public var servings: Int
    public var perServing: PerServingAnswer

    public init(id: UUID, description: String, primaryProtein: String?, primaryCarb: String?, otherComponents: [String],
                createdAt: Date, updatedAt: Date, servings: Int, perServing: PerServingAnswer) {
        self.id = id
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isPlanned = true
        self.servings = servings
        self.perServing = perServing
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(description, forKey: .description)
        try c.encode(primaryProtein, forKey: .primaryProtein); try c.encode(primaryCarb, forKey: .primaryCarb)
        try c.encode(otherComponents, forKey: .otherComponents); try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt); try c.encode(isPlanned, forKey: .isPlanned)
        try c.encode(servings, forKey: .servings); try c.encode(perServing, forKey: .perServing)
    }

    public static let schemaName = "PlannedMeal"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["isPlanned": FieldNote("Always true here"), "servings": FieldNote("The meal's own servings", minimum: 1),
         "perServing": FieldNote("One serving of the meal; its ingredients are in GET /api/v1/meals/{id}")]
    }
}
