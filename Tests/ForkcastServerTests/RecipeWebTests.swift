@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// The recipe page (amounts for the servings asked) and the import page (a draft in the meal form,
/// saved only by that form).
@Suite("Recipe pages")
struct RecipeWebTests {
    @Test func theRecipePageScalesWithItsStepper() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            var flour = FoodsAPITests.oats
            flour["name"] = "Flour"; flour["barcode"] = nil
            let flourID = try #require(try await client.createFood(flour).json(TestFood.self).id)
            let body: [String: Any] = [
                "description": "Pancakes <for \"two\">", "servings": 2,
                "ingredients": [["foodId": flourID.uuidString, "quantity": 750, "unit": "g"], ["text": "1/3 cup milk"], ["text": "salt to taste"]],
                "steps": [["text": "Whisk the flour with the milk."], ["text": "Fry.", "timerSeconds": 90]],
                "prepMinutes": 5, "source": "https://example.com/pancakes?a=1&b=<2>", "notes": "Line one\nLine two"]
            let id = try #require(try object(try await client.sendJSON(.POST, "/api/v1/meals", body))["id"] as? String)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let page = try await browser.send(.GET, "/meals/\(id)/recipe?servings=4").body.string
            #expect(page.contains("Pancakes &lt;for &quot;two&quot;&gt;"))
            #expect(page.contains("<span class=\"amount\">1.5 kg</span>"), "750 g for 2 is 1.5 kg for 4")
            #expect(page.contains("<span class=\"amount\">⅔ cup</span>"), "1/3 cup for 2 is ⅔ cup for 4")
            #expect(page.contains("salt to taste") && page.contains("2 lines are kept as written"))
            #expect(page.contains("Flour 1.5 kg"), "the step that names the flour shows its amount")
            #expect(page.contains("Timer: 1 min") || page.contains("Timer: 2 min"))
            #expect(page.contains("servings=3") && page.contains("servings=5"), "the stepper")
            #expect(page.contains("rel=\"noopener noreferrer nofollow\"") && page.contains("example.com"))
            let one = try await browser.send(.GET, "/meals/\(id)/recipe?servings=0").body.string
            #expect(one.contains("1 serving<") && one.contains("aria-disabled=\"true\""), "clamped to 1")
            #expect(try await browser.send(.GET, "/meals/\(id)/recipe?servings=abc").status == .badRequest)
        }
    }

    @Test func anImportFillsTheMealFormAndSavesNothingUntilItIsSent() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let token = try await browser.csrf(from: "/meals/import")
            let text = "Carrot soup\nServes 2\nIngredients\n200 g carrots\nsalt to taste\nMethod\nSimmer the carrots."
            let draft = try await browser.send(.POST, "/meals/import", form: ["_csrf": token, "source": text])
            #expect(draft.status == .ok)
            let page = draft.body.string
            #expect(page.contains("value=\"Carrot soup\"") && page.contains("Nothing is saved yet"))
            #expect(page.contains("Line 2, kept as written") && page.contains("Simmer the carrots."))
            #expect((try object(try await client.get("/api/v1/meals"))["items"] as? [Any])?.isEmpty == true, "nothing saved by reading")
            // The filled form, sent as it is, saves the meal (the catalogue's carrots made the person's).
            let saved = try await browser.send(.POST, "/meals", pairs: RecipesAPITests.fields(of: page, form: "meal-form"))
            #expect(saved.status == .seeOther, "\(saved.body.string.prefix(400))")
            let meal = try #require((try object(try await client.get("/api/v1/meals"))["items"] as? [[String: Any]])?.first)
            #expect(meal["description"] as? String == "Carrot soup" && meal["servings"] as? Int == 2)
            let lines = try #require(meal["ingredients"] as? [[String: Any]])
            #expect(lines.count == 2 && lines[1]["text"] as? String == "salt to taste" && lines[0]["quantity"] as? Double == 200)
            #expect((meal["steps"] as? [[String: Any]])?.first?["text"] as? String == "Simmer the carrots.")

            let nothing = try await browser.send(.POST, "/meals/import", form: ["_csrf": token, "source": "<p>no recipe</p>"])
            #expect(nothing.status == .unprocessableEntity && nothing.body.string.contains("No recipe found"))
            let shared = try await browser.send(.GET, "/meals/import?title=Soup&url=https://example.com/soup").body.string
            #expect(shared.contains("Soup\nhttps://example.com/soup"), "the share sheet's title and address are kept")
        }
    }
    /// The installed app as a share target (manifest.webmanifest): the phone's share sheet posts a
    /// file or a page's title and address, with no token; nobody else may post there.
    @Test func theShareSheetPostsAFileOrALinkToTheImport() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let cookies = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            func share(_ parts: [(name: String, filename: String?, body: String)], site: String,
                       to path: String = SiteURL.importShared.path) async throws -> TestingHTTPResponse {
                let boundary = "share-\(UUID().uuidString)"
                var body = ""
                for part in parts {
                    body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
                        + (part.filename.map { "; filename=\"\($0)\"" } ?? "") + "\r\n\r\n\(part.body)\r\n"
                }
                body += "--\(boundary)--\r\n"
                var headers = HTTPHeaders()
                headers.replaceOrAdd(name: .cookie, value: cookies)
                headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
                headers.replaceOrAdd(name: "Sec-Fetch-Site", value: site)
                return try await app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(string: body))
            }
            let jsonld = #"{"@context":"https://schema.org","@type":"Recipe","name":"Shared soup","recipeIngredient":["200 g carrots"],"recipeInstructions":"Simmer."}"#
            let file = try await share([("title", nil, "Soup"), ("file", "soup.json", jsonld)], site: "none")
            #expect(file.status == .ok && file.body.string.contains("value=\"Shared soup\"") && file.body.string.contains("Nothing is saved yet"))
            let link = try await share([("title", nil, "Soup"), ("url", nil, "https://example.com/soup")], site: "none")
            #expect(link.status == .ok && link.body.string.contains("Soup\nhttps://example.com/soup"), "the title and address fill the import page")
            #expect(try await share([("title", nil, "Soup")], site: "cross-site").status == .forbidden, "another site's page")
            #expect(try await browser.send(.POST, SiteURL.importShared.path, form: ["source": "Soup"]).status == .forbidden, "a form without a token")
            // The share sheet's exception is that one address's alone: a tokenless file elsewhere is refused.
            #expect(try await share([("photo", "a.jpg", "x")], site: "none", to: SiteURL.recipePhoto(UUID()).path).status == .forbidden)
        }
    }
}
