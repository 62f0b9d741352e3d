import ForkcastCore
import Foundation

/// `POST /api/v1/foods` and `PUT /api/v1/foods/{id}` (a PUT replaces every field).
public struct FoodInput: Codable, Sendable, Hashable, SchemaDocumented {
    /// Per 100 g or 100 ml: any nutrient by its key (GET /api/v1/nutrients), or energy in kJ.
    public struct Per100: Codable, Sendable, Hashable, SchemaDocumented {
        public var nutrients: Nutrients
        public var energyKj: Decimal?

        public init(_ n: Nutrients, energyKj: Decimal? = nil) {
            nutrients = n
            self.energyKj = energyKj
        }

        public var energyKcal: Decimal? { get { nutrients.energyKcal } set { nutrients.energyKcal = newValue } }
        public var protein: Decimal? { get { nutrients.protein } set { nutrients.protein = newValue } }
        public var carbohydrates: Decimal? { get { nutrients.carbohydrates } set { nutrients.carbohydrates = newValue } }
        public var fat: Decimal? { get { nutrients.fat } set { nutrients.fat = newValue } }
        public subscript(_ nutrient: Nutrient) -> Decimal? { get { nutrients[nutrient] } set { nutrients[nutrient] = newValue } }

        public init(from decoder: any Decoder) throws {
            nutrients = try Nutrients.decodeEveryKey(from: decoder)
            energyKj = try decoder.container(keyedBy: NutrientKey.self).decodeIfPresent(Decimal.self, forKey: NutrientKey("energyKj"))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: NutrientKey.self)
            for n in Nutrient.allCases { try c.encodeIfPresent(nutrients[n], forKey: NutrientKey(n)) }
            try c.encodeIfPresent(energyKj, forKey: NutrientKey("energyKj"))
        }

        public static let schemaName = "FoodNutrientsInput"
        public static var fieldNotes: [String: FieldNote] {
            var notes = Dictionary(uniqueKeysWithValues: Nutrient.allCases.map { n in
                (n.rawValue, FieldNote("\(n.name) (\(n.unit.rawValue))", range: PlausibleRange(0, n.maximumPer100, unit: n.unit.rawValue)))
            })
            notes["energyKj"] = FieldNote("Energy in kJ, used when energyKcal is absent (1 kcal = 4.184 kJ; 900 kcal = 3765.6 kJ)", range: Plausible.kjPer100)
            notes["salt"] = FieldNote("Salt (g); sodium follows from it when not given (sodium mg = salt g × 400)", range: Plausible.gramsPer100)
            return notes
        }
    }

    public struct ServingInput: Codable, Sendable, Hashable, SchemaDocumented {
        public var size: Decimal
        public var unit: String?
        public var label: String?
        public init(size: Decimal, unit: String? = nil, label: String? = nil) {
            self.size = size
            self.unit = unit
            self.label = label
        }
        public static let schemaName = "FoodServingInput"
        public static var fieldNotes: [String: FieldNote] {
            ["size": FieldNote(range: Plausible.servingSize),
             "unit": FieldNote("Must be the food's basis", schema: ["type": ["string", "null"], "enum": ["g", "ml", .null]]),
             "label": FieldNote(example: "1 can")]
        }
    }

    public struct PriceInput: Codable, Sendable, Hashable, SchemaDocumented {
        public var amount: Decimal
        public var per: String?
        public var packageSize: Decimal?
        public init(amount: Decimal, per: String? = nil, packageSize: Decimal? = nil) {
            self.amount = amount
            self.per = per
            self.packageSize = packageSize
        }
        public static let schemaName = "FoodPriceInput"
        public static var fieldNotes: [String: FieldNote] {
            ["amount": FieldNote(range: Plausible.price),
             "per": FieldNote(schema: ["type": ["string", "null"], "enum": ["package", "serving", .null], "default": "package"]),
             "packageSize": FieldNote("Required for a price per package", range: Plausible.servingSize)]
        }
        public static var schemaExtras: [String: JSONValue] {
            ["anyOf": [["required": ["per"], "properties": ["per": ["const": "serving"]]],
                       ["required": ["packageSize"], "properties": ["packageSize": ["type": "number"]]]]]
        }
    }

    public var name: String
    public var brand: String?
    public var barcode: String?
    public var basis: String?
    public var per100: Per100?
    public var serving: ServingInput?
    public var portion: String?
    public var price: PriceInput?
    public var icon: String?
    public var source: String?

    public init(name: String, brand: String? = nil, barcode: String? = nil, basis: String? = nil, per100: Per100? = nil,
                serving: ServingInput? = nil, portion: String? = nil, price: PriceInput? = nil, icon: String? = nil, source: String? = nil) {
        self.name = name
        self.brand = brand
        self.barcode = barcode
        self.basis = basis
        self.per100 = per100
        self.serving = serving
        self.portion = portion
        self.price = price
        self.icon = icon
        self.source = source
    }

    public static let schemaName = "FoodInput"
    public static var schemaDescription: String? {
        "Also: protein + carbohydrates + fat at most 100 g per 100 g; sugars at most carbohydrates; saturatedFat at most fat."
    }
    public static var fieldNotes: [String: FieldNote] {
        func choice(_ values: [String], default value: String) -> FieldNote {
            FieldNote(schema: ["type": ["string", "null"], "enum": .array(values.map { .string($0) } + [.null]), "default": .string(value)])
        }
        return ["name": FieldNote(minLength: 1, maxLength: FoodDraft.maximumNameLength, pattern: FieldNote.notBlank, example: "Chickpeas, cooked"),
                "brand": FieldNote(maxLength: FoodDraft.maximumNameLength),
                "barcode": FieldNote("EAN-13, UPC-A, EAN-8 (or empty)", pattern: "^(?:|[0-9]{8,13}|0[0-9]{13})$"),
                "basis": choice(NutritionBasis.allCases.map(\.rawValue), default: "g"),
                "portion": FieldNote(maxLength: 200),
                "icon": choice(FoodIcon.allCases.map(\.rawValue), default: "generic"),
                "source": choice(FoodSource.allCases.map(\.rawValue), default: "custom")]
    }
    /// A serving's unit is the food's basis; a price per serving needs a serving.
    public static var schemaExtras: [String: JSONValue] {
        func servingUnit(_ unit: String) -> JSONValue {
            ["properties": ["serving": ["anyOf": [["type": "null"], ["properties": ["unit": ["enum": [.string(unit), .null]]]]]]]]
        }
        return ["allOf": [
            ["if": ["required": ["basis"], "properties": ["basis": ["const": "ml"]]], "then": servingUnit("ml"), "else": servingUnit("g")],
            ["if": ["required": ["price"], "properties": ["price": ["type": "object", "required": ["per"], "properties": ["per": ["const": "serving"]]]]],
             "then": ["required": ["serving"], "properties": ["serving": ["type": "object"]]]],
        ]]
    }
}

