import ForkcastCore
import Foundation

// MARK: Types

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

/// A meal's ingredient, with the food it uses.
public struct IngredientAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var foodId: UUID
    public var food: FoodAnswer?
    public var quantity: Decimal
    public var unit: Tolerant<QuantityUnit>

    public init(foodId: UUID, food: FoodAnswer?, quantity: Decimal, unit: QuantityUnit) {
        self.foodId = foodId
        self.food = food
        self.quantity = quantity
        self.unit = .known(unit)
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(foodId, forKey: .foodId); try c.encode(food, forKey: .food)
        try c.encode(quantity, forKey: .quantity); try c.encode(unit, forKey: .unit)
    }

    public static let schemaName = "Ingredient"
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

    public init(id: UUID, description: String, primaryProtein: String?, primaryCarb: String?, otherComponents: [String],
                createdAt: Date, updatedAt: Date, isPlanned: Bool, servings: Int, ingredients: [IngredientAnswer],
                nutrition: NutrientsAnswer?, perServing: PerServingAnswer) {
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
    }

    public static let schemaName = "Meal"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["description": FieldNote(example: "Chicken curry with rice"),
         "isPlanned": FieldNote("Planned in the window asked about (plannedFrom to plannedTo, default the 7 days from today)"),
         "servings": FieldNote(minimum: 1),
         "nutrition": FieldNote("Nutrition per serving typed in by hand (meals without ingredients)")]
    }
}

/// `POST /api/v1/meals` and `PUT /api/v1/meals/{id}` (a PUT replaces every field).
public struct MealInput: Codable, Sendable, Hashable, SchemaDocumented {
    public struct IngredientInput: Codable, Sendable, Hashable, SchemaDocumented {
        public var foodId: UUID
        public var quantity: Decimal
        public var unit: String
        public init(foodId: UUID, quantity: Decimal, unit: String) {
            self.foodId = foodId
            self.quantity = quantity
            self.unit = unit
        }
        public static let schemaName = "IngredientInput"
        public static var fieldNotes: [String: FieldNote] {
            ["foodId": FieldNote("One of your foods (422 otherwise)"),
             "quantity": FieldNote(range: Plausible.quantity),
             "unit": FieldNote("g or ml as the food's basis; serving when the food has a serving size",
                               schema: ["type": "string", "enum": .array(QuantityUnit.allCases.map { .string($0.rawValue) })])]
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

    public init(description: String, primaryProtein: String? = nil, primaryCarb: String? = nil, otherComponents: [String]? = nil,
                servings: Decimal? = nil, ingredients: [IngredientInput]? = nil, nutrition: NutritionInput? = nil) {
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.servings = servings
        self.ingredients = ingredients
        self.nutrition = nutrition
    }

    public static let schemaName = "MealInput"
    public static var fieldNotes: [String: FieldNote] {
        let name = FieldNote(maxLength: MealDraft.maximumNameLength)
        return ["description": FieldNote("Trimmed; 1 to \(MealDraft.maximumDescriptionLength) characters", minLength: 1,
                                         maxLength: MealDraft.maximumDescriptionLength, pattern: FieldNote.notBlank, example: "Chicken curry with rice"),
                "primaryProtein": name.with(example: "chicken"), "primaryCarb": name.with(example: "rice"),
                "otherComponents": FieldNote("Blank and repeated (case-insensitive) names are dropped; at most \(MealDraft.maximumComponents) remain (each at most \(MealDraft.maximumNameLength) characters)"),
                "servings": FieldNote("A whole number", schema: ["type": ["integer", "null"], "minimum": 1,
                                                                 "maximum": .number(Double(MealDraft.maximumServings)), "default": 1]),
                "ingredients": FieldNote("At most \(MealDraft.maximumIngredients)"),
                "nutrition": FieldNote("Per serving, for meals without ingredients")]
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

/// `{id}` and the window `isPlanned` is about.
public struct MealParameters: Codable, Sendable, Hashable {
    public var id: UUID
    public var plannedFrom: CalendarDate?
    public var plannedTo: CalendarDate?
    public init(_ id: UUID, window: PlannedWindow = PlannedWindow()) {
        self.id = id
        plannedFrom = window.plannedFrom
        plannedTo = window.plannedTo
    }
    public var window: PlannedWindow { PlannedWindow(plannedFrom: plannedFrom, plannedTo: plannedTo) }
}

/// `POST /api/v1/plan/assignments`.
public struct AssignmentInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var mealId: UUID
    public var date: CalendarDate
    /// The meal slot: a meal type's key or id; absent or null for none.
    public var mealType: String?
    /// How many portions are made that day; absent or null: the meal's own servings.
    public var servings: Int?
    public init(mealId: UUID, date: CalendarDate, mealType: String? = nil, servings: Int? = nil) {
        self.mealId = mealId
        self.date = date
        self.mealType = mealType
        self.servings = servings
    }
    public static let schemaName = "AssignmentInput"
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("The meal slot the meal is planned for; null when none. A planned meal is logged into its slot. \(MealTypeKey.description); unknown ones get 422."),
         "servings": FieldNote("Portions made that day (the cost and the shopping list scale the meal's ingredients by servings / meal.servings); null: the meal's own",
                               minimum: Decimal(Assignment.servingsRange.lowerBound), maximum: Decimal(Assignment.servingsRange.upperBound))]
    }
}

/// A meal planned on a day.
public struct AssignmentAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var date: CalendarDate
    public var mealId: UUID
    public var meal: MealAnswer
    public var createdAt: Date
    public var mealType: String?
    /// Portions made that day (the meal's own servings unless the plan says otherwise).
    public var servings: Int
    /// True when the plan sets the portions (servings then differs from the meal's own or was chosen).
    public var servingsSet: Bool
    /// What the portions made hold and cost: the meal's totals scaled by servings / meal.servings.
    public var cooked: PerServingAnswer
    public init(id: UUID, date: CalendarDate, mealId: UUID, meal: MealAnswer, createdAt: Date, mealType: String?,
                servings: Int, servingsSet: Bool, cooked: PerServingAnswer) {
        self.id = id
        self.date = date
        self.mealId = mealId
        self.meal = meal
        self.createdAt = createdAt
        self.mealType = mealType
        self.servings = servings
        self.servingsSet = servingsSet
        self.cooked = cooked
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(date, forKey: .date); try c.encode(mealId, forKey: .mealId)
        try c.encode(meal, forKey: .meal); try c.encode(createdAt, forKey: .createdAt); try c.encode(mealType, forKey: .mealType)
        try c.encode(servings, forKey: .servings); try c.encode(servingsSet, forKey: .servingsSet); try c.encode(cooked, forKey: .cooked)
    }

