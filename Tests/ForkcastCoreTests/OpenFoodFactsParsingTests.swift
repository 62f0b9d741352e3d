import ForkcastCore
import Foundation
import Testing

/// The real Open Food Facts answers in shared/fixtures/openfoodfacts, read as they are.
@Suite("Open Food Facts answers")
struct OpenFoodFactsParsingTests {
    func product(_ file: String) throws -> FoodDraft {
        guard case .found(let draft) = try OpenFoodFactsProduct.parseProduct(try Fixtures.data("openfoodfacts/" + file)) else {
            Issue.record("\(file) was not found")
            throw CancellationError()
        }
        return draft
    }

    /// A product as published that breaks a rule is imported without the values that break it.
    @Test func aProductThatBreaksARuleIsImportedWithoutTheValuesThatDo() throws {
        let published = FoodDraft(name: "  ", barcode: "737628064502", per100: Nutrients(energyKcal: 40, carbohydrates: Decimal(string: "4.6"),
                                                                                       sugars: Decimal(string: "4.8")), icon: .grain)
        #expect(throws: ValidationError.self) { try published.validated() }
        let imported = published.importable(barcode: Barcode("737628064502"))
        #expect(imported.name == "Product 0737628064502" && imported.icon == .generic, "\(imported.name)")
        #expect(imported.per100.sugars == nil && imported.per100.carbohydrates == Decimal(string: "4.6") && imported.per100.energyKcal == 40)
        #expect(throws: Never.self) { try imported.validated() }
    }

