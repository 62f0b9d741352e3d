import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// Week templates on the in-memory library: saved from the plan with each meal's day, slot,
/// portions and eaters; put back as a rotation; twice plans once; another household's is not there.
@Suite("Week templates, alone on the in-memory library")
struct PlanTemplatesUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let now = Date(timeIntervalSince1970: 1_795_392_000) // 2026-11-23 00:00 UTC
    let monday = CalendarDate(iso: "2026-12-07")!

    func templates(_ owner: UUID) -> PlanTemplates { PlanTemplates(library: libraries.library(of: owner), now: now) }
    var stored: [Assignment] { libraries.contents.assignments.values.map(\.value).sorted { ($0.date, $0.mealType ?? "") < ($1.date, $1.mealType ?? "") } }

    @Test func aWeekSavedAndPutOnTwoLaterWeeksKeepsDaysSlotsAndPortionsAndPlansOnce() async throws {
        let save = SaveMeal(library: libraries.library(of: ann), now: now), plan = PlanMeal(library: libraries.library(of: ann), now: now)
        let chili = try await save.add(MealDraft(description: "Chili"), id: UUID()), soup = try await save.add(MealDraft(description: "Soup"), id: UUID())
        _ = try await plan(chili.id, on: monday, mealType: "dinner", servings: 4, id: UUID(), eaters: [Eater(userId: ann, portions: 2)])
        _ = try await plan(soup.id, on: monday.adding(days: 3), mealType: "lunch", id: UUID())
        _ = try await plan(soup.id, on: monday.adding(days: 7), mealType: "lunch", id: UUID()) // next week: not in a 1-week template

        let week = try await templates(ann).save(name: "  Usual week ", from: monday, weeks: 1, id: UUID())
        #expect(week.name == "Usual week" && week.entries.count == 2)
        #expect(week.entries.first == PlanTemplate.Entry(day: 0, mealId: chili.id, mealType: "dinner", servings: 4, eaters: [Eater(userId: ann, portions: 2)]))

        let later = monday.adding(days: 14)
        let applied = try #require(try await templates(ann).apply(week.id, from: later, cycles: 2))
        #expect(applied.planned.map(\.assignment.date) == [later, later.adding(days: 3), later.adding(days: 7), later.adding(days: 10)])
        #expect(applied.planned.first?.assignment.servings == 4 && applied.planned.first?.assignment.eaters?.first?.portions == 2)
        let again = try #require(try await templates(ann).apply(week.id, from: later, cycles: 2))
        #expect(again.planned.isEmpty && again.skipped == 4, "applying twice plans once")
        #expect(stored.count == 3 + 4)
    }

    @Test func aRotationOfTemplatesFillsWeeksOneAfterAnother() async throws {
        let save = SaveMeal(library: libraries.library(of: ann), now: now), plan = PlanMeal(library: libraries.library(of: ann), now: now)
        var ids: [UUID] = []
        for (week, name) in ["Curry", "Pasta"].enumerated() {
            let meal = try await save.add(MealDraft(description: name), id: UUID())
            _ = try await plan(meal.id, on: monday.adding(days: 7 * week), mealType: "dinner", id: UUID())
            ids.append(try await templates(ann).save(name: "Week \(name)", from: monday.adding(days: 7 * week), weeks: 1, id: UUID()).id)
        }
        let start = monday.adding(days: 28)
        let applied = try #require(try await templates(ann).apply(ids[0], then: [ids[1]], from: start, cycles: 3))
        #expect(applied.planned.map(\.assignment.date) == (0..<6).map { start.adding(days: 7 * $0) })
        #expect(applied.planned.map(\.meal.description) == ["Curry", "Pasta", "Curry", "Pasta", "Curry", "Pasta"])
        #expect(try await templates(ann).apply(ids[0], then: [UUID()], from: start) == nil, "an unknown template in the rotation")
        #expect(try await templates(bob).apply(ids[0], from: start) == nil, "Ann's household's, not Bob's")
    }

    @Test func badTemplatesAreRefusedAndAGoneMealIsLeftOut() async throws {
        let save = SaveMeal(library: libraries.library(of: ann), now: now)
        let chili = try await save.add(MealDraft(description: "Chili"), id: UUID())
        _ = try await PlanMeal(library: libraries.library(of: ann), now: now)(chili.id, on: monday, mealType: nil, id: UUID())
        let empty = await #expect(throws: ValidationError.self) { try await templates(ann).save(name: "Nothing", from: monday.adding(days: 1), weeks: 1, id: UUID()) }
        #expect(empty?.fields.map(\.field) == ["start"])
        let bad = await #expect(throws: ValidationError.self) { try await templates(ann).save(name: " ", from: monday, weeks: 9, id: UUID()) }
        #expect(Set(bad?.fields.map(\.field) ?? []) == ["name", "weeks"])
        let week = try await templates(ann).save(name: "One", from: monday, weeks: 1, id: UUID())
        let tooMany = await #expect(throws: ValidationError.self) { try await templates(ann).apply(week.id, from: monday, cycles: 53) }
        #expect(tooMany?.fields.map(\.field) == ["cycles"])

        _ = try await UnplanMeal(library: libraries.library(of: ann), now: now)(stored[0].id)
        _ = try await DeleteMeal(library: libraries.library(of: ann), now: now)(chili.id)
        let applied = try #require(try await templates(ann).apply(week.id, from: monday.adding(days: 7)))
        #expect(applied.planned.isEmpty && applied.skipped == 1 && stored.isEmpty, "the deleted meal is left out")
        #expect(try await templates(bob).delete(week.id) == false)
        #expect(try await templates(ann).delete(week.id) == true)
    }
}