/// `GET /api/v1/foods/barcode/{code}`: where the food was found, and the food.
public struct BarcodeLookup: Codable, Sendable, Hashable, SchemaDocumented {
    public enum Origin: String, Codable, Sendable, CaseIterable, SchemaLeaf { case local, openfoodfacts }
    public var origin: Tolerant<Origin>
    /// Its id is null when it is an Open Food Facts product not yet imported.
    public var food: FoodAnswer
    public init(origin: Origin, food: FoodAnswer) {
        self.origin = .known(origin)
        self.food = food
    }
    public static let schemaName = "BarcodeLookup"
}

/// `GET /api/v1/foods/search/openfoodfacts`: products, not yet imported.
public struct OpenFoodFactsSearch: Codable, Sendable, Hashable, SchemaDocumented {
    public var items: [FoodAnswer]
    public init(items: [FoodAnswer]) { self.items = items }
    public static let schemaName = "OpenFoodFactsSearch"
}

/// `POST /api/v1/foods/import`.
public struct FoodImportInput: Codable, Sendable, Hashable, SchemaDocumented {
    /// An Open Food Facts product's barcode.
    public var barcode: String?
    /// A catalogue food's id (`GET /api/v1/foods/catalog`).
    public var catalogId: String?
    public init(barcode: String) { self.barcode = barcode }
    public init(catalogId: String) { self.catalogId = catalogId }
    public static let schemaName = "FoodImportInput"
    public static var schemaDescription: String? { "Either barcode (an Open Food Facts product) or catalogId (a catalogue food), not both" }
    public static var fieldNotes: [String: FieldNote] {
        ["barcode": FieldNote(pattern: Barcode.pattern, example: "3017620422003"),
         "catalogId": FieldNote("A catalogue food's id", maxLength: CatalogFood.maximumIdLength, pattern: "^(sr|fd|sv|br)-[0-9a-f]{16}$",
                                example: "sr-6c2fd0c1a1e52b1d")]
    }
    public static var schemaExtras: [String: JSONValue] {
        ["oneOf": [["required": ["barcode"]], ["required": ["catalogId"]]]]
    }
}
