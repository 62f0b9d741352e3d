import ForkcastCore
import Foundation

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
