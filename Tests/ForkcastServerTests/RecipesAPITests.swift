@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Meals you cook from: steps, times, source, notes and lines kept as written, scaled on request,
/// imported from pages without saving, and kept through the web form.
@Suite("Recipes")
struct RecipesAPITests {
    static func recipe(oats: UUID) -> [String: Any] {
        ["description": "Porridge", "servings": 2,
         "ingredients": [["foodId": oats.uuidString, "quantity": 80, "unit": "g", "writtenUnit": "cup", "writtenUnitSize": 80], ["text": "salt to taste"],
                         ["foodId": oats.uuidString, "quantity": 20, "unit": "g"]],
         "steps": [["text": "Bring the milk to a simmer."], ["text": "Stir in the oats; cook.", "timerSeconds": 300]],
         "prepMinutes": 2, "cookMinutes": 8, "source": "Grandma's notebook, p. 12", "notes": "Top with <fruit> & \"honey\"."]
    }

    @Test func aMealCarriesItsRecipeAndScalesOnRequest() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let created = try await client.sendJSON(.POST, "/api/v1/meals", Self.recipe(oats: oats))
            #expect(created.status == .created, "\(created.body.string)")
            let meal = try object(created)
            let lines = try #require(meal["ingredients"] as? [[String: Any]])
            #expect(lines.count == 3 && lines[1]["text"] as? String == "salt to taste" && lines[1]["foodId"] is NSNull)
            #expect(lines[0]["quantity"] as? Double == 80 && lines[2]["quantity"] as? Double == 20, "the order is kept")
            #expect(lines[0]["writtenUnit"] as? String == "cup" && lines[0]["writtenUnitSize"] as? Double == 80)
            #expect(lines[2]["writtenUnit"] is NSNull && lines[2]["writtenUnitSize"] is NSNull)
            let steps = try #require(meal["steps"] as? [[String: Any]])
            #expect(steps.map { $0["text"] as? String } == ["Bring the milk to a simmer.", "Stir in the oats; cook."])
            #expect(steps[0]["timerSeconds"] is NSNull && steps[1]["timerSeconds"] as? Int == 300)
            #expect(meal["prepMinutes"] as? Int == 2 && meal["cookMinutes"] as? Int == 8 && meal["notes"] as? String == "Top with <fruit> & \"honey\".")
            #expect((meal["perServing"] as? [String: Any])?["energyKcal"] as? Double == 186, "the text line is left out of the totals: 100 g of oats / 2")

