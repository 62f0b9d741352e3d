import ForkcastCore
import Foundation

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
