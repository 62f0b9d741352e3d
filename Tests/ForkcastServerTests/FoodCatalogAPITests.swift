import FluentKit
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import SQLKit
import Testing
import VaporTesting

/// The food catalogue and micronutrients through the API, on SQLite and (with the PostgreSQL
/// suite) PostgreSQL, from a fresh server with no network.
@Suite("Food catalogue and micronutrients API")
struct FoodCatalogAPITests {
    func search(_ client: Client, _ q: String, per: Int = 5) async throws -> ForkcastContract.Page<CatalogFoodAnswer> {
        let response = try await client.get("/api/v1/foods/catalog?q=\(q.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&per=\(per)")
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json(ForkcastContract.Page<CatalogFoodAnswer>.self)
    }

    func adopt(_ client: Client, _ catalogId: String) async throws -> TestingHTTPResponse {
        try await client.send(.POST, "/api/v1/foods/import", json: ["catalogId": catalogId])
    }

    @Test func carrotsFromTheCatalogueCountInTheDaysTotals() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let found = try await search(client, "carrot")
            let carrots = try #require(found.items.first { $0.name == "Carrots, raw" }, "“Carrots, raw” in the first five: \(found.items.map(\.name))")
            #expect(carrots.per100.energyKcal == 41 && carrots.per100[.vitaminA] == 835 && carrots.per100[.sodium] == 69)
            #expect(carrots.portions.first?.name == "1 portion (128 g)" && carrots.foodId == nil)
            #expect(carrots.source == CatalogSource.srLegacy && carrots.category == "Vegetables and Vegetable Products")

            let adopted = try await adopt(client, carrots.catalogId)
            #expect(adopted.status == .created, "\(adopted.body.string)")
            let food = try adopted.json(FoodAnswer.self)
            #expect(food.name == "Carrots, raw" && food.source == FoodSource.usda && food.catalogId == carrots.catalogId)
            #expect(food.serving?.size == 128 && food.serving?.label == "1 portion")
            let again = try await adopt(client, carrots.catalogId)
            #expect(again.status == .ok)
            #expect(try again.json(FoodAnswer.self).id == food.id, "importing it again answers the same food")
            #expect(try await search(client, "carrot").items.first { $0.catalogId == carrots.catalogId }?.foodId == food.id)

