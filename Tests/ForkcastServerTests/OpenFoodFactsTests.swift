import Fluent
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// The Open Food Facts client and lookups against a local fake that serves the real fixtures and
/// misbehaves on demand. Nothing here reaches the internet.
@Suite("Open Food Facts")
struct OpenFoodFactsTests {
    /// `timeout`: how long an answer is waited for. Long by default: the tests share two event
    /// loops with every other test running meanwhile (as requests share them in production), and an
    /// answer that comes late is not what they test. The slow answer's test waits less than it takes.
    func withFake(productsPerMinute: Int = 100, timeout: Double = 15, _ body: (Application, FakeOpenFoodFacts, Client) async throws -> Void) async throws {
        let fake = try await FakeOpenFoodFacts.start()
        do {
            try await withForkcast(openFoodFactsURL: fake.baseURL, productsPerMinute: productsPerMinute, adjust: { $0.openFoodFactsTimeout = timeout }) { app in
                try await body(app, fake, try await app.signUp())
            }
        } catch {
            try await fake.stop()
            throw error
        }
        try await fake.stop()
    }

    @Test func aBarcodeIsLookedUpOnceWithOurUserAgentAndFieldsThenCached() async throws {
        try await withFake { app, fake, client in
            let first = try await client.get("/api/v1/foods/barcode/737628064502")
            #expect(first.status == .ok, "\(first.body.string)")
            let lookup = try first.json(TestLookup.self)
            #expect(lookup.origin == "openfoodfacts")
            #expect(lookup.food.id == nil, "not saved until imported")
            #expect(lookup.food.per100.energyKcal == 385)
            #expect(lookup.food.serving?.size == 52)
            let second = try await client.get("/api/v1/foods/barcode/0737628064502")
            #expect(try second.json(TestLookup.self).food.name == lookup.food.name)
            #expect(fake.count("/api/v2/product/") == 1, "the second lookup came from the cache")
            #expect(fake.userAgents.allSatisfy { $0 == "Forkcast/\(forkcastVersion) (tests@forkcast.invalid)" })
            #expect(try await OpenFoodFactsCacheModel.query(on: app.db).count() == 1)
        }
    }

    @Test func fieldsAreRequestedExplicitly() async throws {
        try await withFake { _, fake, client in
            _ = try await client.get("/api/v1/foods/barcode/5449000011527")
            #expect(fake.count("fields=code,product_name") == 1)
        }
    }

    @Test func importingMakesAnEditableLocalFood() async throws {
        try await withFake { _, fake, client in
            let imported = try await client.sendJSON(.POST, "/api/v1/foods/import", ["barcode": "5449000011527"])
            #expect(imported.status == .created, "\(imported.body.string)")
            let food = try imported.json(TestFood.self)
            #expect(food.source == "openfoodfacts" && food.basis == "ml" && food.per100.energyKcal == 27)
            let id = try #require(food.id)
            let local = try await client.get("/api/v1/foods/barcode/5449000011527").json(TestLookup.self)
            #expect(local.origin == "local" && local.food.id == id)
            let again = try await client.sendJSON(.POST, "/api/v1/foods/import", ["barcode": "5449000011527"])
            #expect(again.status == .ok, "already imported: the existing food")
            var edit = try JSONSerialization.jsonObject(with: Data(buffer: imported.body)) as! [String: Any]
            edit["name"] = "Fanta (can)"
            edit.removeValue(forKey: "price")
            let edited = try await client.sendJSON(.PUT, "/api/v1/foods/\(id)", edit)
            #expect(edited.status == .ok, "\(edited.body.string)")
            #expect(try edited.json(TestFood.self).name == "Fanta (can)")
            #expect(fake.count("/api/v2/product/") == 1)
        }
    }

    /// A scanned pack goes into the pantry with the pack size on its label; the product becomes a
    /// food of the household once.
    @Test func aScannedPackIsStockedWithItsLabelsPackSize() async throws {
        try await withFake { app, fake, client in
            struct Lot: Decodable { var foodId: UUID; var food: String; var amount: Decimal; var unit: String; var location: String }
            let kit = try await client.sendJSON(.POST, "/api/v1/pantry/barcode", ["barcode": "0737628064502", "location": "fridge"])
            #expect(kit.status == .created, "\(kit.body.string)")
            let first = try kit.json(Lot.self)
            #expect(first.amount == 155 && first.unit == "g" && first.location == "Fridge" && first.food.hasPrefix("Thai peanut noodle kit"))
            // Two servings of the same product: its 52 g serving, the same food.
            let two = try await client.sendJSON(.POST, "/api/v1/pantry/barcode", ["barcode": "737628064502", "amount": 2, "unit": "serving"]).json(Lot.self)
            #expect(two.amount == 104 && two.foodId == first.foodId)
            let can = try await client.sendJSON(.POST, "/api/v1/pantry/barcode", ["barcode": "5449000011527"]).json(Lot.self)
            #expect(can.amount == 330 && can.unit == "ml", "33 cl")
            #expect(fake.count("/api/v2/product/") == 2, "each product fetched once")
            // Refused before anything is imported: no barcode, a bad place, a negative amount; and a product nobody knows.
            for (body, status) in [(["barcode": "12ab"], 422), (["barcode": "12345678"], 404), (["barcode": "3017620422003", "location": String(repeating: "x", count: 41)], 422),
                                   (["barcode": "3017620422003", "amount": -1], 422)] as [([String: Any], Int)] {
                let refused = try await client.sendJSON(.POST, "/api/v1/pantry/barcode", body)
                #expect(Int(refused.status.code) == status, "\(body): \(refused.body.string)")
            }
            let foods = try await client.get("/api/v1/foods").json(Page.self)
            #expect(foods.metadata.total == 2, "the kit and the can, nothing else")
            // The page's form: a blank amount is the pack.
            var browser = Browser(app: app)
            _ = try await browser.signIn("owner@example.com")
            let token = try await browser.csrf(from: "/pantry")
            let added = try await browser.send(.POST, "/pantry/barcode", form: ["_csrf": token, "barcode": "5449000011527", "amount": "", "location": "Cellar"])
            #expect(added.status == .seeOther)
            #expect(try await browser.send(.GET, "/pantry").body.string.contains("Cellar"))
            let unknown = try await browser.send(.POST, "/pantry/barcode", form: ["_csrf": token, "barcode": "12345678"])
            #expect(unknown.status == .notFound && unknown.body.string.contains("role=\"alert\""))
        }
    }
    struct Page: Decodable { struct Metadata: Decodable { var total: Int }; var metadata: Metadata }