    public static let schemaName = "Assignment"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("The meal slot the meal is planned for (a system type's key, or a custom meal type's id); null when none. A planned meal is logged into its slot."),
         "servings": FieldNote("Portions made that day", minimum: 1),
         "servingsSet": FieldNote("True when the assignment sets its portions; false when they are the meal's own"),
         "cooked": FieldNote("Nutrition and cost of the portions made (the meal's totals × servings / meal.servings)")]
    }
}

/// One of the four daily goals against what a day holds.
public struct GoalLineAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var amount: Decimal
    public var goal: Decimal
    /// amount − goal.
    public var difference: Decimal
    /// The amount as a whole percentage of the goal; null for a goal of 0.
    public var percent: Int?
    public var band: Tolerant<GoalStanding.Band>

    public init(_ line: GoalStanding.Line) {
        amount = line.amount.rounded(2)
        goal = line.goal.rounded(2)
        difference = line.difference.rounded(2)
        percent = line.percent
        band = .known(line.band)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(amount, forKey: .amount); try c.encode(goal, forKey: .goal); try c.encode(difference, forKey: .difference)
        try c.encode(percent, forKey: .percent); try c.encode(band, forKey: .band)
    }

    public static let schemaName = "GoalLine"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["band": FieldNote("under, within (±10 % of the goal) or over"), "difference": FieldNote("amount − goal")]
    }
}

extension GoalStanding.Band: SchemaLeaf {}

/// A planned day (or the window's average day) against the person's daily goals: one serving of each planned meal.
public struct PlanGoalsAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var energyKcal: GoalLineAnswer
    public var protein: GoalLineAnswer
    public var carbohydrates: GoalLineAnswer
    public var fat: GoalLineAnswer
    /// The energy line's band: the day's bar.
    public var band: Tolerant<GoalStanding.Band>

    public init(_ standing: GoalStanding) {
        func line(_ n: Nutrient) -> GoalLineAnswer { GoalLineAnswer(standing.line(n)!) }
        energyKcal = line(.energyKcal); protein = line(.protein); carbohydrates = line(.carbohydrates); fat = line(.fat)
        band = .known(standing.band)
    }

    public static let schemaName = "PlanGoals"
    public static var fieldNotes: [String: FieldNote] { ["band": FieldNote("The energy line's band")] }
}