            let logged = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealType": "lunch", "foodId": try #require(food.id).uuidString, "quantity": 150, "unit": "g"])
            #expect(logged.status == .created, "\(logged.body.string)")
            let day = try await client.get("/api/v1/diary").json(DiaryDayAnswer.self)
            #expect(day.totals.energyKcal == Decimal(string: "61.5"))
            #expect(day.totals.carbohydrates == Decimal(string: "14.37"))
            #expect(day.totals[.fiber] == Decimal(string: "4.2"))
            #expect(day.totals[.vitaminA] == Decimal(string: "1252.5"))
            #expect(day.totals[.sodium] == Decimal(string: "103.5"))
            #expect(day.missing[.sodium] == 0 && day.missing[.vitaminB12] == 0)
            let entry = try #require(day.entries.flatMap(\.entries).first)
            #expect(entry.nutrients[.potassium] == 480, "an entry keeps every nutrient it was logged with (320 mg per 100 g)")
        }
    }

    @Test func searchFindsTypedWordsInAnyOrderAndPages() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            #expect(try await search(client, "brocoli").items.contains { $0.name.hasPrefix("Broccoli") })
            #expect(try await search(client, "raw carrots").items.first?.name == "Carrots, raw")
            #expect(try await search(client, "egg").items.contains { $0.name == "Egg, whole, raw, fresh" })
            #expect(try await search(client, "banana").items.contains { $0.name == "Bananas, raw" })
            let first = try await search(client, "cheese", per: 10)
            #expect(first.metadata.total > 50 && first.items.count == 10)
            let second = try await client.get("/api/v1/foods/catalog?q=cheese&per=10&page=2").json(ForkcastContract.Page<CatalogFoodAnswer>.self)
            #expect(Set(first.items.map(\.catalogId)).isDisjoint(with: second.items.map(\.catalogId)))
            let far = try await client.get("/api/v1/foods/catalog?q=cheese&page=100000")
            let farPage = try far.json(ForkcastContract.Page<CatalogFoodAnswer>.self)
            #expect(far.status == .ok && farPage.items.isEmpty)
            #expect(try await search(client, "zqxjvw").items.isEmpty)
            #expect(try await search(client, "\u{202E}carrot\u{0301}<script>\"'").metadata.total >= 0)
        }
    }

    @Test func badSearchesAndImportsAreProblemsThatChangeNothing() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for path in ["/api/v1/foods/catalog", "/api/v1/foods/catalog?q=", "/api/v1/foods/catalog?q=a", "/api/v1/foods/catalog?q=%20%20",
                         "/api/v1/foods/catalog?q=carrot&page=9223372036854775807", "/api/v1/foods/catalog?q=carrot&per=0",
                         "/api/v1/foods/catalog?q=carrot&per=-1", "/api/v1/foods/catalog?q=" + String(repeating: "x", count: 300)] {
                let r = try await client.get(path)
                #expect(r.status == .badRequest, "\(path): \(r.status)")
            }
            #expect(try await app.anonymous.get("/api/v1/foods/catalog?q=carrot").status == .unauthorized)
            for body in [#"{}"#, #"{"catalogId":"sr-123"}"#, #"{"catalogId":"SR-5F87100EBEC2D2D7"}"#, #"{"catalogId":""}"#,
                         #"{"catalogId":"sr-5f87100ebec2d2d7","barcode":"3017620422003"}"#, #"{"catalogId":12}"#] {
                let r = try await client.send(.POST, "/api/v1/foods/import", raw: body)
                #expect(r.status == .unprocessableEntity || r.status == .badRequest, "\(body): \(r.status) \(r.body.string)")
            }
            let unknown = try await adopt(client, "sr-0000000000000000")
            #expect(unknown.status == .notFound, "\(unknown.body.string)")
            let foods = try await client.get("/api/v1/foods").json(ForkcastContract.Page<FoodAnswer>.self)
            #expect(foods.metadata.total == 0)
        }
    }

    @Test func adoptingAtOnceMakesOneFoodAndTheCatalogueIsStoredOnce() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            let egg = try #require(try await search(alice, "egg").items.first { $0.name == "Egg, whole, raw, fresh" })
            let statuses = try await withThrowingTaskGroup(of: (HTTPStatus, UUID?).self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let r = try await adopt(alice, egg.catalogId)
                        return (r.status, try? r.json(FoodAnswer.self).id)
                    }
                }
                return try await group.reduce(into: [(HTTPStatus, UUID?)]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.allSatisfy { $0.0 == .created || $0.0 == .ok })
            #expect(Set(statuses.compactMap(\.1)).count == 1, "every answer is the one food")
            #expect(try await adopt(bob, egg.catalogId).status == .created, "each person gets their own copy on use")
            let sql = app.db as! any SQLDatabase
            let rows = try await sql.raw("SELECT COUNT(*) AS n FROM catalog_foods").first()?.decode(column: "n", as: Int.self)
            #expect(rows == 7349, "one catalogue for every account")
            let parts = try await CatalogPartModel.query(on: app.db).all()
            #expect(parts.map(\.part) == ["generic"] && parts.first?.complete == true)
            // A second load of the same version changes nothing.
            try await CatalogState.loadShipped(db: app.db, threadPool: CatalogState.threads, foods: app.dependencies.shippedCatalog)
            #expect(try await CatalogPartModel.query(on: app.db).all().map(\.updatedAt) == parts.map(\.updatedAt))
        }
    }

    /// The catalogue is not loaded inside a write (a synced device's shopping list looks up its
    /// aisles in the push's write). It was: the load joined that transaction, held every writer for
    /// its seconds, and rolled back with it while the server took the catalogue as loaded, so
    /// every later search and lookup found nothing until a restart. A search there builds an index of
    /// what is stored and does not keep it.
    @Test func theCataloguesFirstUseInsideAWriteThatRollsBackLeavesItToLoadAtTheNext() async throws {
        struct Refused: Error {}
        try await withForkcast { app in
            let foods = try await CatalogState.threads.runIfActive { try app.dependencies.shippedCatalog() }
            let egg = try #require(foods.first { $0.name == "Egg, whole, raw, fresh" })
            await #expect(throws: Refused.self) {
                try await app.db.write { tx in
                    // The catalogue a use case gets inside a write reads through the write (``Owner``).
                    let catalog = app.foodCatalog(on: tx)
                    #expect(try await catalog.find(egg.catalogId) == nil, "read as stored (nothing yet), not loaded in the write")
                    #expect(try await catalog.search("egg whole raw", page: try Paging(per: 5)).items.isEmpty, "searched as stored, the index not kept")
                    throw Refused()
                }
            }
            #expect(try await app.foodCatalog.find(egg.catalogId)?.name == egg.name, "loaded at the first use outside a write")
            let client = try await app.signUp()
            #expect(try await search(client, "egg whole raw").items.contains { $0.catalogId == egg.catalogId })
        }
    }

    /// A shopping list a synced device makes looks up its aisles in the catalogue inside the push's
    /// write. That read asked the pool for another connection, and on SQLite the one it got could be
    /// the one the write held (the pool of the event loop the push runs on): the push waited until
    /// the pool gave up (it did in each run here without the mend).
    @Test func aShoppingListFromASyncedDeviceTakesItsAislesFromTheCatalogue() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let carrots = try #require(try await search(client, "carrots raw").items.first { $0.name == "Carrots, raw" })
            let food = try await adopt(client, carrots.catalogId).json(FoodAnswer.self)
            let meal = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Carrot salad",
                "ingredients": [["foodId": try #require(food.id).uuidString, "quantity": 300, "unit": "g"]]])
            #expect(meal.status == .created, "\(meal.body.string)")
            let mealId = try meal.json(IDOnly.self).id
            #expect(try await client.assign(mealId, on: "2026-11-30").status == .created)
            let id = UUID()
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "phone", "mutations": [[
                "mutationId": "list", "kind": "shoppingList", "id": id.uuidString, "op": "upsert",
                "updatedAt": ISO8601DateFormatter().string(from: Date()), "record": ["from": "2026-11-30", "to": "2026-11-30"]]]])
            let pushed = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(pushed.status == .ok && pushed.body.string.contains("\"applied\""), "\(pushed.body.string)")
            let synced = try await client.get("/api/v1/shopping-lists/\(id)").json(ShoppingListAnswer.self)
            let made = try await client.sendJSON(.POST, "/api/v1/shopping-lists", ["from": "2026-11-30", "to": "2026-11-30"]).json(ShoppingListAnswer.self)
            let aisle = try #require(made.items.first { $0.foodId == food.id }?.category)
            #expect(synced.items.first { $0.foodId == food.id }?.category == aisle, "the aisle the catalogue gives, as through the API")
        }
    }

    @Test func nutrientsAreListedWithUnitsAndDailyValues() async throws {
        try await withForkcast { app in
            let list = try await app.anonymous.get("/api/v1/nutrients").json(NutrientList.self)
            #expect(list.items.map(\.key) == Nutrient.allCases.map(\.rawValue))
            let sodium = try #require(list.items.first { $0.key == "sodium" })
            #expect(sodium.unit == .known(.mg) && sodium.dailyValue == 2300 && sodium.direction == Nutrient.Direction.atMost)
            #expect(list.items.first { $0.key == "vitaminA" }?.unit == .known(.µg))
            #expect(list.items.first { $0.key == "energyKcal" }?.dailyValue == nil)
        }
    }

    @Test func foodsTypedInCarryMicronutrientsAndUnknownStaysUnknown() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let created = try await client.sendJSON(.POST, "/api/v1/foods", ["name": "Stock cube", "per100": ["energyKcal": 250, "sodium": 16000, "vitaminC": 1.5]])
            #expect(created.status == .created, "\(created.body.string)")
            let food = try created.json(FoodAnswer.self)
            #expect(food.per100[.sodium] == 16000 && food.per100.salt == 40, "salt follows from sodium")
            #expect(food.per100[.iron] == nil && food.per100.protein == nil, "unknown stays unknown")
            for (key, value) in [("iron", -1.0), ("vitaminA", 1e308), ("sodium", 100_001.0), ("fiber", 101.0)] {
                let r = try await client.sendJSON(.POST, "/api/v1/foods", ["name": "Bad", "per100": [key: value]])
                #expect(r.status == .unprocessableEntity, "\(key)=\(value): \(r.status)")
                #expect(r.body.string.contains("per100.\(key)"))
            }
            #expect(try await client.get("/api/v1/foods").json(ForkcastContract.Page<FoodAnswer>.self).metadata.total == 1)
            // Logged with a food that lacks a nutrient, the day says so.
            let logged = try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealType": "lunch", "foodId": try #require(food.id).uuidString, "quantity": 10, "unit": "g"])
            #expect(logged.status == .created)
            let day = try await client.get("/api/v1/diary").json(DiaryDayAnswer.self)
            #expect(day.totals[.sodium] == 1600 && day.totals[.iron] == nil)
            #expect(day.missing[.iron] == 1 && day.missing[.sodium] == 0)
        }
    }
}

