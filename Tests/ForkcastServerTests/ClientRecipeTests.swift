import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The Swift client carries recipes: their fields, scaling and an import's draft.
@Suite("Client recipes")
struct ClientRecipeTests {
    @Test func theClientSavesScalesAndImportsARecipe() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let water = try await api.createFood(FoodInput(name: "Water", basis: "ml", per100: .init(Nutrients(energyKcal: 0))))
            let draft = try await api.importRecipe(RecipeImportInput(text: "Lemonade\nServes 4\n4 lemons\n1 l water\n1 pinch of salt\nSqueeze the lemons.\nStir."))
            #expect(draft.meal.description == "Lemonade" && draft.lines.count == 3 && draft.lines[2].unit == "pinch")
            var input = draft.meal
            input.steps?.append(MealInput.StepInput(text: "Chill.", timerSeconds: 1800))
            input.prepMinutes = 10
            let saved = try await api.createMeal(input)
            #expect(saved.steps.map(\.text) == ["Squeeze the lemons.", "Stir.", "Chill."] && saved.steps.last?.timerSeconds == 1800)
            #expect(saved.prepMinutes == 10 && saved.servings == 4 && saved.ingredients.count == 3)
            let forTwo = try await api.meal(saved.id, servings: 2)
            #expect(forTwo.servings == 2 && forTwo.recipeServings == 4)
            let line = try #require(forTwo.ingredients.first { $0.foodId == water.id }, "the line matched to the person's water")
            #expect(line.quantity == 500 && line.unit == .known(.milliliter), "1 l of water for 4 is 500 ml for 2")
            #expect(line.writtenUnit == "l" && line.writtenUnitSize == 1000, "the cook's litre is carried")

            // Out and back in: the JSON-LD, a read-only link read signed out, and its revocation.
            let file = try await api.recipeJSONLD(saved.id)
            let link = try await api.shareRecipe(saved.id)
            #expect(try await api.shareRecipe(saved.id) == link)
            let shared = try await ForkcastAPI(baseURL: url, transport: .patient).sharedRecipe(token: link.token)
            #expect(shared == file, "the link shares the same document")
            let copy = try await api.importRecipe(RecipeImportInput(jsonld: String(decoding: shared, as: UTF8.self)))
            #expect(copy.meal.description == "Lemonade" && copy.meal.steps?.count == 3 && copy.meal.prepMinutes == 10)
            try await api.unshareRecipe(saved.id)
            await #expect(throws: ForkcastError.self) { _ = try await ForkcastAPI(baseURL: url, transport: .patient).sharedRecipe(token: link.token) }
        }
    }

    /// A recipe pushed by a phone's sync reads back through the API as it was written there.
    @Test func aSyncedRecipeReadsBackThroughTheAPI() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let phone = try await SyncEngine(api: api, store: InMemorySyncStore(), deviceId: "phone")
            let milk = try await api.createFood(FoodInput(name: "Milk", basis: "ml", per100: .init(Nutrients(energyKcal: 64))))
            let id = try await phone.upsert(.meal, record: .object([
                "description": .string("Tea \"\u{301}"), "cookMinutes": .number(4), "source": .string("Grandma"),
                "ingredients": .array([.object(["text": .string("1 tea bag")]),
                                       .object(["foodId": .string(try #require(milk.id).uuidString), "quantity": .number(30), "unit": .string("ml"),
                                                "writtenUnit": .string("tbsp"), "writtenUnitSize": .number(15)])]),
                "steps": .array([.object(["text": .string("Steep."), "timerSeconds": .number(240)])])]))
            try await phone.sync()
            let meal = try await api.meal(id)
            #expect(meal.description == "Tea \"\u{301}" && meal.cookMinutes == 4 && meal.source == "Grandma")
            #expect(meal.steps.map(\.text) == ["Steep."] && meal.steps.first?.timerSeconds == 240 && meal.ingredients.first?.text == "1 tea bag")
            #expect(meal.ingredients.last?.writtenUnit == "tbsp" && meal.ingredients.last?.writtenUnitSize == 15, "the cook's unit, pushed by sync")
            // And another device pulls it.
            let tablet = try await SyncEngine(api: api, store: InMemorySyncStore(), deviceId: "tablet")
            try await tablet.sync()
            guard case .array(let lines)? = await tablet.records(.meal)[id]?["ingredients"] else { Issue.record("no ingredients pulled"); return }
            #expect(lines.last?["writtenUnit"]?.string == "tbsp")
        }
    }
}
