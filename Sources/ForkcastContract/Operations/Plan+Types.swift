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
    /// Plans the meal on more days than `date` (the first of them); absent or null: that day alone.
    public var `repeat`: PlanRepeat?
    public init(mealId: UUID, date: CalendarDate, mealType: String? = nil, servings: Int? = nil, eaters: [EaterEntry]? = nil,
                repeat: PlanRepeat? = nil) {
        self.repeat = `repeat`
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
         "eaters": FieldNote("Who eats it and how many portions each (members of the household, each once); null: every member, one portion each", minLength: 1, maxLength: HouseholdMembers.memberLimit),
         "repeat": FieldNote("Repeat it: the meal is planned on each day the repeat falls on from `date` on, as entries sharing one seriesId (the answer is the first). On a change with scope following or all, the days reached are planned again by it.")]
    }
}

extension PlanRepeat: SchemaDocumented {
    public static let schemaName = "Repeat"
    public static var fieldNotes: [String: FieldNote] {
        ["weekdays": FieldNote("ISO weekdays, 1 = Monday … 7 = Sunday; absent or empty: the first day's weekday", maxLength: 7),
         "everyWeeks": FieldNote("Every Nth week, counted from the first day's week (Monday to Sunday)",
                                 minimum: Decimal(everyWeeksRange.lowerBound), maximum: Decimal(everyWeeksRange.upperBound), default: .number(1)),
         "until": FieldNote("The last day it may fall on (inclusive), at most \(horizonDays) days from the first; absent: \(horizonDays) days"),
         "count": FieldNote("How many days it makes at most", minimum: Decimal(countRange.lowerBound), maximum: Decimal(countRange.upperBound))]
    }
}

/// `{id}` of a plan entry and which days of its repeat a change or removal reaches.
public struct AssignmentScopeParameters: Codable, Sendable, Hashable {
    public var id: UUID
    public var scope: SeriesScope?
    public init(_ id: UUID, scope: SeriesScope? = nil) {
        self.id = id
        self.scope = scope
    }
}

extension SeriesScope: SchemaLeaf {}

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
    /// The repeat it is one day of; null when it stands alone.
    public var seriesId: UUID?
    public init(id: UUID, date: CalendarDate, mealId: UUID, meal: PlannedMealAnswer, createdAt: Date, mealType: String?,
                servings: Int, servingsSet: Bool, cooked: PerServingAnswer, eaters: [EaterEntry]? = nil, seriesId: UUID? = nil) {
        self.seriesId = seriesId
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
        try c.encode(eaters, forKey: .eaters); try c.encode(seriesId, forKey: .seriesId)
    }

    public static let schemaName = "Assignment"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("The meal slot the meal is planned for (a system type's key, or a custom meal type's id); null when none. A planned meal is logged into its slot."),
         "servings": FieldNote("Portions made that day", minimum: 1),
         "servingsSet": FieldNote("True when the assignment sets its portions; false when they are the meal's own"),
         "cooked": FieldNote("Nutrition and cost of the portions made (the meal's totals × servings / meal.servings)"),
         "eaters": FieldNote("Who eats it and how many portions each; null: every member of the household, one portion each"),
         "seriesId": FieldNote("The repeat it is one day of (every day of a repeat shares it); null when it stands alone")]
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