            let id = try #require(meal["id"] as? String)
            let scaled = try object(try await client.get("/api/v1/meals/\(id)?servings=3"))
            let scaledLines = try #require(scaled["ingredients"] as? [[String: Any]])
            #expect(scaledLines[0]["quantity"] as? Double == 120 && scaledLines[2]["quantity"] as? Double == 30)
            #expect(scaled["servings"] as? Int == 3 && scaled["recipeServings"] as? Int == 2)
            #expect(scaledLines[0]["writtenUnitSize"] as? Double == 80, "a cup is still 80 g of oats")
            // Read back in the cook's unit: the document, the recipe page, scaled.
            let document = try await client.get("/api/v1/meals/\(id)/recipe.jsonld").body.string
            #expect(document.contains("\"1 cup Rolled oats") && document.contains("\"20 g Rolled oats"), "\(document.prefix(600))")
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let page = try await browser.send(.GET, "/meals/\(id)/recipe?servings=3").body.string
            #expect(page.contains("1½ cups") && page.contains("30 g"), "\(page.prefix(200))")
            #expect(try object(try await client.get("/api/v1/meals/\(id)"))["recipeServings"] is NSNull)
            for bad in ["0", "101", "1.5", "1e308", "x"] {
                #expect(try await client.get("/api/v1/meals/\(id)?servings=\(bad)").status == .badRequest, "servings=\(bad)")
            }
            // A PUT replaces every field: without steps the recipe has none.
            var plain = Self.recipe(oats: oats)
            plain["steps"] = nil
            let replaced = try object(try await client.sendJSON(.PUT, "/api/v1/meals/\(id)", plain))
            #expect((replaced["steps"] as? [Any])?.isEmpty == true && replaced["source"] as? String == "Grandma's notebook, p. 12")
            // A PUT answers scaled like a GET, within the same bounds.
            let putScaled = try object(try await client.sendJSON(.PUT, "/api/v1/meals/\(id)?servings=4", plain))
            #expect(putScaled["servings"] as? Int == 4 && putScaled["recipeServings"] as? Int == 2)
            #expect(try await client.sendJSON(.PUT, "/api/v1/meals/\(id)?servings=-1790936726577694638080", plain).status == .badRequest)
        }
    }

    @Test func badRecipeFieldsAreRefusedNamingTheFieldAndSaveNothing() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let cases: [(String, Any, String)] = [
                ("steps", [["text": "Wait.", "timerSeconds": 1.5]], "steps[0].timerSeconds"),
                ("steps", [["text": "Wait.", "timerSeconds": 0]], "steps[0].timerSeconds"),
                ("steps", [["text": "Wait.", "timerSeconds": 999_999_999]], "steps[0].timerSeconds"),
                ("steps", [["text": String(repeating: "é", count: 2001)]], "steps[0].text"),
                ("steps", Array(repeating: ["text": "Stir."], count: 101), "steps"),
                ("prepMinutes", -5, "prepMinutes"),
                ("cookMinutes", 1e9, "cookMinutes"),
                ("source", String(repeating: "x", count: 501), "source"),
                ("ingredients", [["text": "salt", "foodId": oats.uuidString, "quantity": 1, "unit": "g"]], "ingredients[0]"),
                ("ingredients", [["text": String(repeating: "x", count: 501)]], "ingredients[0].text"),
                ("ingredients", Array(repeating: ["text": "salt"], count: 101), "ingredients"),
                ("ingredients", [["foodId": oats.uuidString, "quantity": 1, "unit": "g", "writtenUnit": "bucket", "writtenUnitSize": 5]], "ingredients[0].writtenUnitSize"),
                ("ingredients", [["foodId": oats.uuidString, "quantity": 1, "unit": "g", "writtenUnit": "cup", "writtenUnitSize": 1e308]], "ingredients[0].writtenUnitSize"),
                ("ingredients", [["foodId": oats.uuidString, "quantity": 1, "unit": "g", "writtenUnit": "cup"]], "ingredients[0].writtenUnitSize"),
                ("ingredients", [["foodId": oats.uuidString, "quantity": 1, "unit": "g", "writtenUnitSize": -2]], "ingredients[0].writtenUnitSize"),
                ("ingredients", [["text": "salt", "writtenUnitSize": 5]], "ingredients[0]"),
            ]
            for (field, value, named) in cases {
                var body = Self.recipe(oats: oats)
                body[field] = value
                let refused = try await client.sendJSON(.POST, "/api/v1/meals", body)
                #expect(refused.status == .unprocessableEntity, "\(field): \(refused.status) \(refused.body.string.prefix(300))")
                #expect(refused.body.string.contains("\"\(named)\""), "\(field): \(refused.body.string.prefix(300))")
            }
            let huge = try await client.send(.POST, "/api/v1/meals", raw: #"{"description":"x","steps":[{"text":"Wait.","timerSeconds":1e308}]}"#)
            #expect(huge.status.code >= 400 && huge.status.code < 500)
            #expect((try object(try await client.get("/api/v1/meals"))["items"] as? [Any])?.isEmpty == true, "nothing was saved")
        }
    }

    @Test func theWebFormShowsAndKeepsTheRecipe() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try #require(try await client.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let id = try #require(try object(try await client.sendJSON(.POST, "/api/v1/meals", Self.recipe(oats: oats)))["id"] as? String)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let page = try await browser.send(.GET, "/meals/\(id)/edit").body.string
            #expect(page.contains("Stir in the oats; cook.") && page.contains("Line 2, kept as written") && page.contains("value=\"salt to taste\""))
            #expect(page.contains("Top with &lt;fruit&gt; &amp; &quot;honey&quot;."), "notes are escaped")
            // Sending the form back as the page shows it (a new name only) keeps the whole recipe.
            var fields = Self.fields(of: page, form: "meal-form")
            fields = fields.map { $0.0 == "description" ? ($0.0, "Morning porridge") : $0 }
            let saved = try await browser.send(.POST, "/meals/\(id)", pairs: fields)
            #expect(saved.status == .seeOther, "\(saved.body.string.prefix(500))")
            let meal = try object(try await client.get("/api/v1/meals/\(id)"))
            #expect(meal["description"] as? String == "Morning porridge")
            #expect((meal["ingredients"] as? [[String: Any]])?.map { $0["text"] as? String } == [nil, "salt to taste", nil])
            #expect((meal["ingredients"] as? [[String: Any]])?.map { $0["writtenUnit"] as? String } == ["cup", nil, nil], "the cook's unit is kept")
            // Another food in the row, or servings for grams, drops the unit: it was this food's cup.
            fields = fields.map { $0.0 == "ingredientUnit" && $0.1 == "g" ? ($0.0, "serving") : $0 }
            _ = try await browser.send(.POST, "/meals/\(id)", pairs: fields)
            let changed = try object(try await client.get("/api/v1/meals/\(id)"))
            #expect((changed["ingredients"] as? [[String: Any]])?.first?["writtenUnit"] is NSNull, "\(changed)")
            #expect((meal["steps"] as? [[String: Any]])?.compactMap { $0["timerSeconds"] as? Int } == [300])
            #expect(meal["prepMinutes"] as? Int == 2 && meal["cookMinutes"] as? Int == 8 && meal["source"] as? String == "Grandma's notebook, p. 12")
            #expect(meal["notes"] as? String == "Top with <fruit> & \"honey\".")
        }
    }

    /// The fields a form sends as the page shows it: inputs, text areas and selected options.
    static func fields(of page: String, form id: String) -> [(String, String)] {
        guard let start = page.range(of: "<form id=\"\(id)\""), let end = page[start.upperBound...].range(of: "</form>") else { return [] }
        let html = String(page[start.lowerBound..<end.lowerBound])
        let pattern = #"<input[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"|<textarea[^>]*?name="([^"]+)"[^>]*>([^<]*)</textarea>|<select[^>]*?name="([^"]+)"[^>]*>(.*?)</select>"#
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        func group(_ m: NSTextCheckingResult, _ i: Int) -> String? { Range(m.range(at: i), in: html).map { String(html[$0]) } }
        func unescaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
        }
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { m in
            if let name = group(m, 1) { return (name, unescaped(group(m, 2) ?? "")) }
            if let name = group(m, 3) { return (name, unescaped(group(m, 4) ?? "")) }
            if let name = group(m, 5), let options = group(m, 6) {
                let selected = options.range(of: #"<option value="([^"]*)"[^>]*selected"#, options: .regularExpression).map { String(options[$0]) }
                let value = selected.flatMap { $0.range(of: #"value="[^"]*""#, options: .regularExpression).map { String(selected![$0].dropFirst(7).dropLast()) } }
                return (name, value ?? "")
            }
            return nil
        }
    }
}
