import ForkcastCore
import Foundation

// MARK: Types

extension NutritionBasis: SchemaLeaf {}
extension FoodIcon: SchemaLeaf {}
extension FoodSource: SchemaLeaf {}
extension QuantityUnit: SchemaLeaf {}
extension Price.Per: SchemaLeaf {}

/// An answer that is an object of nutrients: energy and the macros always (null when unknown),
/// the other nutrients when known, each in its unit. One coding for every such answer.
public protocol NutrientObject: Codable, Sendable, Hashable, SchemaDocumented {
    var nutrients: Nutrients { get }
    init(nutrients: Nutrients)
}

extension NutrientObject {
    public var energyKcal: Decimal? { nutrients.energyKcal }
    public var protein: Decimal? { nutrients.protein }
    public var carbohydrates: Decimal? { nutrients.carbohydrates }
    public var fat: Decimal? { nutrients.fat }
    public subscript(_ nutrient: Nutrient) -> Decimal? { nutrients[nutrient] }

    public init(from decoder: any Decoder) throws { self.init(nutrients: try Nutrients.decodeEveryKey(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try nutrients.encodeEveryKey(to: encoder) }

    static var unitsNote: String {
        "each nutrient in its unit (GET /api/v1/nutrients). Energy and the macronutrients are always there (null when unknown); another nutrient is there when known, and unknown when absent"
    }
    public static var fieldNotes: [String: FieldNote] { Nutrient.fieldNotes }
    public static var schemaExtras: [String: JSONValue] { Nutrients.alwaysWritten }
}

/// A food's nutrition per 100 g or 100 ml, or a meal's per serving.
public struct NutrientsAnswer: NutrientObject {
    public var nutrients: Nutrients
    public init(nutrients: Nutrients) { self.nutrients = nutrients }
    /// `n`'s values, rounded to `places` decimals when given.
    public init(_ n: Nutrients, places: Int? = nil) { nutrients = n.rounded(places) }

    public var fiber: Decimal? { nutrients.fiber }
    public var sugars: Decimal? { nutrients.sugars }
    public var saturatedFat: Decimal? { nutrients.saturatedFat }
    public var salt: Decimal? { nutrients.salt }

    public static let schemaName = "Nutrients"
    public static var schemaDescription: String? { "Per 100 g or 100 ml (a food) or per serving (a meal), " + unitsNote }
}

extension Nutrient {
    /// Each nutrient's key documented with its name and unit.
    static var fieldNotes: [String: FieldNote] {
        Dictionary(uniqueKeysWithValues: allCases.map { n in
            (n.rawValue, FieldNote("\(n.name) (\(n.unit.rawValue)\(n.note.map { ", \($0)" } ?? ""))"))
        })
    }
}

struct NutrientKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ nutrient: Nutrient) { stringValue = nutrient.rawValue }
    init(_ text: String) { stringValue = text }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Nutrients {
    /// Every value rounded to `places` decimals (as they are when nil).
    public func rounded(_ places: Int?) -> Nutrients {
        guard let places else { return self }
        return Nutrients(values.mapValues { $0.rounded(places) })
    }

    /// Energy and the three macronutrients: written always, null when unknown. Other nutrients are
    /// written only when known (most entries know few of them; 22 nulls each made a week's plan twice the size).
    static let alwaysWrittenKeys: [Nutrient] = [.energyKcal, .protein, .carbohydrates, .fat]
    static var alwaysWritten: [String: JSONValue] { ["required": .array(alwaysWrittenKeys.map { .string($0.rawValue) })] }

    /// An object with energy and the macros (null when unknown) and every other known nutrient.
    func encodeEveryKey(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NutrientKey.self)
        for n in Nutrient.allCases {
            if Self.alwaysWrittenKeys.contains(n) { try c.encode(self[n], forKey: NutrientKey(n)) } else { try c.encodeIfPresent(self[n], forKey: NutrientKey(n)) }
        }
    }

