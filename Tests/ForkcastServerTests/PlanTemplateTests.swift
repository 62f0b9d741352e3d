import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Week templates through the Swift client and the planner's page, on SQLite and PostgreSQL: a
/// 4-week dinner rotation saved and put on the plan twice over, applying again planning nothing,
/// Fill my week filling only what the rotation left empty, and the templates page.
@Suite("Week templates")
struct PlanTemplateTests {
    @Test func aFourWeekDinnerRotationIsSavedAppliedAndLeavesOnlyEmptySlotsToFill() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana")
            let today = try await ana.api.plan().today
            let monday = today.adding(days: 8 - today.isoWeekday)
            // Meals with nutrition: Fill my week suggests only what brings a day closer to the goals.
            let rice = try #require(try await ana.api.createFood(FoodInput(name: "Rice", basis: "g", per100: .init(Nutrients(energyKcal: 130, protein: 3, carbohydrates: 28, fat: 1)))).id)
            let meal = { (name: String) in MealInput(description: name, ingredients: [.init(foodId: rice, quantity: 300, unit: "g")]) }
            var dinners: [UUID] = []
            for name in ["Curry", "Pasta", "Tacos", "Risotto"] { dinners.append(try await ana.api.createMeal(meal(name)).id) }
            _ = try await ana.api.createMeal(meal("Omelette"))
            // Four weeks, each a different dinner on Monday to Thursday.
            for week in 0..<4 {
                for day in 0..<4 { _ = try await ana.api.assign(mealId: dinners[week], date: monday.adding(days: 7 * week + day), mealType: "dinner", servings: 2) }
            }
            let rotation = try await ana.api.savePlanTemplate(PlanTemplateInput(name: "Dinner rotation", start: monday, weeks: 4))
            #expect(rotation.weeks == 4 && rotation.entries.count == 16 && rotation.entries.allSatisfy { $0.servings == 2 })
            #expect(try await ana.api.planTemplates().map(\.name) == ["Dinner rotation"])
            #expect(await problemStatus { _ = try await ana.api.savePlanTemplate(PlanTemplateInput(name: "", start: monday, weeks: 99)) } == 422)

            let start = monday.adding(days: 28)
            let applied = try await ana.api.applyPlanTemplate(rotation.id, ApplyTemplateInput(start: start, cycles: 2))
            #expect(applied.planned.count == 32 && applied.skipped == 0)
            #expect(applied.planned.map(\.mealId).prefix(5) == [dinners[0], dinners[0], dinners[0], dinners[0], dinners[1]])
            #expect(applied.planned.last?.date == start.adding(days: 7 * 7 + 3))
            let again = try await ana.api.applyPlanTemplate(rotation.id, ApplyTemplateInput(start: start, cycles: 2))
            #expect(again.planned.isEmpty && again.skipped == 32, "applying twice plans once")
            #expect(await problemStatus { _ = try await ana.api.applyPlanTemplate(UUID(), ApplyTemplateInput(start: start)) } == 404)
            #expect(await problemStatus { _ = try await ana.api.applyPlanTemplate(rotation.id, ApplyTemplateInput(start: start, cycles: 0)) } == 422)

            // Fill my week suggests dinners only for Friday to Sunday, which the rotation left empty.
            let suggested = try await ana.api.suggestions(SuggestionsInput(start: start, mealTypes: ["dinner"]))
            #expect(!suggested.items.isEmpty && suggested.items.allSatisfy { $0.date >= start.adding(days: 4) && $0.date <= start.adding(days: 6) },
                    "\(suggested.items.map(\.date))")

            // The planner's templates page saves and applies too.
            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            let page = try await browser.send(.GET, "/plan/templates")
            #expect(page.status == .ok && page.body.string.contains("Dinner rotation") && page.body.string.contains("4 weeks"))
            let token = try await browser.csrf(from: "/plan/templates")
            let saved = try await browser.send(.POST, "/plan/templates", form: ["_csrf": token, "name": "First week", "start": monday.iso, "weeks": "1"])
            #expect(saved.status == .seeOther)
            let first = try #require(try await ana.api.planTemplates().first { $0.name == "First week" })
            let far = monday.adding(days: 7 * 20)
            let put = try await browser.send(.POST, "/plan/templates/\(first.id.uuidString)/apply", form: ["_csrf": token, "start": far.iso, "cycles": "2"])
            #expect(put.status == .seeOther)
            #expect(try await ana.api.plan(start: far, days: 14).days.flatMap(\.assignments).count == 8)
            let bad = try await browser.send(.POST, "/plan/templates/\(first.id.uuidString)/apply", form: ["_csrf": token, "start": "tomorrow"])
            #expect(bad.status == .unprocessableEntity)
            #expect(try await browser.send(.POST, "/plan/templates/\(first.id.uuidString)/delete", form: ["_csrf": token]).status == .seeOther)
            #expect(try await ana.api.planTemplates().map(\.name) == ["Dinner rotation"])
        }
    }
}
