import ForkcastCore
import Foundation

/// What a person logs or changes (`POST /api/v1/diary/entries`, each item of a plate, a synced
/// device's diary entry, the web's forms): exactly one of a food amount, servings of a meal, a quick
/// add, or a photo alone.
public struct DiaryEntryInput: Codable, Sendable, Hashable, SchemaDocumented {
    public struct QuickAdd: Codable, Sendable, Hashable, SchemaDocumented {
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

        public static let schemaName = "QuickAdd"
        public static var fieldNotes: [String: FieldNote] {
            let value = FieldNote(range: Plausible.quickAddValue)
            return ["energyKcal": FieldNote(schema: ["type": "number", "minimum": 0, "maximum": .number(NSDecimalNumber(decimal: Plausible.quickAddValue.upper).doubleValue)]),
                    "protein": value, "carbohydrates": value, "fat": value]
        }
        public static var schemaExtras: [String: JSONValue] { ["required": ["energyKcal"]] }
    }

    public var loggedAt: Date?
    /// The day it was eaten, when no `loggedAt` is given: now if that is today, else noon of that
    /// day in the person's time zone (what the pages do; offline clients send this).
    public var date: CalendarDate?
    public var mealType: String?
    public var note: String?
    public var foodId: UUID?
    public var quantity: Decimal?
    public var unit: String?
    public var mealId: UUID?
    public var servings: Decimal?
    public var quickAdd: QuickAdd?
    /// Only for quick adds and photo entries: what to call it.
    public var name: String?
    /// A photo uploaded with `POST /api/v1/photos` for this entry to show; alone (no food, meal or
    /// quick add), the entry is a photo not counted yet.
    public var photoId: UUID?
    /// An edit only: move the entry when its new time puts it in another occasion.
    public var confirmMove: Bool?

    public init(loggedAt: Date? = nil, date: CalendarDate? = nil, mealType: String? = nil, note: String? = nil, foodId: UUID? = nil,
                quantity: Decimal? = nil, unit: String? = nil, mealId: UUID? = nil, servings: Decimal? = nil, quickAdd: QuickAdd? = nil,
                name: String? = nil, photoId: UUID? = nil, confirmMove: Bool? = nil) {
        self.loggedAt = loggedAt
        self.date = date
        self.mealType = mealType
        self.note = note
        self.foodId = foodId
        self.quantity = quantity
        self.unit = unit
        self.mealId = mealId
        self.servings = servings
        self.quickAdd = quickAdd
        self.name = name
        self.photoId = photoId
        self.confirmMove = confirmMove
    }
}

extension DiaryEntryInput {
    public static let schemaName = "DiaryEntryInput"
    public static var schemaDescription: String? {
        "Exactly one of: foodId (+ quantity + unit; with neither, the food's usual portion: one serving when it has a serving size, else 100 g or 100 ml), mealId (+ servings, default 1), or quickAdd (+ name, default \"Quick add\"); or only a photoId (no food, meal or quick add): then the entry is a photo not counted yet, to complete later. foodId, mealId and photoId must be yours (404 otherwise). A plate's items are the same, without their own meal type, time, note or photo."
    }
    public static var fieldNotes: [String: FieldNote] { notes(mealTypeDefault: "Default from the time of day (GET \(MealTypes.Suggestion.path)).") }

    static func notes(mealTypeDefault: String) -> [String: FieldNote] {
        ["loggedAt": FieldNote("Default now (or the entry's own when editing)"),
         "date": FieldNote("The day it was eaten when loggedAt is not given: now if that is today, else noon of that day in your time zone"),
         "mealType": FieldNote("\(MealTypeKey.description); unknown ones get 422. \(mealTypeDefault)", minLength: 1, pattern: "\\S"),
         "note": FieldNote(maxLength: DiaryValidation.maximumNoteLength),
         "quantity": FieldNote(range: Plausible.quantity),
         "unit": FieldNote("Default the food's basis when a quantity is given",
                           schema: ["type": ["string", "null"], "enum": .array(QuantityUnit.allCases.map { .string($0.rawValue) } + [.null])]),
         "servings": FieldNote(range: Plausible.servingsEaten),
         "name": FieldNote("Only for quick adds and photo entries"),
         "photoId": FieldNote("A photo from POST \(Photos.Upload.path) for the entry to show (one entry per photo: 409 when another shows it; 404 when it is not yours)"),
         "confirmMove": FieldNote("Editing only (PUT): true moves the entry when its new time puts it in another occasion (another day or meal), instead of the 409 occasion-change problem; ignored when logging")]
    }

