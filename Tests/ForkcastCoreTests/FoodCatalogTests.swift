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

    @Test func everyCatalogueFoodIsTakenAsPublishedAndLogsItsUsualPortion() throws {
        let day = CalendarDate(year: 2026, month: 12, day: 1)!
        var refused: [String] = []
        for food in Self.catalog {
            do {
                let mine = try food.draft.validated(asPublished: true)
                let entry = try DiaryEntry.food(mine, quantity: mine.usualPortion.quantity, unit: mine.usualPortion.unit,
                                                loggedAt: Date(), date: day, mealType: "lunch")
                #expect(entry.nutrients.energyKcal == food.per100.energyKcal.map { $0 * (food.portions.first?.grams ?? 100) / 100 })
            } catch {
                refused.append("\(food.name): \(error)")
            }
        }
        #expect(refused.isEmpty, "\(refused.count) refused, e.g. \(refused.prefix(3))")
        // The source's own rounding, kept: typed in by a person, the same values are refused.
        let milk = try #require(Self.catalog.first { $0.name == "Milk, whole" })
        #expect(milk.per100.sugars! > milk.per100.carbohydrates!)
        #expect(throws: ValidationError.self) { try milk.draft.validated() }
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

    /// Common searches and the food a person means by each: the everyday raw or plain food first,
    /// not its oil, spread, powder or meatless stand-in ("almonds" once gave almond oil first).
    static let commonSearches: [(String, String)] = [
        ("almonds", "Almonds, NFS"),
        ("walnuts", "Nuts, walnuts, english"),
        ("milk", "Milk, NFS"),
        ("milk whole", "Milk, whole"),
        ("egg", "Egg, whole, raw, fresh"),
        ("eggs", "Egg, whole, raw, fresh"),
        ("apple", "Apple, raw"),
        ("banana", "Bananas, raw"),
        ("rice", "Rice, cooked, NFS"),
        ("oats", "Oats, raw"),
        ("butter", "Butter, NFS"),
        ("cheese", "Cheese, NFS"),
        ("carrots", "Carrots, raw"),
        ("potato", "Potato, NFS"),
        ("onion", "Onions, raw"),
        ("garlic", "Garlic, raw"),
        ("salmon", "Fish, salmon, NFS"),
        ("tuna", "Fish, tuna, raw"),
        ("beef", "Beef, NFS"),
        ("pork", "Pork, NFS"),
        ("yogurt", "Yogurt, NFS"),
        ("broccoli", "Broccoli, raw"),
        ("spinach", "Spinach, raw"),
        ("lettuce", "Lettuce, raw"),
        ("cucumber", "Cucumber, raw"),
        ("orange", "Orange, raw"),
        ("strawberries", "Strawberries, raw"),
        ("blueberries", "Blueberries, raw"),
        ("avocado", "Avocado, raw"),
        ("peanut butter", "Peanut butter"),
        ("pasta", "Pasta, cooked"),
        ("olive oil", "Olive oil"),
        ("sugar", "Sugars, granulated"),
        ("honey", "Honey"),
        ("lentils", "Lentils, raw"),
        ("chickpeas", "Chickpeas, NFS"),
        ("peas", "Peas, green, raw"),
        ("corn", "Corn, raw"),
        ("mushrooms", "Mushrooms, raw"),
        ("pepper", "Peppers, raw, NFS"),
        ("cod", "Fish, cod, NFS"),
        ("shrimp", "Shrimp, NFS"),
        ("coffee", "Coffee, brewed"),
        ("beer", "Beer"),
        ("wine", "Wine, red"),
        ("grapes", "Grapes, raw"),
        ("pear", "Pears, raw"),
        ("peach", "Peach, raw"),
        ("lemon", "Lemon, raw"),
        ("cabbage", "Cabbage, raw"),
        ("cashews", "Cashews, NFS"),
        ("hazelnuts", "Hazelnuts"),
        ("peanuts", "Peanuts, raw"),
        ("quinoa", "Quinoa, cooked"),
        ("turkey", "Turkey, NFS"),
        ("ham", "Ham"),
        ("sausage", "Sausage, NFS"),
        ("cream", "Cream, heavy"),
        ("water", "Water, NFS"),
        ("orange juice", "Orange juice, 100%, NFS"),
        ("chocolate", "Chocolate, dark, 60-69% cacao solids"),
        ("ice cream", "Ice cream, NFS"),
        ("chicken", "Chicken, ground, raw"),
    ]

    @Test func commonSearchesPutThePlainFoodFirst() {
        #expect(Self.commonSearches.count >= 40)
        let wrong = Self.commonSearches.compactMap { query, expected in top(query, 1).first == expected ? nil : "\(query) → \(top(query, 1))" }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(!top("almonds", 3).contains("Almond oil") && !top("walnuts", 3).contains("Walnut oil"))
        #expect(!top("chicken", 3).contains("Chicken spread") && !top("chicken", 3).contains("Chicken, meatless"))
        #expect(top("almond oil").first?.contains("lmond") == true && top("almond oil").first?.contains("il") == true, "asked for, the other form comes first")
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
