import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// Repeating plan entries on the in-memory library: a repeat is its days in one write; a change or
/// a removal reaches one day, the later ones or all; a synced edit keeps the day in its repeat.
@Suite("Repeating plan entries, alone on the in-memory library")
struct PlanSeriesUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let now = Date(timeIntervalSince1970: 1_795_392_000) // 2026-11-23 00:00 UTC
    let monday = CalendarDate(iso: "2026-12-07")!

    func plan(_ owner: UUID) -> PlanMeal { PlanMeal(library: libraries.library(of: owner), now: now) }
    func request(_ meal: UUID, on date: CalendarDate, servings: Int? = nil) -> PlanMeal.Request {
        PlanMeal.Request(mealID: meal, date: date, mealType: "breakfast", servings: servings, id: UUID())
    }
    var stored: [Assignment] { libraries.contents.assignments.values.map(\.value).sorted { $0.date < $1.date } }

    @Test func porridgeEveryWeekdayIsOneEntryPerDaySharingASeries() async throws {
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: now).add(MealDraft(description: "Porridge"), id: UUID())
        let first = request(porridge.id, on: monday)
        let days = try #require(try await plan(ann).repeating(first, PlanRepeat(weekdays: PlanRepeat.workdays, count: 10)))
        #expect(days.count == 10 && days.first?.assignment.id == first.id, "the first day keeps the id asked for")
        #expect(Set(days.compactMap(\.assignment.seriesId)).count == 1 && days.allSatisfy { $0.assignment.mealType == "breakfast" })
        #expect(stored.map(\.date) == (0..<14).map { monday.adding(days: $0) }.filter { $0.isoWeekday <= 5 })
        #expect(libraries.contents.changes.filter { $0.kind == .assignment }.count == 10, "each day is in the change feed")

        let bad = await #expect(throws: ValidationError.self) {
            try await plan(ann).repeating(request(porridge.id, on: monday), PlanRepeat(weekdays: [9], everyWeeks: 0))
        }
        #expect(Set(bad?.fields.map(\.field) ?? []) == ["repeat.weekdays", "repeat.everyWeeks"])
        #expect(try await plan(bob).repeating(request(porridge.id, on: monday), PlanRepeat(count: 3)) == nil, "not Bob's meal")
        #expect(stored.count == 10, "a refused repeat plans nothing")
    }

    @Test func aChangeReachesThisDayTheLaterDaysOrAllAndMovesThemAlike() async throws {
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: now).add(MealDraft(description: "Porridge"), id: UUID())
        let days = try #require(try await plan(ann).repeating(request(porridge.id, on: monday), PlanRepeat(weekdays: [1, 3], count: 6)))
        let third = days[2].assignment // the second Monday

        var one = request(porridge.id, on: third.date, servings: 3)
        _ = try await plan(ann).change(third.id, to: one, scope: .one)
        #expect(stored.filter { $0.servings == 3 }.map(\.id) == [third.id])
        #expect(stored.first { $0.id == third.id }?.seriesId == third.seriesId, "a day changed alone stays in its repeat")

        one.servings = 2
        one.date = third.date.adding(days: 1) // Monday → Tuesday, and Wednesday → Thursday
        let moved = try #require(try await plan(ann).change(third.id, to: one, scope: .following))
        #expect(moved.assignment.id == third.id && moved.assignment.date == third.date.adding(days: 1))
        #expect(stored.map(\.date.isoWeekday) == [1, 3, 2, 4, 2, 4])
        #expect(stored.map(\.servings) == [nil, nil, 2, 2, 2, 2])

        let all = try #require(try await plan(ann).change(days[0].assignment.id, to: request(porridge.id, on: monday, servings: 1), scope: .all))
        #expect(all.assignment.servings == 1 && stored.allSatisfy { $0.servings == 1 })
        #expect(stored.count == 6 && Set(stored.compactMap(\.seriesId)).count == 1)
    }

    @Test func aNewRuleReplansTheDaysReachedAndAloneEntriesCanStartRepeating() async throws {
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: now).add(MealDraft(description: "Porridge"), id: UUID())
        let days = try #require(try await plan(ann).repeating(request(porridge.id, on: monday), PlanRepeat(weekdays: [1], count: 4)))
        let second = days[1].assignment
        _ = try await plan(ann).change(second.id, to: request(porridge.id, on: second.date), scope: .following,
                                       repeating: PlanRepeat(weekdays: [6, 7], count: 4))
        #expect(stored.map(\.date.isoWeekday) == [1, 6, 7, 6, 7], "the first Monday stays; the rest is weekends now")
        #expect(Set(stored.compactMap(\.seriesId)) == [second.seriesId!])

        // One day of a repeat cannot take a rule of its own (it would plan the repeat's days twice).
        let refused = await #expect(throws: ValidationError.self) {
            try await plan(ann).change(second.id, to: request(porridge.id, on: second.date), scope: .one, repeating: PlanRepeat(count: 2))
        }
        #expect(refused?.fields.map(\.field) == ["scope"] && stored.count == 5)
        // Moved earlier with "following", the rule replaces the repeat's days from the earlier day.
        let saturday = try #require(stored.first { $0.date.isoWeekday == 6 })
        _ = try await plan(ann).change(saturday.id, to: request(porridge.id, on: monday), scope: .following, repeating: PlanRepeat(weekdays: [2], count: 2))
        #expect(stored.map(\.date.isoWeekday) == [2, 2], "Monday, the weekends and the rest replaced by two Tuesdays: nothing twice")

        let alone = try #require(try await plan(ann)(porridge.id, on: monday.adding(days: 60), mealType: nil, id: UUID()))
        let started = try #require(try await plan(ann).change(alone.assignment.id, to: request(porridge.id, on: alone.assignment.date), scope: .one,
                                                              repeating: PlanRepeat(count: 3)))
        #expect(started.assignment.id == alone.assignment.id && started.assignment.seriesId != nil)
        #expect(stored.filter { $0.seriesId == started.assignment.seriesId }.count == 3)
    }

    @Test func whoEatsTheLaterDaysChangesOnlyTheirEaters() async throws {
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: now).add(MealDraft(description: "Porridge"), id: UUID())
        let days = try #require(try await plan(ann).repeating(request(porridge.id, on: monday), PlanRepeat(weekdays: [1, 3], count: 4)))
        _ = try await plan(ann).change(days[1].assignment.id, to: request(porridge.id, on: days[1].assignment.date, servings: 4), scope: .one)
        let eaters = [Eater(userId: ann, portions: 2)]
        let changed = try #require(try await plan(ann).setEaters(eaters, of: days[0].assignment.id, scope: .following))
        #expect(changed.assignment.eaters == eaters)
        #expect(stored.allSatisfy { $0.eaters == eaters } && stored.map(\.servings) == [nil, 4, nil, nil], "Wednesday keeps its 4 portions")
        #expect(try await plan(bob).setEaters(nil, of: days[0].assignment.id, scope: .all) == nil)
    }

    @Test func removingSkipsADayOrEndsTheRepeatAndASyncedEditKeepsItsSeries() async throws {
        let porridge = try await SaveMeal(library: libraries.library(of: ann), now: now).add(MealDraft(description: "Porridge"), id: UUID())
        let days = try #require(try await plan(ann).repeating(request(porridge.id, on: monday), PlanRepeat(weekdays: PlanRepeat.workdays, count: 10)))
        let unplan = UnplanMeal(library: libraries.library(of: ann), now: now)
        #expect(try await UnplanMeal(library: libraries.library(of: bob), now: now)(days[1].assignment.id, scope: .all).isEmpty, "not Bob's")

        #expect(try await unplan(days[1].assignment.id, scope: .one).map(\.id) == [days[1].assignment.id], "Tuesday skipped")
        #expect(stored.count == 9)
        let later = try await unplan(days[7].assignment.id, scope: .following)
        #expect(later.first?.id == days[7].assignment.id && later.count == 3)
        #expect(stored.map(\.id) == [0, 2, 3, 4, 5, 6].map { days[$0].assignment.id })

        // A device edits a day without knowing of repeats: the day stays in its repeat.
        let synced = try #require(try await plan(ann)(porridge.id, on: days[2].assignment.date, mealType: "lunch", id: days[2].assignment.id, replacing: true))
        #expect(synced.assignment.seriesId == days[0].assignment.seriesId)

        #expect(try await unplan(days[3].assignment.id, scope: .all).count == 6)
        #expect(stored.isEmpty)
        #expect(try await unplan(days[3].assignment.id, scope: .all).isEmpty, "gone already")
    }
}
