import ForkcastCore
import Foundation

extension Plan {
    public enum Cooked: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = CookedAnswer
        public static let spec = OperationSpec(.post, "/api/v1/plan/assignments/{id}/cooked", "cookAssignment", tag: "pantry",
            summary: "Cooked: the planned meal's ingredients, scaled to the entry's portions, taken out of the pantry (the lot that goes off first first; partly where there is less). Once per entry: \"We ate this\" and Log on Today do the same, and the second of them takes nothing",
            success: Outcome(200, "What was taken, and what the pantry lacked"), failures: [Outcome(404, "No such assignment")] + Outcome.write,
            parameterNotes: ["id": FieldNote("The plan entry's id")])
    }
}

/// One ingredient taken out of the pantry for a cooked plan entry, in the food's g or ml.
public struct PantryTakenAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var foodId: UUID
    public var food: String
    public var unit: NutritionBasis
    public var needed: Decimal
    public var taken: Decimal
    /// What the pantry did not hold.
    public var short: Decimal
    public init(foodId: UUID, food: String, unit: NutritionBasis, needed: Decimal, taken: Decimal, short: Decimal) {
        self.foodId = foodId
        self.food = food
        self.unit = unit
        self.needed = needed
        self.taken = taken
        self.short = short
    }
    public static let schemaName = "PantryTaken"
    public static var fieldNotes: [String: FieldNote] {
        ["short": FieldNote("Needed but not in the pantry (needs 750 g, has 500 g: 250)")]
    }
}

/// A plan entry cooked from the pantry.
public struct CookedAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var assignmentId: UUID
    /// True when it had been cooked already: nothing was taken this time.
    public var alreadyCooked: Bool
    public var lines: [PantryTakenAnswer]
    public init(assignmentId: UUID, alreadyCooked: Bool, lines: [PantryTakenAnswer]) {
        self.assignmentId = assignmentId
        self.alreadyCooked = alreadyCooked
        self.lines = lines
    }
    public static let schemaName = "Cooked"
}

extension Meals {
    public enum Cookable: APIOperation {
        public typealias Answer = CookableAnswer
        public static let spec = OperationSpec(.get, "/api/v1/meals/cookable", "listCookableMeals", tag: "pantry",
            summary: "What can I cook now: the meals whose foods the pantry holds enough of for the recipe's servings, or all but one (named)",
            success: Outcome(200, "The complete ones first, then by name"), failures: Outcome.read)
    }
}

/// Meals the pantry can make.
public struct CookableAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public struct Item: Codable, Sendable, Hashable, SchemaDocumented {
        public var mealId: UUID
        public var meal: String
        /// The one food the pantry lacks (or has too little of); null when it has them all.
        public var missing: String?
        public init(mealId: UUID, meal: String, missing: String?) {
            self.mealId = mealId
            self.meal = meal
            self.missing = missing
        }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(mealId, forKey: .mealId); try c.encode(meal, forKey: .meal); try c.encode(missing, forKey: .missing)
        }
        public static let schemaName = "CookableMeal"
        public static let writesNulls = true
    }
    public var items: [Item]
    public init(items: [Item]) { self.items = items }
    public static let schemaName = "CookableMeals"
}
