import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// A recipe cooked from the plan: its amounts for that entry's portions, cooking mode, and
/// "We ate this" logging each eater's portions into their own diary in the entry's slot, once.
@Suite("Cooking mode")
struct CookWebTests {
    @Test func cookingAPlannedMealShowsItsPortionsAndLogsEachEaterOnce() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let flour = try await ana.api.createFood(FoodInput(name: "Flour", basis: "g", per100: .init(Nutrients(energyKcal: 364))))
            let flourID = try #require(flour.id)
            let pancakes = try await ana.api.createMeal(MealInput(
                description: "Pancakes", servings: 2,
                ingredients: [.init(foodId: flourID, quantity: 200, unit: "g"), .init(text: "a pinch of salt")],
                steps: [.init(text: "Whisk the flour with milk."), .init(text: "Fry each side.", timerSeconds: 90)]))
            let today = try await ana.api.plan().today
            let planned = try await ben.api.assign(mealId: pancakes.id, date: today, mealType: "dinner", servings: 3,
                                                   eaters: [EaterEntry(userId: ana.id, portions: 2), EaterEntry(userId: ben.id, portions: 1)])

            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            #expect(try await browser.send(.GET, "/plan").body.string.contains("/meals/\(pancakes.id.uuidString)/recipe?entry=\(planned.id.uuidString)"),
                    "the planner opens the recipe for that entry")
            let recipe = try await browser.send(.GET, "/meals/\(pancakes.id.uuidString)/recipe?entry=\(planned.id.uuidString)").body.string
            #expect(recipe.contains("3 servings") && recipe.contains("<span class=\"amount\">300 g</span>"), "200 g for 2 is 300 g for 3")
            #expect(recipe.contains("Dinner") && recipe.contains("Ana 2") && recipe.contains("Ben 1"))
            #expect(recipe.contains("/meals/\(pancakes.id.uuidString)/cook?servings=3&amp;entry=\(planned.id.uuidString)")
                    || recipe.contains("/meals/\(pancakes.id.uuidString)/cook?servings=3&entry=\(planned.id.uuidString)"))

            let cook = try await browser.send(.GET, "/meals/\(pancakes.id.uuidString)/cook?entry=\(planned.id.uuidString)")
            #expect(cook.status == .ok)
            let page = cook.body.string
            #expect(page.contains("Step 1 of 2") && page.contains("Step 2 of 2") && page.contains("data-timer=\"90\""))
            #expect(page.contains("Flour 300 g"), "the step that names the flour shows its amount for 3")
            #expect(page.contains("/js/cook.js") && page.contains("We ate this"))

            let token = try await browser.csrf(from: "/meals/\(pancakes.id.uuidString)/cook?entry=\(planned.id.uuidString)")
            let ate = try await browser.send(.POST, "/plan/assignments/\(planned.id.uuidString)/eaten", form: ["_csrf": token])
            #expect(ate.status == .seeOther && ate.headers.first(name: .location)?.hasSuffix("#group-dinner") == true)
            let anas = try await ana.api.diaryDay().entries.flatMap(\.entries), bens = try await ben.api.diaryDay().entries.flatMap(\.entries)
            #expect(anas.map(\.mealId) == [pancakes.id] && anas.first?.quantity == 2 && anas.first?.mealType == "dinner")
            #expect(bens.map(\.mealId) == [pancakes.id] && bens.first?.quantity == 1 && bens.first?.mealType == "dinner", "Ben's own diary, his portion")

            // A second tap logs nothing twice.
            _ = try await browser.send(.POST, "/plan/assignments/\(planned.id.uuidString)/eaten", form: ["_csrf": token])
            #expect(try await ana.api.diaryDay().entries.flatMap(\.entries).count == 1)
            #expect(try await ben.api.diaryDay().entries.flatMap(\.entries).count == 1)
            #expect(try await browser.send(.POST, "/plan/assignments/\(UUID().uuidString)/eaten", form: ["_csrf": token]).status == .notFound)
            #expect(try await browser.send(.GET, "/meals/\(pancakes.id.uuidString)/cook?entry=nonsense").status == .badRequest)
        }
    }

    @Test func cookingWithoutAPlanEntryOffersTodaysLog() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let id = try #require(try object(try await client.sendJSON(.POST, "/api/v1/meals", ["description": "Toast <b>", "servings": 1]))["id"] as? String)
            var browser = Browser(app: app)
            _ = try await browser.signIn()
            let page = try await browser.send(.GET, "/meals/\(id)/cook?servings=500").body.string
            #expect(page.contains("Toast &lt;b&gt;") && page.contains("For 100 servings"), "servings are clamped to what a meal may make")
            #expect(page.contains("/diary/add?mealId=\(id)") && !page.contains("We ate this"))
        }
    }
}
