import ForkcastCore
import Foundation
import Testing

@Suite("Calendar dates and week windows")
struct CalendarDateTests {
    @Test func parsesOnlyDatesThatExist() {
        #expect(CalendarDate(iso: "2026-02-28") != nil)
        #expect(CalendarDate(iso: "2026-02-29") == nil)
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2026-02-30") == nil)
        #expect(CalendarDate(iso: "2026-13-01") == nil)
        #expect(CalendarDate(iso: "2026-00-10") == nil)
        #expect(CalendarDate(iso: "2026-4-01") == nil)
        #expect(CalendarDate(iso: "2026-04-01T00:00") == nil)
        #expect(CalendarDate(iso: "") == nil)
        #expect(CalendarDate(iso: "２０２６-01-01") == nil)
    }

    @Test func centuryLeapYearRules() {
        #expect(CalendarDate(iso: "2000-02-29") != nil)
        #expect(CalendarDate(iso: "1900-02-29") == nil)
        #expect(CalendarDate(iso: "2100-02-29") == nil)
    }

    @Test func weekCrossesNewYear() {
        let window = WeekWindow(start: CalendarDate(iso: "2026-12-29")!)
        #expect(window.dates.map(\.iso) == ["2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02", "2027-01-03", "2027-01-04"])
        #expect(window.next.start.iso == "2027-01-05")
        #expect(window.previous.start.iso == "2026-12-22")
    }

    @Test func weekCrossesLeapDay() {
        let window = WeekWindow(start: CalendarDate(iso: "2028-02-26")!)
        #expect(window.dates.map(\.iso).contains("2028-02-29"))
        #expect(window.end.iso == "2028-03-03")
    }

    @Test func weekCrossesDaylightSavingChangeWithoutLosingADay() {
        // Europe: clocks went forward on 2026-03-29; the plan still has seven distinct days.
        let window = WeekWindow(start: CalendarDate(iso: "2026-03-27")!)
        #expect(Set(window.dates).count == 7)
        #expect(window.end.iso == "2026-04-02")
    }

    @Test func todayDependsOnTheTimeZone() {
        // 2026-11-21 23:30 UTC is already the 22nd in Paris and still the 21st in New York.
        let instant = ISO8601DateFormatter().date(from: "2026-11-21T23:30:00Z")!
        #expect(CalendarDate(instant, in: TimeZone(identifier: "Europe/Paris")!).iso == "2026-11-22")
        #expect(CalendarDate(instant, in: TimeZone(identifier: "America/New_York")!).iso == "2026-11-21")
    }

    @Test func instantsOfADayFollowTheTimeZone() {
        let day = CalendarDate(iso: "2026-03-29")!  // clocks go forward in Paris at 02:00
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(ISO8601DateFormatter().string(from: day.instant(in: paris)) == "2026-03-28T23:00:00Z")
        #expect(ISO8601DateFormatter().string(from: day.instant(hour: 12, in: paris)) == "2026-03-29T10:00:00Z")
        #expect(CalendarDate(day.instant(hour: 12, in: paris), in: paris) == day)
    }

    @Test func weekdayNames() {
        #expect(CalendarDate(iso: "2026-11-21")!.weekday == .saturday)
        #expect(CalendarDate(iso: "2000-01-01")!.weekday == .saturday)
        #expect(CalendarDate(iso: "1970-01-01")!.weekday == .thursday)
        #expect(CalendarDate(iso: "1969-12-31")!.weekday.name == "Wednesday")
    }

    @Test func navigationHasNoLimit() {
        var window = WeekWindow(start: CalendarDate(iso: "2026-11-21")!)
        for _ in 0..<10_000 { window = window.next }
        #expect(window.start == CalendarDate(iso: "2026-11-21")!.adding(days: 70_000))
        for _ in 0..<20_000 { window = window.previous }
        #expect(window.start == CalendarDate(iso: "2026-11-21")!.adding(days: -70_000))
        #expect(window.start.year == 1835)
        #expect(window.dates.count == 7)
    }

    @Test func decodesAndEncodesAsText() throws {
        let data = try JSONEncoder().encode(["d": CalendarDate(iso: "0999-03-04")!])
        #expect(String(decoding: data, as: UTF8.self) == #"{"d":"0999-03-04"}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: CalendarDate].self, from: Data(#"{"d":"2026-02-30"}"#.utf8)) }
    }
}

@Suite("A range of days asked for")
struct DayRangeTests {
    let today = CalendarDate(iso: "2026-11-29")!

    func asked(_ from: String?, _ to: String?, days: Int = 7, maximum: Int = 400) -> Result<DayRange, DayRange.Problem> {
        DayRange.asked(from: from.flatMap(CalendarDate.init(iso:)), to: to.flatMap(CalendarDate.init(iso:)), today: today,
                       defaultDays: days, maximumDays: maximum)
    }

    @Test func oneEndStandsForTheDefaultSpan() throws {
        #expect(try asked(nil, nil).get() == asked("2026-11-23", "2026-11-29").get())
        #expect(try asked("2026-11-01", nil).get().to == CalendarDate(iso: "2026-11-07"))
        #expect(try asked(nil, "2026-11-07").get().from == CalendarDate(iso: "2026-11-01"))
        #expect(try asked("2026-11-01", nil, days: 30).get().dates.count == 30)
    }

    @Test func aSpanWorkedOutFromOneEndStopsAtThePlausibleDays() throws {
        #expect(try asked(nil, "1900-01-01").get().dates == [CalendarDate(iso: "1900-01-01")!])
        #expect(try asked("2200-12-31", nil).get().dates == [CalendarDate(iso: "2200-12-31")!])
        #expect(try asked(nil, "1900-01-03").get().from == .firstPlausible)
    }

    @Test func backwardsOrTooLongIsRefused() {
        guard case .failure(let backwards) = asked("2026-11-21", "2026-11-17") else { Issue.record("accepted"); return }
        #expect(backwards.message.contains("must not be after"))
        guard case .failure(let long) = asked("2025-01-01", "2026-11-17") else { Issue.record("accepted"); return }
        #expect(long.message == "Ask for at most 400 days at once.")
        #expect(throws: Never.self) { try asked("2025-10-26", "2026-11-29").get() }
    }
}

@Suite("Dates read back from storage")
struct StoredDateTests {
    @Test func whateverWasStoredBecomesARealDate() {
        #expect(CalendarDate(stored: "2026-11-22") == CalendarDate(iso: "2026-11-22"))
        #expect(CalendarDate(stored: "10000-01-01") == CalendarDate(iso: "9999-01-01"))
        #expect(CalendarDate(stored: "0000-12-31") == CalendarDate(iso: "0001-12-31"))
        #expect(CalendarDate(stored: "2026-02-30") == CalendarDate(iso: "2026-02-28"))
        #expect(CalendarDate(stored: "garbage").year >= 1)
    }
}