/// `POST /api/v1/plan/assignments/batch`.
public struct AssignmentsInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var assignments: [AssignmentInput]
    public init(assignments: [AssignmentInput]) { self.assignments = assignments }
    public static let maximum = Assignment.maximumAtOnce
    public static let schemaName = "AssignmentsInput"
    public static var fieldNotes: [String: FieldNote] { ["assignments": FieldNote("1 to \(maximum) meals to plan")] }
}

/// `POST /api/v1/plan/suggestions`.
public struct SuggestionsInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var start: CalendarDate
    public var days: Int?
    /// Meal slots to fill (meal type keys or ids); default breakfast, lunch and dinner.
    public var mealTypes: [String]?
    public var protein: String?
    public var carb: String?
    public var component: [String]?
    public init(start: CalendarDate, days: Int? = nil, mealTypes: [String]? = nil, protein: String? = nil, carb: String? = nil, component: [String]? = nil) {
        self.start = start
        self.days = days
        self.mealTypes = mealTypes
        self.protein = protein
        self.carb = carb
        self.component = component
    }
    public static let schemaName = "SuggestionsInput"
    public static var fieldNotes: [String: FieldNote] {
        ["start": FieldNote("First day of the window"),
         "days": FieldNote("Days in the window", minimum: 1, maximum: Decimal(WeekWindow.maximumLength), default: .number(Double(WeekWindow.defaultLength))),
         "mealTypes": FieldNote("Slots to fill: \(MealTypeKey.description); default breakfast, lunch and dinner"),
         "protein": FieldNote("Only meals with this primary protein (case-insensitive)"),
         "carb": FieldNote("Only meals with this primary carb (case-insensitive)"),
         "component": FieldNote("Only meals with every one of these components")]
    }
}

/// A meal suggested for an empty slot.
public struct SuggestionAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var date: CalendarDate
    public var mealType: String
    public var mealId: UUID
    public var description: String
    /// One serving of the meal.
    public var perServing: PerServingAnswer
    /// What to send to accept it (POST /api/v1/plan/assignments, or in a batch).
    public var assignment: AssignmentInput
    public init(date: CalendarDate, mealType: String, mealId: UUID, description: String, perServing: PerServingAnswer) {
        self.date = date
        self.mealType = mealType
        self.mealId = mealId
        self.description = description
        self.perServing = perServing
        assignment = AssignmentInput(mealId: mealId, date: date, mealType: mealType)
    }
    public static let schemaName = "Suggestion"
}

/// A day of the window with where it would stand if every suggestion for it were accepted.
public struct SuggestionDayAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var date: CalendarDate
    /// As planned now.
    public var planned: PlanGoalsAnswer
    /// With the day's suggestions accepted.
    public var suggested: PlanGoalsAnswer
    public init(date: CalendarDate, planned: PlanGoalsAnswer, suggested: PlanGoalsAnswer) {
        self.date = date
        self.planned = planned
        self.suggested = suggested
    }
    public static let schemaName = "SuggestionDay"
}

/// `POST /api/v1/plan/suggestions`: nothing is saved until accepted.
public struct SuggestionsAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var items: [SuggestionAnswer]
    public var days: [SuggestionDayAnswer]
    public init(items: [SuggestionAnswer], days: [SuggestionDayAnswer]) {
        self.items = items
        self.days = days
    }
    public static let schemaName = "Suggestions"
}

