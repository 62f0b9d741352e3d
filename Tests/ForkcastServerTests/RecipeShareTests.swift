@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// A recipe's read-only link: one per recipe, read signed out as a page and as schema.org JSON-LD
/// (which another Forkcast imports), made and revoked only by the meal's household.
@Suite("Recipe links")
struct RecipeShareTests {
    @Test func aLinkReadsTheRecipeSignedOutUntilRevoked() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ann = try await app.signUp()
            let oats = try #require(try await ann.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let id = try #require(try object(try await ann.sendJSON(.POST, "/api/v1/meals", RecipesAPITests.recipe(oats: oats)))["id"] as? String)

            let made = try await ann.send(.POST, "/api/v1/meals/\(id)/share")
            #expect(made.status == .created, "\(made.body.string)")
            let link = try object(made)
            let token = try #require(link["token"] as? String)
            #expect(token.count >= 32 && (link["link"] as? String)?.hasSuffix("/r/\(token)") == true)
            let again = try await ann.send(.POST, "/api/v1/meals/\(id)/share")
            let againToken = try object(again)["token"] as? String
            #expect(again.status == .ok && againToken == token, "sharing twice gives the same link")

            let anonymous = app.anonymous
            let document = try await anonymous.get("/api/v1/shared/recipes/\(token)")
            #expect(document.status == .ok && document.headers.contentType?.description.hasPrefix("application/ld+json") == true)
            #expect(document.headers.first(name: "Cache-Control") == "no-store" && document.headers.first(name: "Referrer-Policy") == "no-referrer")
            let recipe = try object(document)
            #expect(recipe["@type"] as? String == "Recipe" && recipe["name"] as? String == "Porridge")
            #expect((recipe["recipeInstructions"] as? [Any])?.count == 2)

            let page = try await anonymous.get("/r/\(token)?servings=4")
            #expect(page.status == .ok && page.headers.first(name: "X-Robots-Tag")?.contains("noindex") == true)
            let html = page.body.string
            #expect(html.contains("Porridge") && html.contains("application/ld+json") && html.contains("4 servings"))
            #expect(html.contains("/r/\(token)?servings=3") && html.contains("/r/\(token)?servings=5"), "the stepper stays on the link")
            #expect(!html.contains("/meals/\(id)/edit") && !html.contains("Stop sharing"), "nothing of the household's beyond the recipe")
            #expect(html.contains("Top with &lt;fruit&gt; &amp; &quot;honey&quot;."), "text is escaped on the shared page too")

            // Another Forkcast (here: another account) keeps a copy from the shared document.
            let bob = try await app.signUp("bob@example.com")
            let draft = try object(try await bob.sendJSON(.POST, "/api/v1/meals/import", ["jsonld": document.body.string]))
            let meal = try #require(draft["meal"] as? [String: Any])
            #expect(meal["description"] as? String == "Porridge" && (meal["steps"] as? [Any])?.count == 2)
            #expect(((meal["ingredients"] as? [[String: Any]])?.contains { $0["text"] as? String == "salt to taste" }) == true)

            // Only the meal's household makes or revokes its link.
            #expect(try await bob.send(.POST, "/api/v1/meals/\(id)/share").status == .notFound)
            #expect(try await bob.send(.DELETE, "/api/v1/meals/\(id)/share").status == .notFound)
            #expect(try await anonymous.send(.POST, "/api/v1/meals/\(id)/share").status == .unauthorized)
            var guessed = Array(token)
            guessed[7] = guessed[7] == "A" ? "B" : "A"
            for bad in [String(guessed), "x", String(repeating: "a", count: 200), "%3Cscript%3E"] {
                #expect(try await anonymous.get("/api/v1/shared/recipes/\(bad)").status == .notFound, "\(bad)")
                #expect(try await anonymous.get("/r/\(bad)").status == .notFound, "\(bad)")
            }

            #expect(try await ann.send(.DELETE, "/api/v1/meals/\(id)/share").status == .noContent)
            #expect(try await anonymous.get("/api/v1/shared/recipes/\(token)").status == .notFound, "revoked at once")
            #expect(try await anonymous.get("/r/\(token)").status == .notFound)
            let renewed = try object(try await ann.send(.POST, "/api/v1/meals/\(id)/share"))
            #expect(renewed["token"] as? String != token, "a new link; the old one stays dead")
            #expect(try await ann.send(.DELETE, "/api/v1/meals/\(id)").status == .noContent)
            #expect(try await anonymous.get("/api/v1/shared/recipes/\(try #require(renewed["token"] as? String))").status == .notFound,
                    "a deleted recipe's link goes with it")
        }
    }

    @Test func theRecipePageSharesAndStopsSharing() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let id = try #require(try object(try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Toast", "steps": [["text": "Toast it."]]]))["id"] as? String)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let token = try await browser.csrf(from: "/meals/\(id)/recipe")
            #expect(try await browser.send(.GET, "/meals/\(id)/recipe").body.string.contains("Share a link"))
            let shared = try await browser.send(.POST, "/meals/\(id)/share", form: ["_csrf": token])
            #expect(shared.status == .seeOther)
            let page = try await browser.send(.GET, "/meals/\(id)/recipe").body.string
            let linkToken = try #require(try object(try await client.send(.POST, "/api/v1/meals/\(id)/share"))["token"] as? String)
            #expect(page.contains("/r/\(linkToken)") && page.contains("Stop sharing"), "the page shows the link it made")
            #expect(try await browser.send(.POST, "/meals/\(id)/unshare", form: ["_csrf": token]).status == .seeOther)
            #expect(try await app.anonymous.get("/r/\(linkToken)").status == .notFound)
            #expect(try await browser.send(.GET, "/meals/\(id)/recipe").body.string.contains("Share a link"))
            #expect(try await browser.send(.POST, "/meals/\(id)/share", form: [:]).status == .forbidden, "a form without its token changes nothing")
        }
    }
}