    static func exactlyOne(_ last: JSONValue) -> JSONValue {
        ["oneOf": [
            ["required": ["foodId"], "properties": ["foodId": ["type": "string"], "mealId": ["type": "null"], "quickAdd": ["type": "null"]],
             "anyOf": [["required": ["quantity"], "properties": ["quantity": ["type": "number"]]],
                       ["description": "Neither quantity nor unit: the food's usual portion", "properties": ["quantity": ["type": "null"], "unit": ["type": "null"]]]]],
            ["required": ["mealId"], "properties": ["mealId": ["type": "string"], "foodId": ["type": "null"], "quickAdd": ["type": "null"]]],
            ["required": ["quickAdd"], "properties": ["quickAdd": ["type": "object"], "foodId": ["type": "null"], "mealId": ["type": "null"]]],
            last,
        ]]
    }

    public static var schemaExtras: [String: JSONValue] {
        ["oneOf": exactlyOne(["required": ["photoId"], "properties": ["photoId": ["type": "string"], "foodId": ["type": "null"], "mealId": ["type": "null"], "quickAdd": ["type": "null"]]])["oneOf"]!]
    }
}

/// `PUT /api/v1/diary/entries/{id}`: the same fields as logging, read as an edit.
public struct DiaryEntryUpdate: Codable, Sendable, Hashable, SchemaDocumented {
    public var input: DiaryEntryInput
    public init(_ input: DiaryEntryInput) { self.input = input }
    public init(from decoder: any Decoder) throws { input = try DiaryEntryInput(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try input.encode(to: encoder) }

    public static let schemaName = "DiaryEntryUpdate"
    public static var schemaDescription: String? {
        "Either a new amount (exactly one of foodId + quantity — with neither quantity nor unit, the food's usual portion —, mealId + servings, or quickAdd, as when logging; completing a photo entry keeps its photo), or only mealType, loggedAt, note, name and photoId to move, annotate or re-photo the entry. A new time that moves the entry to another occasion (another day or meal) is refused with 409 (problem type occasion-change) unless confirmMove is true."
    }
    public static var fieldNotes: [String: FieldNote] { DiaryEntryInput.notes(mealTypeDefault: "Default the entry's own.") }
    public static var schemaExtras: [String: JSONValue] {
        ["oneOf": DiaryEntryInput.exactlyOne(["properties": ["foodId": ["type": "null"], "mealId": ["type": "null"], "quickAdd": ["type": "null"],
                                                             "quantity": ["type": "null"], "servings": ["type": "null"]]])["oneOf"]!]
    }
}

/// Several items at once to one meal type (a plate): all or nothing.
public struct PlateInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var loggedAt: Date?
    public var mealType: String
    public var note: String?
    public var items: [DiaryEntryInput]

    public init(loggedAt: Date? = nil, mealType: String, note: String? = nil, items: [DiaryEntryInput]) {
        self.loggedAt = loggedAt
        self.mealType = mealType
        self.note = note
        self.items = items
    }
}

extension PlateInput {
    public static let schemaName = "PlateInput"
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("\(MealTypeKey.description); unknown ones get 422.", minLength: 1, pattern: "\\S"),
         "note": FieldNote(maxLength: DiaryValidation.maximumNoteLength),
         "items": FieldNote("1 to \(DiaryValidation.maximumPlateItems) items; meal type, time and note are the plate's",
                            minLength: 1, maxLength: DiaryValidation.maximumPlateItems)]
    }
}