/// One day of the plan.
public struct PlanDayAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var date: CalendarDate
    public var weekday: String
    public var assignments: [AssignmentAnswer]
    /// One serving of each planned meal.
    public var totals: PerServingAnswer
    /// The portions made of each planned meal (its servings): what the day costs.
    public var cooked: PerServingAnswer
    /// The day (one serving of each planned meal) against the daily goals.
    public var goals: PlanGoalsAnswer
    public init(date: CalendarDate, weekday: String, assignments: [AssignmentAnswer], totals: PerServingAnswer,
                cooked: PerServingAnswer, goals: PlanGoalsAnswer) {
        self.date = date
        self.weekday = weekday
        self.assignments = assignments
        self.totals = totals
        self.cooked = cooked
        self.goals = goals
    }
    public static let schemaName = "PlanDay"
    public static var fieldNotes: [String: FieldNote] {
        ["weekday": FieldNote(example: "Monday"), "totals": FieldNote("One serving of each planned meal: what one person eats"),
         "cooked": FieldNote("The portions made of each planned meal; its price is what the day's cooking costs"),
         "goals": FieldNote("The day (one serving of each planned meal) against the daily goals")]
    }
}

/// `GET /api/v1/plan`: a window of days.
public struct PlanAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var start: CalendarDate
    public var end: CalendarDate
    public var today: CalendarDate
    public var previousStart: CalendarDate
    public var nextStart: CalendarDate
    public var days: [PlanDayAnswer]
    /// The whole window's totals.
    public var totals: PerServingAnswer
    /// The whole window's portions made (its price: the window's cooking cost).
    public var cooked: PerServingAnswer
    /// The window's average day against the daily goals.
    public var goals: PlanGoalsAnswer
    public init(start: CalendarDate, end: CalendarDate, today: CalendarDate, previousStart: CalendarDate, nextStart: CalendarDate,
                days: [PlanDayAnswer], totals: PerServingAnswer, cooked: PerServingAnswer, goals: PlanGoalsAnswer) {
        self.cooked = cooked
        self.goals = goals
        self.start = start
        self.end = end
        self.today = today
        self.previousStart = previousStart
        self.nextStart = nextStart
        self.days = days
        self.totals = totals
    }
    public static let schemaName = "Plan"
    public static var fieldNotes: [String: FieldNote] {
        ["totals": FieldNote("The whole window's totals (one serving of each planned meal)"),
         "cooked": FieldNote("The whole window's portions made; its price is the window's cooking cost"),
         "goals": FieldNote("The window's average day against the daily goals")]
    }
}

/// `?start=&days=`.
public struct PlanQuery: Codable, Sendable, Hashable {
    public var start: CalendarDate?
    public var days: Int?
    public init(start: CalendarDate? = nil, days: Int? = nil) {
        self.start = start
        self.days = days
    }
}

/// How the document speaks of a meal type field.
public enum MealTypeKey {
    public static var description: String {
        "A meal type: a key (\(MealType.systemDefaults.map(\.key).joined(separator: ", "))) or a meal type id from \(MealTypes.List.path)"
    }
}

// MARK: Operations

/// `/api/v1/meals`: the meal library.
public enum Meals {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The meal's id")]

    public enum List: APIOperation {
        public typealias Parameters = MealQuery
        public typealias Answer = Page<MealAnswer>
        public static let id = "listMeals"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/meals"
        public static let summary = "The meal library, filtered and paginated; meals planned in the window come last"
        public static let tag = "meals"
        public static let success = Outcome(200, "A page of meals")
        public static let failures = [Outcome(400, "Bad query parameter (not a date, plannedTo before plannedFrom, page or per out of range)")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            PageQuery.notes.merging(PlannedWindow.notes) { $1 }.merging([
                "protein": FieldNote("Primary protein (case-insensitive)"), "carb": FieldNote("Primary carb (case-insensitive)"),
                "component": FieldNote("Other component; repeat for several, all must match"),
                "q": FieldNote("Text in description or any component"),
            ]) { $1 }
        }
    }

    public enum Create: APIOperation {
        public typealias Body = MealInput
        public typealias Answer = MealAnswer
        public static let id = "createMeal"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/meals"
        public static let summary = "Add a meal to the library"
        public static let tag = "meals"
        public static let success = Outcome(201, "Created")
        public static let answerHeaders = ["Location": "The new meal"]
        public static let failures = [Outcome(404, "A referenced food is not yours (or does not exist); the problem names the field")] + Outcome.writeJSON
    }

    public enum Facets: APIOperation {
        public typealias Answer = MealFacets
        public static let id = "mealFacets"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/meals/facets"
        public static let summary = "Distinct proteins, carbs and components (case-insensitive)"
        public static let tag = "meals"
        public static let success = Outcome(200, "Facets")
        public static let failures = Outcome.read
    }

