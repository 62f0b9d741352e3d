import Foundation
import Testing
@testable import ForkcastCore

/// Seed 004 §10 unit tests: suggestion boundaries, occasions, reassignment on time edits, and
/// meal type validation.
@Suite("Meal types and occasions (seed 004)")
struct MealTypeTests {
    let owner = UUID(uuidString: "00000000-0000-0000-0000-0000000000AA")!
    var types: MealTypeCatalog { .defaults(owner: owner, now: Date(timeIntervalSince1970: 0)) }

    func instant(_ text: String) -> Date { Instant.parse(text)! }

    @Test("The defaults of 004 §5 in order, with stable ids per person")
    func defaults() {
        #expect(types.all.map(\.name) == ["Breakfast", "Lunch", "Dinner", "Afternoon Snack", "Snack", "Workout Fuel", "Protein Shake"])
        #expect(types.all.allSatisfy { $0.isSystem })
        let again = MealTypeCatalog.defaults(owner: owner, now: Date()).all.map(\.id)
        let others = MealTypeCatalog.defaults(owner: UUID(), now: Date()).all.map(\.id)
        let ids = types.all.map(\.id)
        #expect(again == ids, "the same ids every time")
        #expect(others != ids, "another person's ids differ")
        #expect(Set(types.all.map(\.id)).count == 7)
    }

    @Test("Suggestion boundaries: 10:59, 11:00, 14:59, 15:00, 17:59, 18:00, midnight", arguments: [
        ("10:59", "breakfast"), ("11:00", "lunch"), ("14:59", "lunch"), ("15:00", "afternoon-snack"), ("17:59", "afternoon-snack"),
        ("18:00", "dinner"), ("23:59", "dinner"), ("00:00", "breakfast"), ("00:30", "breakfast"),
    ])
    func boundaries(time: String, expected: String) {
        #expect(types.suggested(minute: SuggestionWindow.minute(time)!).key == expected)
        #expect(types.suggested(at: instant("2026-11-22T\(time):00Z"), in: TimeZone(identifier: "UTC")!).key == expected)
    }

    @Test("The suggestion follows the person's time zone, across midnight")
    func timeZones() {
        let at = instant("2026-11-22T23:30:00Z")
        #expect(types.suggested(at: at, in: TimeZone(identifier: "UTC")!).key == "dinner")
        #expect(types.suggested(at: at, in: TimeZone(identifier: "Europe/Berlin")!).key == "breakfast", "00:30 on the next day in Berlin")
        #expect(types.suggested(at: at, in: TimeZone(identifier: "America/Los_Angeles")!).key == "afternoon-snack", "15:30 in Los Angeles")
        #expect(types.suggested(at: instant("2026-11-22T04:00:00Z"), in: TimeZone(identifier: "Asia/Kolkata")!).key == "breakfast", "09:30 in Kolkata")
        #expect(types.suggested(at: instant("2026-11-22T05:30:00Z"), in: TimeZone(identifier: "Asia/Kolkata")!).key == "lunch", "11:00 in Kolkata")
    }

    @Test("Custom windows, windows across midnight, hidden types and Snack as the catch-all")
    func customWindows() {
        var all = types.all
        all[0].window = SuggestionWindow(start: "05:00", end: "10:59")
        let late = MealType(id: UUID(), key: nil, name: "Late bite", window: SuggestionWindow(start: "22:00", end: "04:59"), position: 1,
                            createdAt: Date(), updatedAt: Date())
        all[2].window = SuggestionWindow(start: "18:00", end: "21:59")
        var catalog = MealTypeCatalog(all + [late])
        #expect(catalog.suggested(minute: 23 * 60).name == "Late bite")
        #expect(catalog.suggested(minute: 2 * 60).name == "Late bite", "a window may wrap past midnight")
        #expect(catalog.suggested(minute: 5 * 60).key == "breakfast")
        all = catalog.all
        let lateIndex = all.firstIndex { $0.name == "Late bite" }!
        all[lateIndex].hidden = true
        catalog = MealTypeCatalog(all)
        #expect(catalog.suggested(minute: 2 * 60).key == "snack", "a hidden type is not suggested; Snack catches the rest")
        #expect(!catalog.offered.contains { $0.name == "Late bite" })
        #expect(catalog.resolve(late.id.uuidString)?.name == "Late bite", "but its entries still resolve")
    }

    @Test("A type resolves by key in any case or by any id; others are refused with one message")
    func resolving() {
        #expect(types.normalized("Breakfast") == "breakfast")
        let lunch = types.all[1]
        #expect(types.normalized(lunch.id.uuidString) == "lunch", "a system type's id stores as its key")
        #expect(types.normalized(lunch.id.uuidString.lowercased()) == "lunch")
        #expect(types.problem("brunch") != nil)
        #expect(types.problem("snack") == nil)
        #expect(types.problem(UUID().uuidString) != nil, "another person's id is unknown here")
    }

