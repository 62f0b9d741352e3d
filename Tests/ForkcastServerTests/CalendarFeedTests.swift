import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VaporTesting

/// The plan as a calendar app reads it, on SQLite and PostgreSQL: a secret address per feed, an
/// event per planned meal at its slot's time in the person's zone, stable ids, the eater's own
/// feed, and renewing or removing stopping the old address at once.
@Suite("Calendar feeds")
struct CalendarFeedTests {
    static func fetch(_ url: String) async throws -> (status: Int, body: String, type: String?) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// The unfolded content lines of a VEVENT whose UID is `uid`.
    static func event(_ body: String, uid: String) -> [String: String] {
        let lines = body.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        var found: [String: String] = [:], current: [String: String] = [:]
        for line in lines {
            if line == "BEGIN:VEVENT" { current = [:] }
            if let colon = line.firstIndex(of: ":") { current[String(line[..<colon])] = String(line[line.index(after: colon)...]) }
            if line == "END:VEVENT", current["UID"] == uid { found = current }
        }
        return found
    }

    @Test func aHouseholdsPlanIsInItsCalendarAtEachSlotsTime() async throws {
        try await withServer(allowSignup: true) { _, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            _ = try await ana.api.updateMe(ProfileInput(timeZone: "America/New_York"))
            let rice = try #require(try await ana.api.createFood(FoodInput(name: "Rice", basis: "g", per100: .init(Nutrients(energyKcal: 130)))).id)
            let chili = try await ana.api.createMeal(MealInput(description: "Chili, \"hot\"; <b>extra</b>", servings: 2,
                                                               ingredients: [.init(foodId: rice, quantity: 300, unit: "g")]))
            let porridge = try await ana.api.createMeal(MealInput(description: "Porridge"))
            let today = try await ana.api.plan().today
            let day = today.adding(days: 30)
            let dinner = try await ana.api.assign(mealId: chili.id, date: day, mealType: "dinner", servings: 4,
                                                  eaters: [EaterEntry(userId: ben.id, portions: 4)])
            let breakfast = try await ana.api.assign(mealId: porridge.id, date: day, mealType: "breakfast")

            let household = try await ana.api.createCalendarFeed(scope: .household)
            let address = try #require(household.url)
            #expect(address.hasSuffix(".ics") && address.contains("/calendar/"))
            let feed = try await Self.fetch(address)
            #expect(feed.status == 200 && feed.type?.hasPrefix("text/calendar") == true, "\(feed.status) \(feed.body.prefix(300))")
            #expect(feed.body.hasPrefix("BEGIN:VCALENDAR\r\n") && feed.body.hasSuffix("END:VCALENDAR\r\n"))
            #expect(feed.body.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines folded at 75 octets")
            let chiliEvent = Self.event(feed.body, uid: "\(dinner.id.uuidString.lowercased())@forkcast")
            // 18:00 in New York is 23:00 UTC in winter, 22:00 in summer.
            let start = day.instant(hour: 18, minute: 0, in: TimeZone(identifier: "America/New_York")!)
            #expect(chiliEvent["DTSTART"] == ICalendar.utc(start) && chiliEvent["DTEND"] == ICalendar.utc(start.addingTimeInterval(3600)), "\(chiliEvent)")
            #expect(chiliEvent["SUMMARY"] == #"Chili\, "hot"\; <b>extra</b>"#, "escaped as RFC 5545 TEXT")
            let description = chiliEvent["DESCRIPTION"] ?? ""
            #expect(description.contains("4 portions") && description.contains("600 g Rice") && description.contains("/recipe?"), "\(description)")
            #expect(Self.event(feed.body, uid: "\(breakfast.id.uuidString.lowercased())@forkcast")["DTSTART"]
                    == ICalendar.utc(day.instant(hour: 8, minute: 0, in: TimeZone(identifier: "America/New_York")!)), "breakfast at 8:00, not midnight")

            // Ana's own feed: only what she eats (the chili is Ben's alone).
            let mine = try await Self.fetch(try #require(try await ana.api.createCalendarFeed(scope: .me).url)).body
            #expect(mine.contains("SUMMARY:Porridge") && !mine.contains("Chili"))
            // An edit keeps the event's id: the app updates it.
            _ = try await ana.api.updateAssignment(dinner.id, AssignmentInput(mealId: chili.id, date: day, mealType: "dinner", servings: 2,
                                                                             eaters: [EaterEntry(userId: ben.id, portions: 2)]))
            let edited = Self.event(try await Self.fetch(address).body, uid: "\(dinner.id.uuidString.lowercased())@forkcast")
            #expect(edited["DESCRIPTION"]?.contains("300 g Rice") == true)

            // Listed without addresses; a new address stops the old one at once; removing stops it.
            let listed = try await ana.api.calendarFeeds()
            #expect(listed.count == 2 && listed.allSatisfy { $0.url == nil })
            let renewed = try await ana.api.renewCalendarFeed(household.id)
            #expect(try await Self.fetch(address).status == 404)
            let newAddress = try #require(renewed.url)
            #expect(try await Self.fetch(newAddress).status == 200)
            try await ana.api.deleteCalendarFeed(renewed.id)
            #expect(try await Self.fetch(newAddress).status == 404)
            await #expect(throws: (any Error).self) { try await ben.api.deleteCalendarFeed(listed[0].id) }
            for junk in ["/calendar/x.ics", "/calendar/nothing", "/calendar/\(String(repeating: "a", count: 500)).ics", "/calendar/%00.ics"] {
                #expect(try await Self.fetch(url.absoluteString + junk).status == 404, "\(junk)")
            }
        }
    }
}