    public enum Get: APIOperation {
        public typealias Parameters = MealParameters
        public typealias Answer = MealAnswer
        public static let id = "getMeal"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/meals/{id}"
        public static let summary = "One meal"
        public static let tag = "meals"
        public static let success = Outcome(200, "The meal")
        public static let failures = [Outcome(400, "Bad plannedFrom or plannedTo (not a date, or plannedTo before plannedFrom)"),
                                      Outcome(404, "No such meal in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote.merging(PlannedWindow.notes) { $1 } }
    }

    public enum Update: APIOperation {
        public typealias Parameters = MealParameters
        public typealias Body = MealInput
        public typealias Answer = MealAnswer
        public static let id = "updateMeal"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/meals/{id}"
        public static let summary = "Replace a meal's fields"
        public static let tag = "meals"
        public static let success = Outcome(200, "Updated")
        public static let failures = [Outcome(404, "No such meal, or a referenced food is not yours")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote.merging(PlannedWindow.notes) { $1 } }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteMeal"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/meals/{id}"
        public static let summary = "Delete a meal and its assignments"
        public static let tag = "meals"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such meal")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}

/// `/api/v1/plan`: the weekly planner.
public enum Plan {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The assignment's id")]

    public enum Get: APIOperation {
        public typealias Parameters = PlanQuery
        public typealias Answer = PlanAnswer
        public static let id = "getPlan"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/plan"
        public static let summary = "Days of the plan with their meals"
        public static let tag = "plan"
        public static let success = Outcome(200, "The window")
        public static let failures = [Outcome(400, "Bad start date, or days outside 1 to \(WeekWindow.maximumLength)")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            ["start": FieldNote("First day (default today in the user's time zone)"),
             "days": FieldNote("Number of days", minimum: 1, maximum: Decimal(WeekWindow.maximumLength), default: .number(Double(WeekWindow.defaultLength)))]
        }
    }

    public enum Assign: APIOperation {
        public typealias Body = AssignmentInput
        public typealias Answer = AssignmentAnswer
        public static let id = "createAssignment"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/plan/assignments"
        public static let summary = "Plan a meal on a day (a day holds any number of meals)"
        public static let tag = "plan"
        public static let success = Outcome(201, "Planned")
        public static let answerHeaders = ["Location": "The new assignment"]
        public static let failures = [Outcome(404, "No such meal")] + Outcome.writeJSON
    }

    public enum GetAssignment: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = AssignmentAnswer
        public static let id = "getAssignment"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/plan/assignments/{id}"
        public static let summary = "One assignment"
        public static let tag = "plan"
        public static let success = Outcome(200, "The assignment")
        public static let failures = [Outcome(404, "No such assignment")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum UpdateAssignment: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = AssignmentInput
        public typealias Answer = AssignmentAnswer
        public static let id = "updateAssignment"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/plan/assignments/{id}"
        public static let summary = "Change a planned meal: its day, slot, meal or portions (the planner's stepper)"
        public static let tag = "plan"
        public static let success = Outcome(200, "Changed")
        public static let failures = [Outcome(404, "No such assignment or meal")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum AssignMany: APIOperation {
        public typealias Body = AssignmentsInput
        public typealias Answer = [AssignmentAnswer]
        public static let id = "createAssignments"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/plan/assignments/batch"
        public static let summary = "Plan several meals at once, all or nothing (accepting suggestions)"
        public static let tag = "plan"
        public static let success = Outcome(201, "Planned")
        public static let failures = [Outcome(404, "A meal is not yours; the problem names it")] + Outcome.writeJSON
    }

    public enum Suggest: APIOperation {
        public typealias Body = SuggestionsInput
        public typealias Answer = SuggestionsAnswer
        public static let id = "suggestPlan"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/plan/suggestions"
        public static let summary = "Fill my week: meals from your library for the empty slots, closest to your goals (nothing is saved)"
        public static let tag = "plan"
        public static let success = Outcome(200, "Suggestions, by day and slot")
        public static let failures = Outcome.writeJSON
    }

    public enum Unassign: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteAssignment"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/plan/assignments/{id}"
        public static let summary = "Remove a meal from a day"
        public static let tag = "plan"
        public static let success = Outcome(204, "Removed")
        public static let failures = [Outcome(404, "No such assignment")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}
