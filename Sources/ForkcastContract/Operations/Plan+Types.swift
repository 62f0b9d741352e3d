import ForkcastCore
import Foundation

/// `POST /api/v1/plan/assignments`.
public struct AssignmentInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var mealId: UUID
    public var date: CalendarDate
    /// The meal slot: a meal type's key or id; absent or null for none.
    public var mealType: String?
    /// How many portions are made that day; absent or null: the meal's own servings.
    public var servings: Int?
    /// Who eats it; absent or null: every member of the household, one portion each.
    public var eaters: [EaterEntry]?
    public init(mealId: UUID, date: CalendarDate, mealType: String? = nil, servings: Int? = nil, eaters: [EaterEntry]? = nil) {
        self.mealId = mealId
        self.date = date
        self.mealType = mealType
        self.servings = servings
        self.eaters = eaters
    }
    public static let schemaName = "AssignmentInput"
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("The meal slot the meal is planned for; null when none. A planned meal is logged into its slot. \(MealTypeKey.description); unknown ones get 422."),
         "servings": FieldNote("Portions made that day (the cost and the shopping list scale the meal's ingredients by servings / meal.servings); null: the meal's own",
                               minimum: Decimal(Assignment.servingsRange.lowerBound), maximum: Decimal(Assignment.servingsRange.upperBound)),
         "eaters": FieldNote("Who eats it and how many portions each (members of the household, each once); null: every member, one portion each", minLength: 1, maxLength: HouseholdMembers.memberLimit)]
    }
}

/// A meal planned on a day.
public struct AssignmentAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var date: CalendarDate
    public var mealId: UUID
    /// The meal without its ingredients: a week's answer stays small (the whole meal: the meal's own path).
    public var meal: PlannedMealAnswer
    public var createdAt: Date
    public var mealType: String?
    /// Portions made that day (the meal's own servings unless the plan says otherwise).
    public var servings: Int
    /// True when the plan sets the portions (servings then differs from the meal's own or was chosen).
    public var servingsSet: Bool
    /// What the portions made hold and cost: the meal's totals scaled by servings / meal.servings.
    public var cooked: PerServingAnswer
    /// Who eats it; null: every member of the household, one portion each.
    public var eaters: [EaterEntry]?
    public init(id: UUID, date: CalendarDate, mealId: UUID, meal: PlannedMealAnswer, createdAt: Date, mealType: String?,
                servings: Int, servingsSet: Bool, cooked: PerServingAnswer, eaters: [EaterEntry]? = nil) {
        self.eaters = eaters
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
        try c.encode(eaters, forKey: .eaters)
    }

    public static let schemaName = "Assignment"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("The meal slot the meal is planned for (a system type's key, or a custom meal type's id); null when none. A planned meal is logged into its slot."),
         "servings": FieldNote("Portions made that day", minimum: 1),
         "servingsSet": FieldNote("True when the assignment sets its portions; false when they are the meal's own"),
         "cooked": FieldNote("Nutrition and cost of the portions made (the meal's totals × servings / meal.servings)"),
         "eaters": FieldNote("Who eats it and how many portions each; null: every member of the household, one portion each")]
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
    public static var fieldNotes: [String: FieldNote] { ["assignments": FieldNote("1 to \(maximum) meals to plan", minLength: 1, maxLength: maximum)] }
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
    /// Pantry stock it uses before it goes off (why it was chosen first); empty when none.
    public var usesSoon: [SoonFoodAnswer]
    public init(date: CalendarDate, mealType: String, mealId: UUID, description: String, perServing: PerServingAnswer,
                usesSoon: [SoonFoodAnswer] = []) {
        self.date = date
        self.mealType = mealType
        self.mealId = mealId
        self.description = description
        self.perServing = perServing
        self.usesSoon = usesSoon
        assignment = AssignmentInput(mealId: mealId, date: date, mealType: mealType)
    }
    public static let schemaName = "Suggestion"
}

/// A food of the pantry that goes off soon, as a suggestion names it.
public struct SoonFoodAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var foodId: UUID
    public var food: String
    public var bestBefore: CalendarDate
    public init(foodId: UUID, food: String, bestBefore: CalendarDate) {
        self.foodId = foodId
        self.food = food
        self.bestBefore = bestBefore
    }
    public static let schemaName = "SoonFood"
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
