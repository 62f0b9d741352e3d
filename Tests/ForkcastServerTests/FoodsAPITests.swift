import Fluent
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

struct TestFood: Decodable {
    struct Per100: Decodable { var energyKcal: Double?; var protein: Double?; var carbohydrates: Double?; var fat: Double?; var salt: Double? }
    struct ServingT: Decodable { var size: Double; var unit: String; var label: String? }
    struct PriceT: Decodable { var amount: Double; var per: String; var packageSize: Double?; var currency: String }
    var id: UUID?; var name: String; var brand: String?; var barcode: String?; var basis: String; var per100: Per100
    var serving: ServingT?; var price: PriceT?; var icon: String; var source: String; var warnings: [String]
}
struct TestFoodPage: Decodable { var items: [TestFood]; var metadata: TestMealPage.Metadata }
struct TestLookup: Decodable { var origin: String; var food: TestFood }
struct TestMealWithNutrition: Decodable {
    struct PerServing: Decodable { var energyKcal: Double?; var protein: Double?; var carbohydrates: Double?; var fat: Double?; var price: Double? }
    struct IngredientT: Decodable { var foodId: UUID; var food: TestFood?; var quantity: Double; var unit: String }
    var id: UUID; var servings: Int; var ingredients: [IngredientT]; var perServing: PerServing
}

extension Client {
    func createFood(_ body: [String: Any]) async throws -> TestingHTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await send(.POST, "/api/v1/foods", raw: String(decoding: data, as: UTF8.self))
    }

    func sendJSON(_ method: HTTPMethod, _ path: String, _ body: [String: Any]) async throws -> TestingHTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await send(method, path, raw: String(decoding: data, as: UTF8.self))
    }
}

@Suite("Foods API")
struct FoodsAPITests {
    static var oats: [String: Any] { ["name": "Rolled oats", "brand": "Mill", "barcode": "737628064502",
                                      "per100": ["energyKcal": 372, "protein": 13, "carbohydrates": 60, "fat": 7, "fiber": 10],
                                      "serving": ["size": 40, "label": "1 bowl"],
                                      "price": ["amount": 2.4, "per": "package", "packageSize": 1000], "icon": "grain"] }

    @Test func createReadUpdateDeleteAFood() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let created = try await client.createFood(Self.oats)
            #expect(created.status == .created, "\(created.body.string)")
            let food = try created.json(TestFood.self)
            #expect(food.barcode == "0737628064502", "stored in its EAN-13 form")
            #expect(food.basis == "g" && food.source == "custom" && food.icon == "grain")
            #expect(food.serving?.size == 40 && food.serving?.unit == "g" && food.serving?.label == "1 bowl")
            #expect(food.price?.currency == "EUR")
            #expect(food.warnings.isEmpty)