    /// The pack size a scan into the pantry stocks: the label's quantity, in the food's unit.
    @Test func aPackSizeIsReadFromTheLabelInTheFoodsUnit() throws {
        let kit = try Fixtures.data("openfoodfacts/v0_product_0737628064502_thai_noodle_kit_serving_size.json")
        #expect(OpenFoodFactsProduct.packSize(kit, basis: .gram) == 155, "quantity \"155 g\"")
        #expect(OpenFoodFactsProduct.packSize(kit, basis: .milliliter) == nil, "grams are no millilitres")
        let fanta = try Fixtures.data("openfoodfacts/v0_product_5449000011527_fanta_kj_only.json")
        #expect(OpenFoodFactsProduct.packSize(fanta, basis: .milliliter) == 330, "quantity \"33 cl\"")
        #expect(OpenFoodFactsProduct.packSize(try Fixtures.data("openfoodfacts/v2_product_0200000000034_fields_nutriments_kj_only.json"), basis: .gram) == nil)
        func label(_ quantity: String, _ extra: String = "") -> Data { Data(#"{"status":1,"product":{"quantity":"\#(quantity)"\#(extra)}}"#.utf8) }
        #expect(OpenFoodFactsProduct.packSize(label("6 x 125 g"), basis: .gram) == 750)
        #expect(OpenFoodFactsProduct.packSize(label("1,5 L"), basis: .milliliter) == 1500)
        #expect(OpenFoodFactsProduct.packSize(label("1 kg e"), basis: .gram) == 1000)
        #expect(OpenFoodFactsProduct.packSize(label("une boîte", #","product_quantity":"400""#), basis: .gram) == 400)
        #expect(OpenFoodFactsProduct.packSize(label("99999999 kg"), basis: .gram) == nil, "beyond what a lot may hold")
        #expect(OpenFoodFactsProduct.packSize(Data("[1,".utf8), basis: .gram) == nil)
    }

    @Test func thaiNoodleKitWithAnOddServingSize() throws {
        let draft = try product("v0_product_0737628064502_thai_noodle_kit_serving_size.json")
        #expect(draft.barcode == "0737628064502")
        #expect(draft.name.hasPrefix("Thai peanut noodle kit"))
        #expect(draft.brand == "Thai Kitchen")
        #expect(draft.basis == .gram)
        #expect(draft.per100.energyKcal == 385)
        #expect(draft.per100.protein == Decimal(string: "9.62"))
        #expect(draft.per100.salt == Decimal(string: "0.72"), "the _100g value is grams although salt_unit says mg")
        #expect(draft.serving == Serving(size: 52, unit: .gram, label: "0.333 PACKAGE"))
        #expect(throws: Never.self) { try draft.validated() }
        // Minerals and vitamins, given in grams per 100 g, in their own units.
        #expect(draft.per100[.sodium] == 288 && draft.per100[.calcium] == 38)
        #expect(draft.per100[.iron] == Decimal(string: "0.69"))
        #expect(draft.per100[.vitaminA] == Decimal(string: "115.5") && draft.per100[.vitaminC] == 0)
        #expect(draft.per100[.potassium] == nil, "not on the product: unknown, not 0")
        #expect(draft.per100.fiber == Decimal(string: "1.9") && draft.per100[.cholesterol] == 0)
    }

    @Test func fantaWithNumbersAsStringsAndEnergyOnlyInKilojoules() throws {
        let draft = try product("v0_product_5449000011527_fanta_kj_only.json")
        #expect(draft.name == "Fanta Orange")
        #expect(draft.basis == .milliliter)
        #expect(draft.per100.energyKcal == Decimal(string: "27"), "113 kJ = 27.0 kcal")
        #expect(draft.per100.carbohydrates == Decimal(string: "6.5"))
        #expect(draft.per100.protein == 0)
        #expect(draft.serving == Serving(size: 330, unit: .milliliter, label: "une boîte"))
    }

    @Test func v2NutrimentsInKilojoules() throws {
        let draft = try product("v2_product_0200000000034_fields_nutriments_kj_only.json")
        #expect(draft.barcode == "0200000000034")
        #expect(draft.per100.energyKcal == Decimal(string: "95.6"))
        #expect(draft.per100.fat == Decimal(string: "8.5"))
        #expect(draft.per100.saturatedFat == Decimal(string: "5.6"))
        #expect(draft.name.isEmpty, "fields=nutriments carries no name")
    }

    @Test func emptyNutrimentsAreUnknownNotZero() throws {
        let draft = try product("v2_product_0200000000034_fields_specific_empty_nutriments.json")
        #expect(draft.name == "Some product")
        #expect(draft.per100 == Nutrients())
        #expect(draft.serving == nil)
    }

    @Test func notFoundIsStatusZero() throws {
        #expect(try OpenFoodFactsProduct.parseProduct(try Fixtures.data("openfoodfacts/v2_product_12345678_not_found.json")) == .notFound)
    }

    @Test func brokenAnswersAreErrors() {
        #expect(throws: OpenFoodFactsProduct.ParseError.self) { try OpenFoodFactsProduct.parseProduct(Data("<html>".utf8)) }
        #expect(throws: OpenFoodFactsProduct.ParseError.self) { try OpenFoodFactsProduct.parseSearch(Data("{\"count\":1}".utf8)) }
    }

    @Test func searchResults() throws {
        let fanta = try OpenFoodFactsProduct.parseSearch(try Fixtures.data("openfoodfacts/search_cgi_fanta_no_nutriments.json"))
        #expect(!fanta.isEmpty)
        #expect(fanta[0].name == "Fanta Orange")
        #expect(fanta[0].barcode == "57045443")
        #expect(fanta[0].per100 == Nutrients())
        #expect(fanta[0].basis == .milliliter, "quantity 500ml")
        let v2 = try OpenFoodFactsProduct.parseSearch(try Fixtures.data("openfoodfacts/v2_search_specific_barcodes.json"))
        #expect(v2.map(\.barcode) == ["0200000000034", "0200000000038", "0200000000039"])
        let unnamed = try OpenFoodFactsProduct.parseSearch(try Fixtures.data("openfoodfacts/v2_search_php_client_fixture.json"))
        #expect(unnamed.isEmpty, "products without a name are skipped")
    }

    @Test func servingTexts() {
        #expect(OpenFoodFactsProduct.parseServing("0.333 PACKAGE (52 g)", basis: .gram) == Serving(size: 52, unit: .gram, label: "0.333 PACKAGE"))
        #expect(OpenFoodFactsProduct.parseServing("330 ml (une boîte)", basis: .milliliter) == Serving(size: 330, unit: .milliliter, label: "une boîte"))
        #expect(OpenFoodFactsProduct.parseServing("25cl", basis: .milliliter)?.size == 250)
        #expect(OpenFoodFactsProduct.parseServing("1,5 g", basis: .gram)?.size == Decimal(string: "1.5"))
        #expect(OpenFoodFactsProduct.parseServing("", basis: .gram) == nil)
        #expect(OpenFoodFactsProduct.parseServing("1 biscuit", basis: .gram) == nil)
    }
}