    @Test func unknownProductsAreNotFoundAndRemembered() async throws {
        try await withFake { _, fake, client in
            let r = try await client.get("/api/v1/foods/barcode/12345678")
            #expect(r.status == .notFound)
            #expect(try await client.get("/api/v1/foods/barcode/12345678").status == .notFound)
            #expect(fake.count("/api/v2/product/") == 1)
            #expect(try await client.get("/api/v1/foods/barcode/12ab").status == .badRequest)
            #expect(try await client.sendJSON(.POST, "/api/v1/foods/import", ["barcode": "12345678"]).status == .notFound)
        }
    }

    @Test func throttlingIsRetriedWithBackoffThenReported() async throws {
        try await withFake { _, fake, client in
            let r = try await client.get("/api/v1/foods/barcode/\(FakeOpenFoodFacts.Code.throttled)")
            #expect(r.status == .serviceUnavailable)
            #expect(r.problem?.type.hasSuffix("openfoodfacts-unavailable") == true)
            #expect(r.headers.first(name: .retryAfter) != nil)
            #expect(fake.count(FakeOpenFoodFacts.Code.throttled) == 3, "one try and two retries")
        }
    }

    @Test func a503IsRetriedAndTheLookupSucceeds() async throws {
        try await withFake { _, fake, client in
            fake.unavailableCount = 2
            let r = try await client.get("/api/v1/foods/barcode/\(FakeOpenFoodFacts.Code.flaky)")
            #expect(r.status == .ok, "\(r.body.string)")
            #expect(fake.count(FakeOpenFoodFacts.Code.flaky) == 3)
        }
    }

    @Test func slowBadAndCutAnswersAreUnavailableNeverA500() async throws {
        try await withFake(timeout: 1) { _, _, client in
            for code in [FakeOpenFoodFacts.Code.slow, FakeOpenFoodFacts.Code.badJSON, FakeOpenFoodFacts.Code.cut] {
                let r = try await client.get("/api/v1/foods/barcode/\(code)")
                #expect(r.status == .serviceUnavailable, "\(code): \(r.body.string)")
                #expect(r.problem?.detail.contains("Open Food Facts") == true)
            }
        }
    }

    @Test func offlineLookupsStillFindLocalFoods() async throws {
        try await withForkcast(openFoodFactsURL: "http://127.0.0.1:1") { app in
            let client = try await app.signUp()
            #expect(try await client.createFood(FoodsAPITests.oats).status == .created)
            let local = try await client.get("/api/v1/foods/barcode/737628064502")
            #expect(local.status == .ok)
            #expect(try local.json(TestLookup.self).origin == "local")
            let remote = try await client.get("/api/v1/foods/barcode/5449000011527")
            #expect(remote.status == .serviceUnavailable)
            #expect(remote.problem?.detail.contains("cannot be reached") == true)
            #expect(try await client.get("/api/v1/foods?q=oats").status == .ok)
            let search = try await client.get("/api/v1/foods/search/openfoodfacts?q=fanta")
            #expect(search.status == .serviceUnavailable)
        }
    }

    @Test func ourOwnRateLimitStaysBelowTheirs() async throws {
        try await withFake(productsPerMinute: 2) { _, fake, client in
            #expect(try await client.get("/api/v1/foods/barcode/5449000011527").status == .ok)
            #expect(try await client.get("/api/v1/foods/barcode/0200000000034").status == .ok)
            let third = try await client.get("/api/v1/foods/barcode/737628064502")
            #expect(third.status == .serviceUnavailable)
            #expect(Int(third.headers.first(name: .retryAfter) ?? "") ?? 0 > 0)
            #expect(fake.count("/api/v2/product/") == 2, "the third lookup never left Forkcast")
            #expect(try await client.get("/api/v1/foods/barcode/5449000011527").status == .ok, "cached answers need no request")
        }
    }

    @Test func nameSearchIsAnExplicitAction() async throws {
        try await withFake { _, fake, client in
            let r = try await client.get("/api/v1/foods/search/openfoodfacts?q=fanta")
            #expect(r.status == .ok, "\(r.body.string)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [String: Any])
            let items = try #require(json["items"] as? [[String: Any]])
            #expect(items.first?["name"] as? String == "Fanta Orange")
            #expect(try await client.get("/api/v1/foods/search/openfoodfacts?q=f").status == .badRequest)
            #expect(try await client.get("/api/v1/foods/search/openfoodfacts?q=busy").status == .serviceUnavailable)
            #expect(fake.count("search.pl") == 1 + 3)
        }
    }
}