    @Test("Names: required, at most 40 characters, unique ignoring case, no control characters")
    func names() {
        #expect(types.problems(id: nil, name: "Second breakfast", window: nil).isEmpty)
        #expect(types.problems(id: nil, name: "  ", window: nil).first?.field == "displayName")
        #expect(types.problems(id: nil, name: "LUNCH", window: nil).first?.message.contains("already") == true)
        #expect(types.problems(id: nil, name: "lunch ", window: nil).isEmpty == false)
        #expect(types.problems(id: types.all[1].id, name: "LUNCH", window: nil).isEmpty, "renaming a type to its own name in other case is fine")
        #expect(!types.problems(id: nil, name: String(repeating: "x", count: 41), window: nil).isEmpty)
        #expect(!types.problems(id: nil, name: "Tea\u{7}", window: nil).isEmpty)
        #expect(types.problems(id: nil, name: "Café \u{0301}☕️ مساء", window: nil).isEmpty, "combining marks and RTL are names too")
        #expect(types.problems(id: nil, name: "Brunch", window: .some(("25:00", "10:00"))).first?.field == "window")
        #expect(types.problems(id: nil, name: "Brunch", window: .some(("9:00", "10:00"))).first?.field == "window", "HH:MM with two digits")
        #expect(types.problems(id: nil, name: "Brunch", window: .some(nil)).isEmpty)
    }

    func entry(_ at: String, _ type: String, date: String? = nil, photo: Bool = false) -> DiaryEntry {
        let loggedAt = instant(at)
        return DiaryEntry(loggedAt: loggedAt, date: CalendarDate(iso: date ?? String(at.prefix(10)))!, mealType: type,
                          kind: photo ? .photo : .quickAdd, name: "x", nutrients: photo ? Nutrients() : Nutrients(energyKcal: 100))
    }

    @Test("Entries of one type on one date are one occasion; another date or type is another")
    func occasions() {
        let a = entry("2026-11-22T12:00:00Z", "lunch"), b = entry("2026-11-22T12:40:00Z", "lunch")
        let c = entry("2026-11-22T13:00:00Z", "snack"), d = entry("2026-11-23T12:00:00Z", "lunch")
        #expect(a.occasionId(owner: owner) == b.occasionId(owner: owner), "an existing occasion is joined")
        #expect(a.occasionId(owner: owner) != c.occasionId(owner: owner), "another type is a new occasion")
        #expect(a.occasionId(owner: owner) != d.occasionId(owner: owner), "another day is a new occasion")
        #expect(a.occasionId(owner: owner) != a.occasionId(owner: UUID()), "occasions are per person")
        let grouped = OccasionSummary.group([d, c, b, a, entry("2026-11-22T08:00:00Z", "breakfast", photo: true)], owner: owner)
        #expect(grouped.map(\.mealType) == ["lunch", "snack", "lunch", "breakfast"], "newest first: by day, then by when each began")
        #expect(grouped[2].entries.map(\.loggedAt) == [a.loggedAt, b.loggedAt])
        #expect(grouped[2].totals.energyKcal == 200)
        #expect(grouped[3].uncounted == 1 && (grouped[3].totals.energyKcal ?? 0) == 0, "a photo is not counted yet")
    }

    @Test("A page of occasions ends at a day boundary")
    func paging() {
        let entries = (0..<5).flatMap { day in
            ["breakfast", "lunch", "dinner"].enumerated().map { i, t in entry("2026-11-\(10 + day)T" + String(format: "%02d", 7 + i * 2) + ":00:00Z", t) }
        }
        let all = OccasionSummary.group(entries, owner: owner)
        #expect(all.count == 15)
        let page = OccasionSummary.page(all, limit: 4)
        #expect(page.count == 6, "4 reach into the second day; its other occasions come with it")
        #expect(Set(page.map(\.date)).count == 2)
        #expect(OccasionSummary.page(all, limit: 3).count == 3)
        #expect(OccasionSummary.page(all, limit: 100).count == 15)
    }

    @Test("A time edit that changes the day or the type moves the entry; the same occasion does not")
    func reassignment() {
        let lunch = entry("2026-11-22T12:00:00Z", "lunch")
        var later = lunch
        later.loggedAt = instant("2026-11-22T13:30:00Z")
        #expect(!lunch.timeEditMovesOccasion(to: later), "a later time the same day stays in Tuesday lunch")
        var nextDay = lunch
        nextDay.loggedAt = instant("2026-11-23T12:00:00Z"); nextDay.date = CalendarDate(iso: "2026-11-23")!
        #expect(lunch.timeEditMovesOccasion(to: nextDay))
        var retyped = later
        retyped.mealType = "snack"
        #expect(lunch.timeEditMovesOccasion(to: retyped), "a new time with a new type moves it")
        var typeOnly = lunch
        typeOnly.mealType = "dinner"
        #expect(!lunch.timeEditMovesOccasion(to: typeOnly), "choosing another type alone is not a time edit")
    }

    @Test("Windows read and write HH:MM")
    func windows() {
        #expect(SuggestionWindow.minute("00:00") == 0 && SuggestionWindow.minute("23:59") == 1439)
        #expect(SuggestionWindow.minute("24:00") == nil && SuggestionWindow.minute("7:00") == nil && SuggestionWindow.minute("07:0a") == nil)
        #expect(SuggestionWindow.minute("٠٧:٠٠") == nil, "ASCII digits only")
        #expect(SuggestionWindow(start: "18:00", end: "23:59")?.endText == "23:59")
    }
}
