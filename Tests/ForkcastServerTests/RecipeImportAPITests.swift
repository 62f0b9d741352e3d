@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/meals/import`: a draft from a real page, a JSON-LD file or text; nothing saved.
@Suite("Recipe import")
struct RecipeImportAPITests {
    static func page(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/recipes")
        return String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
    }

    @Test func aRealPageBecomesADraftWithItsLinesMatchedAndNothingIsSaved() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            // One of the person's foods matches first; the catalogue is asked for the rest.
            var garlic = FoodsAPITests.oats
            garlic["name"] = "Garlic"; garlic["barcode"] = nil; garlic["serving"] = ["size": 3, "label": "1 clove"]
            let garlicID = try #require(try await client.createFood(garlic).json(TestFood.self).id)
            let html = try Self.page("101cookbooks.com__onehundredonecookbooks_1.testhtml")
            let answer = try await client.sendJSON(.POST, "/api/v1/meals/import", ["html": html])
            #expect(answer.status == .ok, "\(answer.body.string.prefix(300))")
            let draft = try object(answer)
            let meal = try #require(draft["meal"] as? [String: Any])
            #expect(meal["description"] as? String == "Broccoli Soup with Coconut Milk" && meal["servings"] as? Int == 8)
            #expect((meal["steps"] as? [Any])?.count == 4 && meal["prepMinutes"] as? Int == 10 && meal["cookMinutes"] as? Int == 10)
            let lines = try #require(draft["lines"] as? [[String: Any]])
            #expect(lines.count == 9)
            let garlicLine = lines[1]
            #expect(garlicLine["quantity"] as? Double == 3 && garlicLine["unit"] as? String == "clove" && garlicLine["food"] as? String == "garlic")
            let match = try #require(garlicLine["match"] as? [String: Any])
            #expect(match["kind"] as? String == "food" && match["foodId"] as? String == garlicID.uuidString && match["unit"] as? String == "serving")
            #expect(lines.contains { ($0["match"] as? [String: Any])?["kind"] as? String == "catalog" }, "the catalogue matches others")
            #expect((draft["pageNutrition"] as? [String: Any])?["energyKcal"] as? Double == 143)
            #expect((draft["nutritionPerServing"] as? [String: Any])?["energyKcal"] is Double)
            // The draft's meal saves as it is.
            let saved = try await client.sendJSON(.POST, "/api/v1/meals", meal)
            #expect(saved.status == .created, "\(saved.body.string.prefix(300))")
            #expect((try object(saved)["ingredients"] as? [Any])?.count == 9)
        }
    }

    @Test func jsonLDAndTextAreReadToo() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let json = #"{"@context":"https://schema.org","@type":"Recipe","name":"Toast","recipeIngredient":["2 slices bread","1 tbsp butter"],"recipeInstructions":"Toast.\nButter."}"#
            let fromJSON = try object(try await client.sendJSON(.POST, "/api/v1/meals/import", ["jsonld": json]))
            #expect((fromJSON["meal"] as? [String: Any])?["description"] as? String == "Toast" && (fromJSON["lines"] as? [Any])?.count == 2)
            let fromText = try object(try await client.sendJSON(.POST, "/api/v1/meals/import", ["text": "Tea\nServes 1\n1 tea bag\n250 ml water\nSteep 4 minutes."]))
            #expect((fromText["meal"] as? [String: Any])?["description"] as? String == "Tea" && (fromText["lines"] as? [Any])?.count == 2)
            #expect((try object(try await client.get("/api/v1/meals"))["items"] as? [Any])?.isEmpty == true, "an import saves nothing")
        }
    }

    @Test func aRecipeGoesOutAsJSONLDAndComesBackIn() async throws {
        try await withForkcast(allowSignup: true) { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let id = try #require(try object(try await client.sendJSON(.POST, "/api/v1/meals", RecipesAPITests.recipe(oats: oats)))["id"] as? String)
            let file = try await client.get("/api/v1/meals/\(id)/recipe.jsonld")
            #expect(file.status == .ok && file.headers.contentType?.description.hasPrefix("application/ld+json") == true)
            #expect(file.headers.first(name: .contentDisposition) == "attachment; filename=\"porridge.jsonld\"")
            let document = try object(file)
            #expect(document["@type"] as? String == "Recipe" && document["prepTime"] as? String == "PT2M" && document["totalTime"] as? String == "PT10M")
            #expect(document["recipeIngredient"] as? [String] == ["1 cup Rolled oats (80 g)", "salt to taste", "20 g Rolled oats"])
            #expect(((document["nutrition"] as? [String: Any])?["calories"] as? String) == "186 kcal")
            // Into another library: the same recipe, its lines matched to that person's foods.
            let other = try await app.signUp("other@example.com")
            _ = try await other.createFood(FoodsAPITests.oats)
            let draft = try object(try await other.sendJSON(.POST, "/api/v1/meals/import", ["jsonld": file.body.string]))
            let meal = try #require(draft["meal"] as? [String: Any])
            #expect(meal["description"] as? String == "Porridge" && meal["servings"] as? Int == 2 && meal["cookMinutes"] as? Int == 8)
            #expect((meal["steps"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Bring the milk to a simmer.", "Stir in the oats; cook."])
            let kinds = (draft["lines"] as? [[String: Any]])?.map { ($0["match"] as? [String: Any])?["kind"] as? String }
            #expect(kinds == ["food", "catalog", "food"], "salt is in the catalogue; without an amount it stays text: \(String(describing: kinds))")
            #expect((draft["nutritionPerServing"] as? [String: Any])?["energyKcal"] as? Double == 186, "the same nutrition in the other library")
            let first = try #require((meal["ingredients"] as? [[String: Any]])?.first)
            #expect(first["quantity"] as? Double == 80 && first["writtenUnit"] as? String == "cup", "weighed as here, still in cups: \(first)")
            #expect(try await client.get("/api/v1/meals/\(UUID())/recipe.jsonld").status == .notFound)
        }
    }

    @Test func hostileImportsAreRefusedOrReadNeverRun() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            func send(_ body: [String: Any]) async throws -> TestingHTTPResponse { try await client.sendJSON(.POST, "/api/v1/meals/import", body) }
            #expect(try await send(["html": "<html><body>No recipe here</body></html>"]).status == .unprocessableEntity)
            #expect(try await send(["jsonld": "{\"@type\":\"Recipe\",\"name\":"]).status == .unprocessableEntity, "broken JSON-LD")
            #expect(try await send(["html": "<p>x</p>", "text": "Tea"]).status == .unprocessableEntity, "two sources at once")
            #expect(try await send([:]).status == .unprocessableEntity)
            let many = (1...10_000).map { "\"\($0) g flour\"" }.joined(separator: ",")
            let tooMany = try await send(["jsonld": "{\"@type\":\"Recipe\",\"name\":\"Big\",\"recipeIngredient\":[\(many)]}"])
            #expect(tooMany.status == .unprocessableEntity && tooMany.body.string.contains("10000 ingredient lines"), "\(tooMany.body.string.prefix(200))")
            let filler = String(repeating: "<p>filler</p>", count: 400_000)
            let big = try await send(["html": "<script type=\"application/ld+json\">{\"@type\":\"Recipe\",\"name\":\"Big page\",\"recipeIngredient\":[\"1 egg\"]}</script>" + filler])
            #expect(big.status == .ok, "a 5 MB page is read")
            let tooBig = try await client.send(.POST, "/api/v1/meals/import", json: ["html": String(repeating: "x", count: 13_000_000)], overTheNetwork: true)
            #expect(tooBig.status == .payloadTooLarge, "\(tooBig.status) \(tooBig.body.string.prefix(200))")
            let scripted = try object(try await send(["jsonld": #"{"@type":"Recipe","name":"<script>alert(1)<\/script>Cake","recipeIngredient":["<img src=x onerror=alert(2)>1 egg"],"recipeInstructions":[{"@type":"HowToStep","text":"Bake <b>now</b>","timerSeconds":1e308}]}"#]))
            let meal = try #require(scripted["meal"] as? [String: Any])
            #expect((meal["description"] as? String)?.contains("<") == false && (meal["steps"] as? [[String: Any]])?.first?["text"] as? String == "Bake now")
            let tens = (1...10).map { "{\"@type\":\"Recipe\",\"name\":\"Dish \($0)\"}" }.joined(separator: ",")
            #expect(try object(try await send(["jsonld": "[\(tens)]"]))["recipesFound"] as? Int == 10)
            #expect((try object(try await client.get("/api/v1/meals"))["items"] as? [Any])?.isEmpty == true)
        }
    }
}
