import Foundation

/// A unit a cook writes in a recipe ("2 cups", "1 can", "a pinch"): weights and volumes convert to
/// grams and millilitres; the rest are counts of something a food's portions may size.
public enum CookUnit: String, Sendable, Codable, CaseIterable, Hashable {
    case gram = "g", kilogram = "kg", milligram = "mg", ounce = "oz", pound = "lb"
    case milliliter = "ml", liter = "l", deciliter = "dl", centiliter = "cl"
    case teaspoon = "tsp", tablespoon = "tbsp", cup, fluidOunce = "fl oz", pint, quart
    case pinch, dash, drop, clove, can, jar, package, slice, piece, head, bunch, handful, sprig, stick, stalk, sheet, leaf

    /// Grams in one of this unit, for weights.
    public var grams: Decimal? {
        switch self {
        case .gram: 1
        case .kilogram: 1000
        case .milligram: Decimal(string: "0.001")
        case .ounce: Decimal(string: "28.349523125")
        case .pound: Decimal(string: "453.59237")
        default: nil
        }
    }

    /// Millilitres in one of this unit, for volumes (US customary measures, as most pages use).
    public var milliliters: Decimal? {
        switch self {
        case .milliliter: 1
        case .liter: 1000
        case .deciliter: 100
        case .centiliter: 10
        case .teaspoon: Decimal(string: "4.92892")
        case .tablespoon: Decimal(string: "14.7868")
        case .cup: Decimal(string: "236.588")
        case .fluidOunce: Decimal(string: "29.5735")
        case .pint: Decimal(string: "473.176")
        case .quart: Decimal(string: "946.353")
        case .pinch: Decimal(string: "0.31")
        case .dash: Decimal(string: "0.62")
        case .drop: Decimal(string: "0.05")
        default: nil
        }
    }

    /// What one of a counted unit usually weighs, where that hardly depends on the food: a clove
    /// (of garlic) 3 g, a slice (of bread, cheese or bacon) 25 g, a can 400 g, a stick (of butter)
    /// 113 g, a handful 30 g, a sprig 1 g, a stalk (of celery) 40 g, a leaf 0.5 g. A head, a bunch,
    /// a jar or a package varies too much to guess.
    public var usualGrams: Decimal? {
        switch self {
        case .clove: 3
        case .slice: 25
        case .can: 400
        case .stick: 113
        case .handful: 30
        case .sprig: 1
        case .stalk: 40
        case .leaf: Decimal(string: "0.5")
        default: nil
        }
    }

    /// The unit's name for `quantity` of it: "cup" / "cups", "g".
    public func label(plural: Bool) -> String {
        switch self {
        case .gram, .kilogram, .milligram, .ounce, .pound, .milliliter, .liter, .deciliter, .centiliter,
             .teaspoon, .tablespoon, .fluidOunce:
            rawValue
        case .pinch, .dash, .bunch: plural ? rawValue + "es" : rawValue
        case .leaf: plural ? "leaves" : rawValue
        default: plural ? rawValue + "s" : rawValue
        }
    }

    /// The unit a word names, in any of the spellings pages use ("Tbsp.", "tablespoons", "gr").
    public static func named(_ word: String) -> CookUnit? {
        var key = word.lowercased()
        if key.hasSuffix(".") { key.removeLast() }
        return aliases[key]
    }

    private static let aliases: [String: CookUnit] = {
        var table: [String: CookUnit] = [:]
        let spellings: [CookUnit: [String]] = [
            .gram: ["g", "gr", "gram", "grams", "gramme", "grammes", "grm"],
            .kilogram: ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme"],
            .milligram: ["mg", "milligram", "milligrams"],
            .ounce: ["oz", "ozs", "ounce", "ounces"],
            .pound: ["lb", "lbs", "pound", "pounds"],
            .milliliter: ["ml", "mls", "milliliter", "milliliters", "millilitre", "millilitres"],
            .liter: ["l", "lt", "ltr", "liter", "liters", "litre", "litres"],
            .deciliter: ["dl", "deciliter", "deciliters", "decilitre", "decilitres"],
            .centiliter: ["cl", "centiliter", "centiliters", "centilitre", "centilitres"],
            .teaspoon: ["tsp", "tsps", "teaspoon", "teaspoons", "tspn", "teasp"],
            .tablespoon: ["tbsp", "tb", "tbsps", "tbs", "tbl", "tbls", "tblsp", "tablespoon", "tablespoons", "tbspn"],
            .cup: ["cup", "cups", "c"],
            .fluidOunce: ["fl oz", "fl. oz", "fluid ounce", "fluid ounces", "floz"],
            .pint: ["pint", "pints", "pt"],
            .quart: ["quart", "quarts", "qt"],
            .pinch: ["pinch", "pinches"],
            .dash: ["dash", "dashes"],
            .drop: ["drop", "drops"],
            .clove: ["clove", "cloves"],
            .can: ["can", "cans", "tin", "tins"],
            .jar: ["jar", "jars"],
            .package: ["package", "packages", "pack", "packs", "packet", "packets", "pkg", "bag", "bags", "box", "boxes"],
            .slice: ["slice", "slices"],
            .piece: ["piece", "pieces", "pc", "pcs"],
            .head: ["head", "heads"],
            .bunch: ["bunch", "bunches"],
            .handful: ["handful", "handfuls"],
            .sprig: ["sprig", "sprigs"],
            .stick: ["stick", "sticks"],
            .stalk: ["stalk", "stalks"],
            .sheet: ["sheet", "sheets"],
            .leaf: ["leaf", "leaves"],
        ]
        for (unit, names) in spellings { for name in names { table[name] = unit } }
        return table
    }()
}
