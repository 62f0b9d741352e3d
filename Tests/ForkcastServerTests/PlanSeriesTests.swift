import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Repeating plan entries through the API, the Swift client and the planner page, on SQLite and
/// PostgreSQL: a repeat answers its seriesId, a change or removal takes a scope, bad repeats are
/// a 422 that plans nothing, and the week shows each day marked as repeating.
@Suite("Repeating plan entries")
struct PlanSeriesTests {
    @Test func aClientPlansPorridgeEveryWeekdayAndChangesOrSkipsItsDays() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana")
            let porridge = try await ana.api.createMeal(MealInput(description: "Porridge"))
            let today = try await ana.api.plan().today
            let monday = today.adding(days: 8 - today.isoWeekday) // next week's Monday
            let first = try await ana.api.assign(mealId: porridge.id, date: monday, mealType: "breakfast",
                                                 eaters: [EaterEntry(userId: ana.id, portions: 2)], repeat: PlanRepeat(weekdays: PlanRepeat.workdays, count: 10))
            let series = try #require(first.seriesId)
            #expect(first.date == monday && first.eaters?.first?.portions == 2)
            var week = try await ana.api.plan(start: monday, days: 14).days.flatMap(\.assignments)
            #expect(week.count == 10 && week.allSatisfy { $0.seriesId == series && $0.mealType == "breakfast" })

            // Wednesday for three, and from next Monday on for four; a skipped Friday.
            let wednesday = try #require(week.first { $0.date == monday.adding(days: 2) })
            let three = try await ana.api.updateAssignment(wednesday.id, AssignmentInput(mealId: porridge.id, date: wednesday.date, mealType: "breakfast", servings: 3))
            #expect(three.servings == 3 && three.seriesId == series)
            let nextMonday = try #require(week.first { $0.date == monday.adding(days: 7) })
            _ = try await ana.api.updateAssignment(nextMonday.id, AssignmentInput(mealId: porridge.id, date: nextMonday.date, mealType: "breakfast", servings: 4),
                                                   scope: .following)
            let friday = try #require(week.first { $0.date == monday.adding(days: 4) })
            try await ana.api.unassign(friday.id, scope: .one)
            week = try await ana.api.plan(start: monday, days: 14).days.flatMap(\.assignments)
            #expect(week.map(\.servings) == [1, 1, 3, 1, 4, 4, 4, 4, 4], "\(week.map(\.servings))")
            #expect(!week.contains { $0.id == friday.id }, "Friday is skipped")

            // Bad repeats change nothing.
            for bad in [PlanRepeat(weekdays: [0]), PlanRepeat(everyWeeks: 1_000_000), PlanRepeat(until: monday.adding(days: 999)), PlanRepeat(count: -1)] {
                #expect(await problemStatus { _ = try await ana.api.assign(mealId: porridge.id, date: monday, repeat: bad) } == 422, "\(bad)")
            }
            #expect(await problemStatus { _ = try await ana.api.assign([AssignmentInput(mealId: porridge.id, date: monday, repeat: PlanRepeat(count: 2))]) } == 422)
            #expect(try await ana.api.plan(start: monday, days: 14).days.flatMap(\.assignments).count == 9)

            // The planner marks the days and asks which to remove.
            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            let page = try await browser.send(.GET, "/plan?start=\(monday.iso)").body.string
            #expect(page.components(separatedBy: "class=\"repeat-mark\"").count - 1 == 4, "Monday to Thursday repeat; Friday is skipped")
            #expect(page.contains("name=\"scope\" value=\"following\"") && page.contains("Every day of the repeat"))
            let token = try await browser.csrf(from: "/plan")
            let removed = try await browser.send(.POST, "/plan/assignments/\(nextMonday.id.uuidString)/delete", form: ["_csrf": token, "scope": "all"])
            #expect(removed.status == .seeOther || removed.status == .found)
            #expect(try await ana.api.plan(start: monday, days: 14).days.flatMap(\.assignments).isEmpty, "all nine days removed")

