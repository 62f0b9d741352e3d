import ForkcastCore
import Foundation
import Testing

@Suite("Diary links for a coach")
struct DiaryLinkTests {
    let now = Date(timeIntervalSince1970: 1_795_392_000)
    let day = CalendarDate(iso: "2026-11-20")!

    @Test func aLinkCoversAtMostAYearExpiresWithinOneAndShowsSomething() throws {
        let made = try DiaryLink.validated(from: day, to: day.adding(days: 365), expiresAt: nil, shows: nil, now: now)
        #expect(made.expiresAt == now.addingTimeInterval(30 * 86_400) && made.shows == Set(DiaryLink.Part.allCases))
        func fields(_ from: CalendarDate, _ to: CalendarDate, _ expires: Date?, _ shows: [String]?) -> [String] {
            do {
                _ = try DiaryLink.validated(from: from, to: to, expiresAt: expires, shows: shows, now: now)
                return []
            } catch { return error.fields.map(\.field) }
        }
        #expect(fields(day, day.adding(days: -1), nil, nil) == ["to"])
        #expect(fields(day, day.adding(days: 366), nil, nil) == ["to"])
        #expect(fields(day, day, now, nil) == ["expiresAt"])
        #expect(fields(day, day, now.addingTimeInterval(367 * 86_400), nil) == ["expiresAt"])
        #expect(fields(day, day, nil, []) == ["shows"])
        #expect(fields(day, day, nil, ["diary", "email"]) == ["shows"], "an unknown part is refused, not dropped")
        #expect(fields(day, day, nil, ["weights", "weights"]) == [], "a part twice is one part")
    }

    @Test func itOpensOnADayItCoversAndShowsOnlyItsParts() {
        let link = DiaryLink(id: UUID(), tokenHash: "h", from: day, to: day.adding(days: 6), expiresAt: now, shows: [.diary], createdAt: now)
        #expect(link.day(asked: nil, today: day.adding(days: 3)) == day.adding(days: 3))
        #expect(link.day(asked: nil, today: day.adding(days: 30)) == day.adding(days: 6), "the last day once the range is past")
        #expect(link.day(asked: nil, today: day.adding(days: -5)) == day, "the first day before it begins")
        #expect(link.day(asked: day.adding(days: 7), today: day) == nil && link.day(asked: day.adding(days: -1), today: day) == nil)
        #expect(!link.isOpen(at: now) && link.isOpen(at: now.addingTimeInterval(-1)))
        var all = Nutrients(energyKcal: 500, protein: 20, carbohydrates: 60, fat: 10, fiber: 8)
        all[.vitaminC] = 30
        #expect(link.visible(all) == Nutrients(energyKcal: 500, protein: 20, carbohydrates: 60, fat: 10))
        var nutrients = link
        nutrients.shows = [.nutrients]
        #expect(nutrients.visible(all) == all)
        var weights = link
        weights.shows = [.weights]
        #expect(weights.visible(all).isEmpty)
    }

    @Test func aLinkGoodThroughTheDayAYearAheadIsAllowedAndSaysItsLastDay() throws {
        let zone = TimeZone(identifier: "America/New_York")!
        let today = CalendarDate(now, in: zone)
        let through = DiaryLink.expiry(through: today.adding(days: DiaryLink.maximumLifetimeDays), in: zone)
        let made = try DiaryLink.validated(from: day, to: day, expiresAt: through, shows: nil, now: now)
        #expect(made.expiresAt == through)
        let tooLate = DiaryLink.expiry(through: today.adding(days: DiaryLink.maximumLifetimeDays + 1), in: zone)
        #expect(throws: ValidationError.self) { try DiaryLink.validated(from: day, to: day, expiresAt: tooLate, shows: nil, now: now) }
        var link = DiaryLink(id: UUID(), tokenHash: "h", from: day, to: day, expiresAt: through, shows: [.diary], createdAt: now)
        #expect(link.lastDay(in: zone) == today.adding(days: DiaryLink.maximumLifetimeDays))
        link.expiresAt = through.addingTimeInterval(90)
        #expect(link.lastDay(in: zone) == nil, "a link made for another time says that time")
    }
}