    /// The values of an object keyed by nutrient (keys it does not know are ignored).
    static func decodeEveryKey(from decoder: any Decoder) throws -> Nutrients {
        let c = try decoder.container(keyedBy: NutrientKey.self)
        var n = Nutrients()
        for key in Nutrient.allCases { n[key] = try c.decodeIfPresent(Decimal.self, forKey: NutrientKey(key)) }
        return n
    }
}

/// A food, as the API answers it.
public struct FoodAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public struct ServingSize: Codable, Sendable, Hashable, SchemaDocumented {
        public var size: Decimal
        public var unit: Tolerant<NutritionBasis>
        public var label: String?
        public init(size: Decimal, unit: NutritionBasis, label: String?) {
            self.size = size
            self.unit = .known(unit)
            self.label = label
        }
        public static let schemaName = "FoodServing"
    }

    public struct PriceTag: Codable, Sendable, Hashable, SchemaDocumented {
        public var amount: Decimal
        public var per: Tolerant<Price.Per>
        public var packageSize: Decimal?
        public var currency: String
        public init(amount: Decimal, per: Price.Per, packageSize: Decimal?, currency: String) {
            self.amount = amount
            self.per = .known(per)
            self.packageSize = packageSize
            self.currency = currency
        }
        public static let schemaName = "FoodPrice"
    }

    public struct Portion: Codable, Sendable, Hashable, SchemaDocumented {
        public var quantity: Decimal
        public var unit: Tolerant<QuantityUnit>
        public init(quantity: Decimal, unit: QuantityUnit) {
            self.quantity = quantity
            self.unit = .known(unit)
        }
        public static let schemaName = "UsualPortion"
    }

    /// Null for an Open Food Facts product not imported yet.
    public var id: UUID?
    public var name: String
    public var brand: String?
    public var barcode: String?
    public var basis: Tolerant<NutritionBasis>
    public var per100: NutrientsAnswer
    public var serving: ServingSize?
    public var portion: String?
    public var price: PriceTag?
    public var icon: Tolerant<FoodIcon>
    public var source: Tolerant<FoodSource>
    /// The catalogue food it was adopted from (source `usda`).
    public var catalogId: String?
    public var warnings: [String]
    /// What an amount left empty on a plate means for this food (one serving, else 100 g or ml).
    public var usualPortion: Portion
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(_ food: Food, currency: String) {
        id = food.id
        name = food.name
        brand = food.brand
        barcode = food.barcode?.digits
        basis = .known(food.basis)
        per100 = NutrientsAnswer(food.per100)
        serving = food.serving.map { ServingSize(size: $0.size, unit: $0.unit, label: $0.label) }
        portion = food.portion
        price = food.price.map { PriceTag(amount: $0.amount, per: $0.per, packageSize: $0.packageSize, currency: currency) }
        icon = .known(food.icon)
        usualPortion = Portion(quantity: food.usualPortion.quantity, unit: food.usualPortion.unit)
        source = .known(food.source)
        catalogId = food.catalogId
        warnings = food.warnings
        createdAt = food.createdAt
        updatedAt = food.updatedAt
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(brand, forKey: .brand)
        try c.encode(barcode, forKey: .barcode); try c.encode(basis, forKey: .basis); try c.encode(per100, forKey: .per100)
        try c.encode(serving, forKey: .serving); try c.encode(portion, forKey: .portion); try c.encode(price, forKey: .price)
        try c.encode(icon, forKey: .icon); try c.encode(source, forKey: .source); try c.encode(catalogId, forKey: .catalogId)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(usualPortion, forKey: .usualPortion)
        try c.encode(createdAt, forKey: .createdAt); try c.encode(updatedAt, forKey: .updatedAt)
    }

    public static let schemaName = "Food"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["id": FieldNote("Null for an Open Food Facts product not imported yet"),
         "name": FieldNote(example: "Chickpeas, cooked"),
         "per100": FieldNote("Per 100 g or 100 ml, as basis says"),
         "warnings": FieldNote("What looked wrong in the source's data (an Open Food Facts product's missing or implausible values)"),
         "usualPortion": FieldNote("What an amount left empty on the plate means for this food: one serving when it has one, else 100 g or 100 ml")]
    }
}

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