            // The planner's picker plans a repeat: Monday to Friday, every other week, until a day.
            let added = try await browser.send(.POST, "/plan/assignments", pairs: [("_csrf", token), ("mealId", porridge.id.uuidString), ("date", monday.iso),
                ("mealType", "breakfast"), ("weekday", "1"), ("weekday", "5"), ("everyWeeks", "2"), ("until", monday.adding(days: 20).iso)])
            #expect(added.status == .seeOther || added.status == .found)
            week = try await ana.api.plan(start: monday, days: 21).days.flatMap(\.assignments)
            #expect(week.map(\.date) == [monday, monday.adding(days: 4), monday.adding(days: 14), monday.adding(days: 18)])
            let refused = try await browser.send(.POST, "/plan/assignments", pairs: [("_csrf", token), ("mealId", porridge.id.uuidString), ("date", monday.iso),
                ("weekday", "1"), ("everyWeeks", "x")])
            #expect(refused.status == .unprocessableEntity)
        }
    }

    /// A repeat's days are ordinary entries: an event each in the calendar feed, a record each on a
    /// phone that syncs (with the series id, kept through a change made there), and an import gives
    /// the repeat a series of its own.
    @Test func aRepeatsDaysReachTheCalendarASyncedPhoneAndAnImport() async throws {
        try await withServer(allowSignup: true) { _, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana")
            let porridge = try await ana.api.createMeal(MealInput(description: "Porridge"))
            let today = try await ana.api.plan().today
            let monday = today.adding(days: 8 - today.isoWeekday)
            let first = try await ana.api.assign(mealId: porridge.id, date: monday, mealType: "breakfast", repeat: PlanRepeat(weekdays: PlanRepeat.workdays, count: 3))
            let series = try #require(first.seriesId)
            let days = try await ana.api.plan(start: monday, days: 7).days.flatMap(\.assignments)
            #expect(days.map(\.date) == [monday, monday.adding(days: 1), monday.adding(days: 2)])

            let feed = try await CalendarFeedTests.fetch(try #require(try await ana.api.createCalendarFeed(scope: .household).url)).body
            let events = days.map { CalendarFeedTests.event(feed, uid: "\($0.id.uuidString.lowercased())@forkcast") }
            #expect(events.allSatisfy { $0["SUMMARY"] == "Porridge" } && Set(events.compactMap { $0["DTSTART"] }).count == 3, "\(events)")

            let phone = try await SyncEngine(api: ana.api, store: InMemorySyncStore(), deviceId: "phone")
            try await phone.sync()
            let synced = await phone.records(.assignment)
            #expect(Set(synced.keys) == Set(days.map(\.id)))
            #expect(synced.values.allSatisfy { $0["seriesId"]?.string.flatMap(UUID.init(uuidString:)) == series }, "\(synced)")
            guard case .object(var tuesday)? = synced[days[1].id] else { Issue.record("no record for Tuesday"); return }
            tuesday["servings"] = .number(3)
            _ = try await phone.upsert(.assignment, id: days[1].id, record: .object(tuesday))
            try await phone.sync()
            let changed = try await ana.api.plan(start: monday, days: 7).days.flatMap(\.assignments)
            #expect(changed.map(\.servings) == [1, 3, 1] && changed.allSatisfy { $0.seriesId == series }, "\(changed)")

            let ben = try await HouseholdSharingTests.person(url, "Ben")
            _ = try await ben.api.importAccount(try await ana.api.exportAccount())
            let imported = try await ben.api.plan(start: monday, days: 7).days.flatMap(\.assignments)
            let importedSeries = Set(imported.compactMap(\.seriesId))
            #expect(imported.count == 3 && importedSeries.count == 1 && !importedSeries.contains(series), "\(imported)")
            try await ben.api.unassign(imported[0].id, scope: .all)
            #expect(try await ben.api.plan(start: monday, days: 7).days.flatMap(\.assignments).isEmpty)
            #expect(try await ana.api.plan(start: monday, days: 7).days.flatMap(\.assignments).count == 3, "Ana's repeat is her own")
        }
    }
}
