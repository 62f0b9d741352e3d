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

    @Test func aClientLogsAPlannedMealForEachEaterOnce() async throws {
        try await withServer(allowSignup: true) { _, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            let cleo = try await HouseholdSharingTests.person(url, "Cleo")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let stew = try await ana.api.createMeal(MealInput(description: "Stew", servings: 4, nutrition: .init(energyKcal: 400)))
            let today = try await ana.api.plan().today
            let both = try await ana.api.assign(mealId: stew.id, date: today, mealType: "lunch",
                                                eaters: [EaterEntry(userId: ana.id, portions: 1.5), EaterEntry(userId: ben.id, portions: 2)])
            let bens = try await ben.api.logPlanned(both.id)
            #expect(bens.quantity == 2, "Ben logged his own first")
            let eaten = try await ana.api.logEaten(both.id)
            #expect(eaten.assignmentId == both.id && eaten.logged == [EaterEntry(userId: ana.id, portions: 1.5)], "Ben is not logged twice")
            #expect(try await ana.api.logEaten(both.id).logged.isEmpty)
            #expect(try await ben.api.diaryDay().entries.flatMap(\.entries).count == 1)
            let anas = try await ana.api.diaryDay().entries.flatMap(\.entries)
            #expect(anas.count == 1 && anas.first?.quantity == 1.5 && anas.first?.mealType == "lunch" && anas.first?.nutrients.energyKcal == 600)
            #expect(await problemStatus { _ = try await cleo.api.logEaten(both.id) } == 404, "another household's plan")
            // Nobody named: the cook's own portion only (the same meal at lunch does not count for dinner).
            let anyone = try await ben.api.assign(mealId: stew.id, date: today, mealType: "dinner")
            #expect(try await ben.api.logEaten(anyone.id).logged == [EaterEntry(userId: ben.id, portions: 1)])
            #expect(try await ana.api.diaryDay().entries.flatMap(\.entries).count == 1, "Ana's diary is left alone")
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