extension CatalogSource: SchemaLeaf {}

/// A size a catalogue food is eaten in.
public struct CatalogPortionAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var name: String
    public var grams: Decimal
    public init(_ p: CatalogPortion) {
        name = p.name
        grams = p.grams
    }
    public static let schemaName = "CatalogPortion"
    public static var fieldNotes: [String: FieldNote] { ["name": FieldNote(example: "1 portion (128 g)"), "grams": FieldNote(minimum: 0)] }
}

/// A food of the shared catalogue (USDA FoodData Central).
public struct CatalogFoodAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var catalogId: String
    public var name: String
    public var category: String?
    public var source: Tolerant<CatalogSource>
    /// Per 100 g.
    public var per100: NutrientsAnswer
    public var portions: [CatalogPortionAnswer]
    /// The person's food adopted from it, once they have used it.
    public var foodId: UUID?

    public init(_ food: CatalogFood, foodId: UUID?) {
        catalogId = food.catalogId
        name = food.name
        category = food.category
        source = .known(food.source)
        per100 = NutrientsAnswer(food.per100)
        portions = food.portions.map(CatalogPortionAnswer.init)
        self.foodId = foodId
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(catalogId, forKey: .catalogId); try c.encode(name, forKey: .name); try c.encode(category, forKey: .category)
        try c.encode(source, forKey: .source); try c.encode(per100, forKey: .per100); try c.encode(portions, forKey: .portions)
        try c.encode(foodId, forKey: .foodId)
    }

    public static let schemaName = "CatalogFood"
    public static let writesNulls = true
    public static var schemaDescription: String? { "A catalogue food: nutrients per 100 g, portions with the usual one first" }
    public static var fieldNotes: [String: FieldNote] {
        ["catalogId": FieldNote("Stable across catalogue rebuilds; give it to POST /api/v1/foods/import", example: "sr-6c2fd0c1a1e52b1d"),
         "category": FieldNote("FoodData Central's food category", example: "Vegetables and Vegetable Products"),
         "source": FieldNote("Which part of FoodData Central"),
         "foodId": FieldNote("Your food made from it, once you have used it (null before)")]
    }
}

/// One nutrient Forkcast tracks.
public struct NutrientAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var key: String
    public var name: String
    public var unit: Tolerant<Nutrient.Unit>
    public var group: Tolerant<Nutrient.Group>
    public var direction: Tolerant<Nutrient.Direction>
    /// The FDA daily value, in `unit`; null where the person's goals set the target (energy, macros) or none applies.
    public var dailyValue: Decimal?
    public var note: String?

    public init(_ n: Nutrient) {
        key = n.rawValue
        name = n.name
        unit = .known(n.unit)
        group = .known(n.group)
        direction = .known(n.direction)
        dailyValue = n.dailyValue
        note = n.note
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key); try c.encode(name, forKey: .name); try c.encode(unit, forKey: .unit)
        try c.encode(group, forKey: .group); try c.encode(direction, forKey: .direction)
        try c.encode(dailyValue, forKey: .dailyValue); try c.encode(note, forKey: .note)
    }

    public static let schemaName = "Nutrient"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["key": FieldNote("The key in every nutrients object", example: "vitaminA"),
         "direction": FieldNote("atLeast: reach the daily value; atMost: stay below it; goal: the person's own goal"),
         "dailyValue": FieldNote("The FDA daily value (21 CFR 101.9) in unit; null for energy, macronutrients and salt")]
    }
}