            let id = try #require(food.id)
            #expect(try await client.get("/api/v1/foods/\(id)").json(TestFood.self).name == "Rolled oats")
            var edit = Self.oats
            edit["name"] = "Jumbo oats"
            let updated = try await client.sendJSON(.PUT, "/api/v1/foods/\(id)", edit)
            #expect(updated.status == .ok)
            #expect(try updated.json(TestFood.self).name == "Jumbo oats")
            #expect(try await client.send(.DELETE, "/api/v1/foods/\(id)").status == .noContent)
            #expect(try await client.get("/api/v1/foods/\(id)").status == .notFound)
        }
    }

    @Test func kilojoulesAreAcceptedOnInput() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let r = try await client.createFood(["name": "Cola", "basis": "ml", "per100": ["energyKj": 180, "carbohydrates": 10.6, "protein": 0, "fat": 0]])
            #expect(r.status == .created)
            let kcal = try #require(try r.json(TestFood.self).per100.energyKcal)
            #expect(abs(kcal - 180 / 4.184) < 0.0001)
        }
    }

    @Test func invalidFoodsAreRejectedWithEveryField() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let r = try await client.createFood(["name": " ", "barcode": "12ab", "per100": ["protein": -2, "fat": 120, "carbohydrates": 5, "sugars": 9],
                                                 "price": ["amount": 3, "per": "package"]])
            #expect(r.status == .unprocessableEntity)
            let problem = try #require(r.problem)
            for field in ["name", "barcode", "per100.protein", "per100.fat", "per100.sugars", "price.packageSize"] {
                #expect(problem.message(for: field) != nil, "\(field)")
            }
            let basis = try await client.createFood(["name": "X", "basis": "oz"])
            #expect(basis.problem?.message(for: "basis") != nil)
            let wrongType = try await client.send(.POST, "/api/v1/foods", raw: #"{"name": "X", "per100": {"protein": "lots"}}"#)
            #expect(wrongType.status == .unprocessableEntity)
            #expect(wrongType.problem?.errors?.first?.field == "per100.protein")
            #expect(try await client.get("/api/v1/foods").json(TestFoodPage.self).metadata.total == 0)
        }
    }

    @Test func energyThatDoesNotMatchTheMacrosIsFlagged() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let r = try await client.createFood(["name": "Mystery", "per100": ["energyKcal": 20, "protein": 20, "carbohydrates": 20, "fat": 20]])
            #expect(r.status == .created)
            #expect(try r.json(TestFood.self).warnings.count == 1)
        }
    }

    @Test func aBarcodeBelongsToOneFoodPerUser() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            #expect(try await alice.createFood(Self.oats).status == .created)
            var again = Self.oats
            again["barcode"] = "0737628064502"
            #expect(try await alice.createFood(again).status == .conflict)
            let bob = try await app.signUp("bob@example.com")
            #expect(try await bob.createFood(Self.oats).status == .created, "another user may have the same product")
        }
    }

    @Test func searchAsYouTypeIsLocalAndPaginated() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for name in ["Greek yogurt", "Yogurt drink", "Oat milk", "Whole milk", "100% rye bread"] {
                #expect(try await client.createFood(["name": name]).status == .created)
            }
            let milk = try await client.get("/api/v1/foods?q=MILK").json(TestFoodPage.self)
            #expect(milk.items.map(\.name) == ["Oat milk", "Whole milk"])
            #expect(try await client.get("/api/v1/foods?q=yog&per=1").json(TestFoodPage.self).metadata.total == 2)
            #expect(try await client.get("/api/v1/foods?q=100%25").json(TestFoodPage.self).items.map(\.name) == ["100% rye bread"])
            #expect(try await client.get("/api/v1/foods?q=o'brien").json(TestFoodPage.self).items.isEmpty, "quotes are safe")
        }
    }

    @Test func foodsAreIsolatedPerUser() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            let food = try await alice.createFood(Self.oats).json(TestFood.self)
            let id = try #require(food.id)
            #expect(try await bob.get("/api/v1/foods/\(id)").status == .notFound)
            #expect(try await bob.sendJSON(.PUT, "/api/v1/foods/\(id)", Self.oats).status == .notFound)
            #expect(try await bob.send(.DELETE, "/api/v1/foods/\(id)").status == .notFound)
            #expect(try await bob.get("/api/v1/foods").json(TestFoodPage.self).items.isEmpty)
            let meal = try await bob.sendJSON(.POST, "/api/v1/meals", ["description": "Stolen oats", "ingredients": [["foodId": id.uuidString, "quantity": 50, "unit": "g"]]])
            #expect(meal.status == .notFound, "another user's food is indistinguishable from a missing one")
            #expect(meal.problem?.message(for: "ingredients[0].foodId") != nil)
        }
    }

    @Test func mealsComputeNutritionAndPriceFromIngredients() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(Self.oats).json(TestFood.self).id)
            let milk = try #require(try await client.createFood(["name": "Milk", "basis": "ml",
                "per100": ["energyKcal": 64, "protein": 3.4, "carbohydrates": 4.8, "fat": 3.6],
                "serving": ["size": 250, "label": "1 glass"], "price": ["amount": 1, "per": "package", "packageSize": 1000]]).json(TestFood.self).id)
            let r = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Porridge", "servings": 2, "ingredients": [
                ["foodId": oats.uuidString, "quantity": 100, "unit": "g"], ["foodId": milk.uuidString, "quantity": 1.6, "unit": "serving"]]])
            #expect(r.status == .created, "\(r.body.string)")
            let meal = try r.json(TestMealWithNutrition.self)
            #expect(meal.servings == 2)
            #expect(meal.ingredients.map(\.unit) == ["g", "serving"])
            #expect(meal.ingredients[0].food?.name == "Rolled oats")
            #expect(meal.perServing.energyKcal == 314, "(372 + 4 × 64) / 2")
            #expect(meal.perServing.protein == 13.3)
            #expect(meal.perServing.price == 0.32, "(0.24 + 0.40) / 2")

            // The planner shows each day's totals and the window's.
            #expect(try await client.assign(meal.id, on: "2026-11-23").status == .created)
            #expect(try await client.assign(meal.id, on: "2026-11-23").status == .created)
            let plan = try await client.get("/api/v1/plan?start=2026-11-23&days=2")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: plan.body)) as? [String: Any])
            let days = try #require(json["days"] as? [[String: Any]])
            let monday = try #require(days[0]["totals"] as? [String: Any])
            #expect((monday["energyKcal"] as? Double) == 628)
            #expect((monday["price"] as? Double) == 0.64)
            #expect((days[1]["totals"] as? [String: Any])?["energyKcal"] is NSNull)
            #expect(((json["totals"] as? [String: Any])?["energyKcal"] as? Double) == 628)
            // A planned meal carries its servings and one serving's totals, not its ingredients' food records.
            let planned = try #require((days[0]["assignments"] as? [[String: Any]])?.first?["meal"] as? [String: Any])
            #expect(Set(planned.keys) == ["id", "description", "primaryProtein", "primaryCarb", "otherComponents", "createdAt", "updatedAt",
                                          "isPlanned", "servings", "perServing"])
            #expect((planned["perServing"] as? [String: Any])?["energyKcal"] as? Double == 314)
            #expect(planned["servings"] as? Int == 2 && planned["isPlanned"] as? Bool == true)

            // A food in use cannot be deleted out from under its meals.
            let delete = try await client.send(.DELETE, "/api/v1/foods/\(oats)")
            #expect(delete.status == .conflict)
            #expect(delete.problem?.detail.contains("Porridge") == true)
        }
    }

    @Test func mealsWithoutIngredientsCarryTypedNutrition() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let r = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Pizza night", "nutrition": ["energyKcal": 900, "protein": 35]])
            let meal = try r.json(TestMealWithNutrition.self)
            #expect(meal.perServing.energyKcal == 900 && meal.perServing.protein == 35 && meal.perServing.carbohydrates == nil)
            let bad = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "X", "servings": 0,
                                                                         "ingredients": [["foodId": UUID().uuidString, "quantity": 1, "unit": "cup"]]])
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.problem?.message(for: "ingredients[0].unit") != nil)
        }
    }

    @Test func ingredientsMustUseAUnitTheFoodHas() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let flour = try #require(try await client.createFood(["name": "Flour"]).json(TestFood.self).id)
            let r = try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Bread", "ingredients": [
                ["foodId": flour.uuidString, "quantity": 2, "unit": "serving"], ["foodId": flour.uuidString, "quantity": 200, "unit": "ml"]]])
            #expect(r.status == .unprocessableEntity)
            #expect(r.problem?.message(for: "ingredients[0].unit")?.contains("no serving size") == true)
            #expect(r.problem?.message(for: "ingredients[1].unit")?.contains("per 100 g") == true)
            #expect(try await client.meals().metadata.total == 0)
        }
    }
}