@Suite("Nutrient targets, summaries and the export")
struct NutrientTargetsAPITests {
    func goals(_ client: Client) async throws -> GoalsAnswer { try await client.get("/api/v1/goals").json(GoalsAnswer.self) }

    @Test func targetsAreTheDailyValuesUntilChangedAndPutBackWithNull() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let initial = try await goals(client)
            #expect(initial.targets[.sodium] == 2300 && initial.targets[.fiber] == 28)
            let manual: [String: Any] = ["source": "manual", "energyKcal": 1800, "protein": 120, "carbohydrates": 60, "fat": 120]
            var body = manual
            body["targets"] = ["sodium": 1500, "fiber": 35]
            let saved = try await client.sendJSON(.PUT, "/api/v1/goals", body)
            #expect(saved.status == .ok, "\(saved.body.string)")
            var now = try await goals(client)
            #expect(now.targets[.sodium] == 1500 && now.targets[.fiber] == 35 && now.targets[.iron] == 18 && now.energyKcal == 1800)
            // Goals saved without targets keep them; computed or manual alike.
            #expect(try await client.sendJSON(.PUT, "/api/v1/goals", manual).status == .ok)
            #expect(try await goals(client).targets[.sodium] == 1500)
            body["targets"] = ["sodium": NSNull()]
            #expect(try await client.sendJSON(.PUT, "/api/v1/goals", body).status == .ok)
            now = try await goals(client)
            #expect(now.targets[.sodium] == 2300 && now.targets[.fiber] == 35)
            for bad in [["iron": -1], ["vitaminD": 1e308], ["sodium": "lots"]] as [[String: Any]] {
                body["targets"] = bad
                let r = try await client.sendJSON(.PUT, "/api/v1/goals", body)
                #expect(r.status == .unprocessableEntity || r.status == .badRequest, "\(bad): \(r.status)")
            }
            #expect(try await goals(client).targets == now.targets, "a refused change changes nothing")
            // The day's goals carry them too.
            let day = try await client.get("/api/v1/diary").json(DiaryDayAnswer.self)
            #expect(day.goals.targets[.fiber] == 35)
        }
    }

    @Test func summariesAndTheExportCarryEveryNutrient() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let food = try await client.sendJSON(.POST, "/api/v1/foods", ["name": "Lentils (cooked)", "per100": ["energyKcal": 116, "iron": 3.3, "fiber": 7.9]])
                .json(FoodAnswer.self)
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries",
                                              ["mealType": "dinner", "foodId": try #require(food.id).uuidString, "quantity": 200, "unit": "g"]).status == .created)
            #expect(try await client.sendJSON(.POST, "/api/v1/diary/entries", ["mealType": "dinner", "quickAdd": ["energyKcal": 100], "name": "Bread"]).status == .created)
            let today = try await client.get("/api/v1/diary").json(DiaryDayAnswer.self).date
            let summary = try await client.get("/api/v1/diary/summary?from=\(today.iso)&to=\(today.iso)")
            #expect(summary.status == .ok, "\(summary.body.string)")
            let text = summary.body.string
            #expect(text.contains("\"iron\":6.6") && text.contains("\"fiber\":15.8"), "\(text)")
            let csv = try await client.get("/api/v1/diary/export?from=\(today.iso)&to=\(today.iso)&format=csv").body.string
            let lines = csv.split(separator: "\r\n").map(String.init)
            let header = lines[0].split(separator: ",").map(String.init)
            #expect(Array(header.prefix(13)) == ["date", "loggedAt", "mealType", "name", "kind", "quantity", "unit", "energyKcal", "protein", "carbohydrates", "fat", "cost", "note"])
            let iron = try #require(header.firstIndex(of: "iron"))
            let lentils = try #require(lines.first { $0.contains("Lentils") }).split(separator: ",", omittingEmptySubsequences: false)
            #expect(lentils[iron] == "6.6", "\(lines)")
        }
    }
}