extension Nutrient: SchemaLeaf {}
extension Nutrient.Unit: SchemaLeaf {}
extension Nutrient.Group: SchemaLeaf {}
extension Nutrient.Direction: SchemaLeaf {}

/// `GET /api/v1/nutrients`.
public struct NutrientList: Codable, Sendable, Hashable, SchemaDocumented {
    public var items: [NutrientAnswer]
    public init(_ nutrients: [Nutrient] = Nutrient.allCases) { items = nutrients.map(NutrientAnswer.init) }
    public static let schemaName = "NutrientList"
}

/// `?q=&page=&per=`: catalogue search.
public struct CatalogQuery: Codable, Sendable, Hashable {
    /// Required (2 characters or more); optional here so its absence gets the handler's own message.
    public var q: String?
    public var page: Int?
    public var per: Int?
    public init(q: String, page: Int? = nil, per: Int? = nil) {
        self.q = q
        self.page = page
        self.per = per
    }
    public var paging: PageQuery { PageQuery(page: page, per: per) }
}

/// `?q=&page=&per=`: a page of your foods, searched.
public struct FoodQuery: Codable, Sendable, Hashable {
    public var q: String?
    public var page: Int?
    public var per: Int?
    public init(q: String? = nil, page: Int? = nil, per: Int? = nil) {
        self.q = q
        self.page = page
        self.per = per
    }
    public var paging: PageQuery { PageQuery(page: page, per: per) }
}

/// `?q=`: what to search Open Food Facts for.
public struct TextQuery: Codable, Sendable, Hashable {
    /// Required; optional here so its absence gets the handler's own message.
    public var q: String?
    public init(q: String) { self.q = q }
}

/// `{code}` in a path: barcode digits.
public struct BarcodeParameter: Codable, Sendable, Hashable {
    public var code: String
    public init(_ code: String) { self.code = code }
}

extension Barcode {
    /// The digits a barcode may be, as a pattern.
    public static let pattern = "^(?:[0-9]{8,13}|0[0-9]{13})$"
}

// MARK: Operations

/// `/api/v1/foods`: the food library, barcode lookup, and Open Food Facts search and import.
public enum Foods {
    static let upstream = Outcome(503, "Open Food Facts unreachable or throttled (see Retry-After), or the database unavailable", headers: Outcome.retryAfter)
    static let idNote: [String: FieldNote] = ["id": FieldNote("The food's id")]

    public enum List: APIOperation {
        public typealias Parameters = FoodQuery
        public typealias Answer = Page<FoodAnswer>
        public static let id = "listFoods"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods"
        public static let summary = "Your foods; search as you type with q (local only, never Open Food Facts)"
        public static let tag = "foods"
        public static let success = Outcome(200, "A page of foods")
        public static let failures = [Outcome(400, "Bad query parameter")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { PageQuery.notes.merging(["q": FieldNote("Text in the name or brand")]) { $1 } }
    }

