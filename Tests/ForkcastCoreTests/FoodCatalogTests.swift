import Foundation
import Testing
@testable import ForkcastCore

/// The catalogue Forkcast ships, read from the committed files, and how it is searched.
@Suite struct FoodCatalogTests {
    static let catalog: [CatalogFood] = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ForkcastServer/Catalog")
        let csv = try! String(contentsOf: dir.appendingPathComponent("fdc-generic.csv"), encoding: .utf8)
        let portions = try! String(contentsOf: dir.appendingPathComponent("fdc-portions.csv"), encoding: .utf8)
        return try! FoodDataCentral.foods(csv: csv, portions: portions)
    }()
    static let index = CatalogSearch(catalog.map { CatalogSearch.Entry(catalogId: $0.catalogId, name: $0.name, source: $0.source) })

    func top(_ query: String, _ n: Int = 5) -> [String] {
        let byId = Dictionary(uniqueKeysWithValues: Self.catalog.map { ($0.catalogId, $0.name) })
        return Self.index.search(query, offset: 0, limit: n).ids.map { byId[$0]! }
    }

    @Test func shipsTheGenericPartsOfFoodDataCentral() throws {
        #expect(Self.catalog.count == 7349)
        #expect(Set(Self.catalog.map(\.catalogId)).count == 7349, "every id is distinct")
        let bySource = Dictionary(grouping: Self.catalog, by: \.source).mapValues(\.count)
        #expect(bySource == [.srLegacy: 3068, .survey: 3985, .foundation: 296])
    }

    @Test func carrotsRawHaveTheirNutrientsAndNamedPortions() throws {
        let carrots = try #require(Self.catalog.first { $0.name == "Carrots, raw" && $0.source == .srLegacy })
        let n = carrots.per100
        #expect(n.energyKcal == 41 && n.carbohydrates == Decimal(string: "9.58") && n.fiber == Decimal(string: "2.8"))
        #expect(n[.vitaminA] == 835 && n[.sodium] == 69 && n[.potassium] == 320)
        #expect(n.salt == Decimal(string: "0.1725"), "salt follows from sodium")
        #expect(n[.vitaminD] == 0, "a stated zero stays zero")
        #expect(carrots.portions.first == CatalogPortion(name: "1 portion (128 g)", grams: 128), "the usual portion first")
        #expect(carrots.portions.map(\.grams) == [128, 3, 4, 7, 50, 61, 72, 110, 122])
        let egg = try #require(Self.catalog.first { $0.name == "Egg, whole, raw, fresh" })
        #expect(egg.portions.first?.grams == 50)
        #expect(FoodDataCentral.isCatalogId(carrots.catalogId))
        #expect(carrots.catalogId == FoodDataCentral.catalogId(.srLegacy, "Carrots, raw"), "the id follows from the name: stable across rebuilds")
    }

    @Test func anUnknownNutrientStaysUnknown() throws {
        let header = try FoodDataCentral.Header(["foodName", "data_type", "food_category", "portion_unit_name", "portion_gram_weight", "Energy", "Protein", "Sodium", "Iron"])
        let food = try #require(FoodDataCentral.food(["Mystery, raw", "sr_legacy_food", "", "", "", "50", "", "", "-3"], header: header))
        #expect(food.per100.energyKcal == 50)
        #expect(food.per100.protein == nil && food.per100[.sodium] == nil && food.per100.salt == nil)
        #expect(food.per100[.iron] == nil, "a negative value is not a value")
        #expect(food.portions.isEmpty && food.category == nil)
        #expect(FoodDataCentral.food(["Soda", "branded_food", "", "", "", "50", ""], header: header)?.source == .branded)
        #expect(FoodDataCentral.food(["x", "sub_sample_food", "", "", "", "50", ""], header: header) == nil)
        #expect(throws: FoodDataCentral.FormatError.self) { try FoodDataCentral.Header(["foodName", "Energy"]) }
    }

    @Test(arguments: [("undetermined", "128.0", "1 portion (128 g)"), ("", "12.5", "1 portion (12.5 g)"), ("cup", "240", "1 cup (240 g)"),
                      ("2 ONZ", "56.0", "2 oz (56 g)"), ("8 OZA", "240.0", "8 fl oz (240 g)"), ("1 WRAP", "77", "1 wrap (77 g)")])
    func portionsGetNamesAPersonUnderstands(unit: String, grams: String, name: String) {
        #expect(FoodDataCentral.portion(unit: unit, grams: grams)?.name == name)
    }

    @Test func portionsWithoutAPlausibleWeightAreLeftOut() {
        #expect(FoodDataCentral.portion(unit: "cup", grams: "") == nil)
        #expect(FoodDataCentral.portion(unit: "cup", grams: "0") == nil)
        #expect(FoodDataCentral.portion(unit: "cup", grams: "1e308") == nil)
        #expect(FoodDataCentral.portion(unit: "cup", grams: "nan") == nil)
    }

    @Test func csvRecordsReadQuotesCommasAndLineBreaks() {
        var records = CSVRecords(lines: ["a,\"b, c\",\"say \"\"hi\"\"\"", "\"two", "lines\",x", "last,"].makeIterator())
        #expect(records.next() == ["a", "b, c", "say \"hi\""])
        #expect(records.next() == ["two\nlines", "x"])
        #expect(records.next() == ["last", ""])
        #expect(records.next() == nil)
    }

    @Test func searchFindsWhatAPersonMeans() {
        #expect(top("carrot").contains("Carrots, raw"))
        #expect(top("carrots").contains("Carrots, raw"))
        #expect(top("raw carrots").first == "Carrots, raw", "words in any order")
        #expect(top("egg").contains("Egg, whole, raw, fresh"))
        #expect(top("banana").contains("Bananas, raw"))
        #expect(top("brocoli").contains { $0.hasPrefix("Broccoli") }, "one letter missing")
        #expect(top("bananna").contains("Bananas, raw"), "one letter extra")
        #expect(top("cArRoT").contains("Carrots, raw"))
        #expect(top("crème fraîche", 20).isEmpty || top("creme fraiche", 20) == top("crème fraîche", 20), "accents fold")
        #expect(top("zzzzqqq").isEmpty)
        #expect(top("").isEmpty && top("  ,; ").isEmpty)
    }

    @Test func searchPagesThroughEveryMatchOnce() {
        let total = Self.index.search("cheese", offset: 0, limit: 1).total
        #expect(total > 50)
        var seen: [String] = []
        var offset = 0
        while offset < total {
            seen += Self.index.search("cheese", offset: offset, limit: 7).ids
            offset += 7
        }
        #expect(seen.count == total && Set(seen).count == total)
        #expect(seen == Self.index.search("cheese", offset: 0, limit: total).ids, "pages agree with one long list")
        #expect(Self.index.search("cheese", offset: total, limit: 5).ids.isEmpty)
        #expect(Self.index.search("cheese", offset: Int.max - 1, limit: 5).ids.isEmpty)
    }

    @Test(arguments: [("brocoli", "broccoli", true), ("broccoli", "broccoli", true), ("borccoli", "broccoli", true), ("bxocoli", "broccoli", false),
                      ("abc", "abd", true), ("abc", "ab", true), ("abc", "cba", false)])
    func oneEditApart(a: String, b: String, expected: Bool) {
        #expect(CatalogSearch.withinOneEdit(Array(a.unicodeScalars), Array(b.unicodeScalars)) == expected)
    }
}
