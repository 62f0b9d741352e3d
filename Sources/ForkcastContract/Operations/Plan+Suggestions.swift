import ForkcastCore
import Foundation

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