    public enum Create: APIOperation {
        public typealias Body = FoodInput
        public typealias Answer = FoodAnswer
        public static let id = "createFood"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/foods"
        public static let summary = "Add a food"
        public static let tag = "foods"
        public static let success = Outcome(201, "Created")
        public static let answerHeaders = ["Location": "The new food"]
        public static let failures = [Outcome(409, "Barcode already used by another of your foods")] + Outcome.writeJSON
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = FoodAnswer
        public static let id = "getFood"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/{id}"
        public static let summary = "One food"
        public static let tag = "foods"
        public static let success = Outcome(200, "The food")
        public static let failures = [Outcome(404, "No such food")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Update: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = FoodInput
        public typealias Answer = FoodAnswer
        public static let id = "updateFood"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/foods/{id}"
        public static let summary = "Replace a food's fields"
        public static let tag = "foods"
        public static let success = Outcome(200, "Updated")
        public static let failures = [Outcome(404, "No such food"), Outcome(409, "Barcode already used")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteFood"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/foods/{id}"
        public static let summary = "Delete a food no meal uses"
        public static let tag = "foods"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such food"), Outcome(409, "A meal uses this food")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum LookUpBarcode: APIOperation {
        public typealias Parameters = BarcodeParameter
        public typealias Answer = BarcodeLookup
        public static let id = "lookupBarcode"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/barcode/{code}"
        public static let summary = "Find a food by barcode: your foods first, then the cache, then Open Food Facts"
        public static let tag = "foods"
        public static let success = Outcome(200, "Found (food.id is null for an Open Food Facts product not imported yet)")
        public static let failures = [Outcome(400, "Not a barcode"), .notSignedIn, Outcome(404, "Not found anywhere"), upstream]
        public static var parameterNotes: [String: FieldNote] {
            ["code": FieldNote("EAN-13, UPC-A or EAN-8 digits (8 to 13, or 14 starting with 0)", pattern: Barcode.pattern, example: "3017620422003")]
        }
    }

    public enum SearchOpenFoodFacts: APIOperation {
        public typealias Parameters = TextQuery
        public typealias Answer = OpenFoodFactsSearch
        public static let id = "searchOpenFoodFacts"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/search/openfoodfacts"
        public static let summary = "Search Open Food Facts by name (an explicit action, rate limited)"
        public static let tag = "foods"
        public static let success = Outcome(200, "Products (not yet imported)")
        public static let failures = [Outcome(400, "q missing or too short"), .notSignedIn, upstream]
        public static var requiredParameters: Set<String> { ["q"] }
        public static var parameterNotes: [String: FieldNote] {
            ["q": FieldNote("Product name: at least 2 characters besides surrounding spaces", minLength: 2, pattern: FieldNote.twoNotBlank, example: "hummus")]
        }
    }

    public enum Import: APIOperation {
        public typealias Body = FoodImportInput
        public typealias Answer = FoodAnswer
        public static let id = "importFood"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/foods/import"
        public static let summary = "Make an Open Food Facts product (barcode) or a catalogue food (catalogId) one of your foods"
        public static let tag = "foods"
        public static let success = Outcome(201, "Imported")
        public static let otherAnswers = [Outcome(200, "You already have a food with this barcode or from this catalogue food")]
        public static let answerHeaders = ["Location": "The food"]
        public static let failures = [Outcome.malformed, .notSignedIn, .csrf, Outcome(404, "No such product or catalogue food"), .tooLarge, .notJSON,
                                      Outcome(422, "Not a barcode or catalogue id, or both given"), upstream]
    }

    public enum Catalog: APIOperation {
        public typealias Parameters = CatalogQuery
        public typealias Answer = Page<CatalogFoodAnswer>
        public static let id = "searchFoodCatalog"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/foods/catalog"
        public static let summary = "Search the food catalogue (USDA FoodData Central, offline): words in any order, one typo forgiven"
        public static let tag = "foods"
        public static let success = Outcome(200, "A page of catalogue foods, best match first")
        public static let failures = [Outcome(400, "q missing or shorter than 2 characters, or a bad page")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            PageQuery.notes.merging(["q": FieldNote("What to look for (2 characters or more)", minLength: 2, pattern: FieldNote.twoNotBlank, example: "carrot")]) { $1 }
        }
        public static var requiredParameters: Set<String> { ["q"] }
    }
}

/// `/api/v1/nutrients`: what Forkcast tracks.
public enum NutrientDefinitions {
    public enum List: APIOperation {
        public typealias Answer = NutrientList
        public static let id = "listNutrients"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/nutrients"
        public static let summary = "The nutrients Forkcast tracks: key, name, unit, FDA daily value"
        public static let tag = "foods"
        public static let signedIn = false
        public static let success = Outcome(200, "Every nutrient, in display order")
        public static let failures: [Outcome] = []
    }
}
