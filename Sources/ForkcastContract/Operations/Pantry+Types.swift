import ForkcastCore
import Foundation

extension PantryUseReason: SchemaLeaf {}

/// `POST /api/v1/pantry` and `PUT /api/v1/pantry/{id}`.
public struct PantryItemInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var foodId: UUID
    public var amount: Decimal
    public var unit: String?
    public var location: String?
    public var bestBefore: CalendarDate?
    public var opened: Bool?
    public init(foodId: UUID, amount: Decimal, unit: String? = nil, location: String? = nil, bestBefore: CalendarDate? = nil, opened: Bool? = nil) {
        self.foodId = foodId
        self.amount = amount
        self.unit = unit
        self.location = location
        self.bestBefore = bestBefore
        self.opened = opened
    }
    public static let schemaName = "PantryItemInput"
    public static var fieldNotes: [String: FieldNote] {
        ["foodId": FieldNote("One of the household's foods"),
         "amount": FieldNote("In unit; kept in the food's own g or ml", range: PantryItem.amountRange),
         "unit": FieldNote("g, ml, serving or piece (one serving each); default the food's g or ml", maxLength: 20),
         "location": FieldNote("Fridge, Freezer, Cupboard or a place you name; default Cupboard", maxLength: PantryLocation.maximumLength),
         "bestBefore": FieldNote("At most \(PantryItem.bestBeforeYears) years ahead"),
         "opened": FieldNote("Default false")]
    }
}

/// `POST /api/v1/pantry/barcode`.
public struct PantryBarcodeInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var barcode: String
    public var amount: Decimal?
    public var unit: String?
    public var location: String?
    public var bestBefore: CalendarDate?
    public var opened: Bool?
    public init(barcode: String, amount: Decimal? = nil, unit: String? = nil, location: String? = nil, bestBefore: CalendarDate? = nil, opened: Bool? = nil) {
        self.barcode = barcode
        self.amount = amount
        self.unit = unit
        self.location = location
        self.bestBefore = bestBefore
        self.opened = opened
    }
    public static let schemaName = "PantryBarcodeInput"
    public static var fieldNotes: [String: FieldNote] {
        var notes = PantryItemInput.fieldNotes
        notes["foodId"] = nil
        notes["barcode"] = FieldNote(pattern: Barcode.pattern, example: "3017620422003")
        notes["amount"] = FieldNote("In unit; default the pack size on the product's label", range: PantryItem.amountRange)
        return notes
    }
}

/// `POST /api/v1/pantry/{id}/use`.
public struct PantryUseInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var amount: Decimal
    public var unit: String?
    public var reason: PantryUseReason
    public init(amount: Decimal, unit: String? = nil, reason: PantryUseReason) {
        self.amount = amount
        self.unit = unit
        self.reason = reason
    }
    public static let schemaName = "PantryUseInput"
    public static var fieldNotes: [String: FieldNote] {
        ["amount": FieldNote("In unit; at most what the lot holds", range: PantryItem.amountRange),
         "unit": FieldNote("g, ml, serving or piece; default the food's g or ml", maxLength: 20),
         "reason": FieldNote("eaten, or discarded (counted as waste)")]
    }
}

/// One lot.
public struct PantryItemAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var foodId: UUID
    /// The food's name.
    public var food: String
    public var amount: Decimal
    public var unit: NutritionBasis
    public var location: String
    public var bestBefore: CalendarDate?
    public var opened: Bool
    public var updatedAt: Date

    public init(_ item: PantryItem, food: String) {
        id = item.id
        foodId = item.foodId
        self.food = food
        amount = item.amount
        unit = item.unit
        location = item.location
        bestBefore = item.bestBefore
        opened = item.opened
        updatedAt = item.updatedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(foodId, forKey: .foodId); try c.encode(food, forKey: .food)
        try c.encode(amount, forKey: .amount); try c.encode(unit, forKey: .unit); try c.encode(location, forKey: .location)
        try c.encode(bestBefore, forKey: .bestBefore); try c.encode(opened, forKey: .opened); try c.encode(updatedAt, forKey: .updatedAt)
    }

    public static let schemaName = "PantryItem"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["food": FieldNote("The food's name"), "amount": FieldNote("In unit, the food's g or ml; 0 once used up"),
         "bestBefore": FieldNote("null when not known")]
    }
}

/// The pantry: its lots, the first to go off first, and what was thrown away this month.
public struct PantryAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var items: [PantryItemAnswer]
    public var waste: PantryWasteAnswer
    public init(items: [PantryItemAnswer], waste: PantryWasteAnswer) {
        self.items = items
        self.waste = waste
    }
    public static let schemaName = "Pantry"
}

/// What was thrown away since the first of this month.
public struct PantryWasteAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var since: CalendarDate
    public var grams: Decimal
    public var milliliters: Decimal
    /// In the account's currency, from the foods' prices (those without a price count nothing).
    public var cost: Decimal
    public init(since: CalendarDate, grams: Decimal, milliliters: Decimal, cost: Decimal) {
        self.since = since
        self.grams = grams
        self.milliliters = milliliters
        self.cost = cost
    }
    public static let schemaName = "PantryWaste"
}
