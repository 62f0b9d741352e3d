import ForkcastCore
import Foundation
import Testing

/// Which days a repeating plan entry falls on, and what a repeat may not be.
@Suite("Plan repeats")
struct PlanRepeatTests {
    let monday = CalendarDate(iso: "2026-12-07")!

    @Test func everyWeekdayFromAWednesdayStartsThatWednesday() {
        let wednesday = monday.adding(days: 2)
        let days = PlanRepeat(weekdays: PlanRepeat.workdays, count: 5).dates(from: wednesday)
        #expect(days.map(\.iso) == ["2026-12-09", "2026-12-10", "2026-12-11", "2026-12-14", "2026-12-15"])
        #expect(days.allSatisfy { $0.isoWeekday <= 5 })
    }

    @Test func everyOtherWeekCountsFromTheFirstDaysWeekAndStopsAtUntil() {
        let rule = PlanRepeat(weekdays: [1, 4], everyWeeks: 2, until: monday.adding(days: 28))
        #expect(rule.dates(from: monday).map(\.iso) == ["2026-12-07", "2026-12-10", "2026-12-21", "2026-12-24", "2027-01-04"])
        #expect(rule.problems(from: monday).isEmpty)
    }

    @Test func noWeekdaysMeansTheFirstDaysWeekdayAndNoEndMeansAYear() {
        let friday = monday.adding(days: 4)
        let days = PlanRepeat().dates(from: friday)
        #expect(days.count == 53 && days.allSatisfy { $0.weekday == .friday })
        #expect(friday.days(until: days.last!) < PlanRepeat.horizonDays)
        #expect(PlanRepeat(weekdays: Array(1...7)).dates(from: monday).count == PlanRepeat.horizonDays, "every day for the horizon at most")
    }

    @Test func aWrongRepeatNamesEachFieldAndNothingThrowsOnHostileNumbers() {
        let bad = PlanRepeat(weekdays: [0, 8], everyWeeks: Int.max, until: monday.adding(days: -1), count: -3)
        #expect(Set(bad.problems(from: monday).map(\.field)) == ["repeat.weekdays", "repeat.everyWeeks", "repeat.until", "repeat.count"])
        #expect(PlanRepeat(until: monday.adding(days: 400)).problems(from: monday).map(\.field) == ["repeat.until"], "more than a year ahead")
        #expect(PlanRepeat(weekdays: [1], until: monday.adding(days: 3)).problems(from: monday.adding(days: 1)).map(\.field) == ["repeat"],
                "no Monday between Tuesday and Friday")
        #expect(bad.dates(from: monday).count <= PlanRepeat.horizonDays, "clamped, never an overflow")
        #expect(PlanRepeat(count: Int.max).problems(from: monday).map(\.field) == ["repeat.count"])
    }

    @Test func aScopeReachesOneTheLaterOrAllDaysOfItsSeries() {
        let series = UUID(), meal = UUID()
        let days = (0..<4).map { Assignment(mealId: meal, date: monday.adding(days: $0), seriesId: series) }
        let alone = Assignment(mealId: meal, date: monday)
        #expect(SeriesScope.one.reach(from: days[1], in: days) == [days[1]])
        #expect(SeriesScope.following.reach(from: days[1], in: days) == Array(days[1...]))
        #expect(SeriesScope.all.reach(from: days[2], in: days + [alone]) == days)
        #expect(SeriesScope.all.reach(from: alone, in: days) == [alone], "an entry that stands alone is its own series")
    }
}
