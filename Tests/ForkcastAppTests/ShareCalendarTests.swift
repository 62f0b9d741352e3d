import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// ``ShareCalendar`` on the in-memory accounts, and the iCalendar text it is read as.
@Suite("Calendar feeds, alone on the in-memory store")
struct ShareCalendarTests {
    let libraries = InMemoryLibraries()
    let now = Date(timeIntervalSince1970: 1_795_392_000)

    func person(_ email: String) async throws -> UUID {
        let account = Account(id: UUID(), email: email, passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
        try await CreateAccount(accounts: libraries.accounts, now: now)(account)
        return account.id
    }

    @Test func aFeedIsItsPersonsRenewedAtOnceAndAtMostTen() async throws {
        let (ana, ben) = (try await person("ana@example.com"), try await person("ben@example.com"))
        let share = ShareCalendar(accounts: libraries.accounts, now: now)
        let feed = try await share.make(by: ana, tokenHash: "hash-1", scope: .household)
        #expect(try await share.open(tokenHash: "hash-1")?.owner == ana)
        #expect(try await !share.revoke(feed.id, by: ben), "only its person removes it")
        await #expect(throws: Refusal.self) { _ = try await share.make(by: ben, tokenHash: "hash-x", scope: .me, replacing: feed.id) }
        #expect(try await share.open(tokenHash: "hash-x") == nil, "a refused renewal makes nothing")
        let renewed = try await share.make(by: ana, tokenHash: "hash-2", scope: .household, replacing: feed.id)
        #expect(try await share.open(tokenHash: "hash-1") == nil)
        #expect(try await share.open(tokenHash: "hash-2")?.feed == renewed)
        for i in 1..<CalendarFeed.openLimit { _ = try await share.make(by: ana, tokenHash: "h\(i)", scope: .me) }
        let refused = await #expect(throws: Refusal.self) { _ = try await share.make(by: ana, tokenHash: "one more", scope: .me) }
        #expect(refused == .conflict(ShareCalendar.tooMany))
        #expect(try await share.feeds(of: ana).count == CalendarFeed.openLimit)
        _ = try await libraries.accounts.write { try await $0.delete(ana) }
        #expect(libraries.contents.calendarFeeds.isEmpty, "deleting the account deletes its feeds")
    }

    @Test func slotsAreNeverAtMidnightAndTextIsEscapedAndFolded() {
        let breakfast = MealType(id: UUID(), key: "breakfast", name: "Breakfast", window: SuggestionWindow(start: 0, end: 659), position: 0, createdAt: now, updatedAt: now)
        #expect(CalendarFeed.slot(of: breakfast).start == 8 * 60)
        let late = MealType(id: UUID(), key: nil, name: "Midnight feast", window: SuggestionWindow(start: 0, end: 59), position: 1, createdAt: now, updatedAt: now)
        #expect(CalendarFeed.slot(of: late).start == 6 * 60 && CalendarFeed.slot(of: nil).start == 12 * 60)
        let name = "Crème brûlée, \"flambée\"; à la \\ maison\n" + String(repeating: "é", count: 60) + "مرحبا"
        let event = ICalendar.Event(uid: "x@forkcast", start: now, end: now.addingTimeInterval(1800), summary: name, description: "a\r\nb")
        let text = ICalendar.document(name: "Meals", zone: "Europe/Lisbon", events: [event], stamp: now)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        let summary = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }
        #expect(summary == "SUMMARY:Crème brûlée\\, \"flambée\"\\; à la \\\\ maison\\n" + String(repeating: "é", count: 60) + "مرحبا")
        #expect(text.contains("DESCRIPTION:a\\nb\r\n") && text.contains("DTSTART:20261123T000000Z"))
        // One letter with a hundred combining marks is longer than a line: folded inside it, by octets.
        let zalgo = ICalendar.document(name: "e" + String(repeating: "\u{301}", count: 100), zone: "UTC", events: [], stamp: now)
        #expect(zalgo.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }
}
