@testable import ForkcastCore
import Foundation
import Testing

@Suite("The chart's daily average")
struct DailyAverageTests {
    let today = CalendarDate(year: 2026, month: 11, day: 25)!

    @Test func todayStillUnderWayIsLeftOutUnlessItIsTheOnlyDay() throws {
        let days = [
            DailyAverage.Day(date: today.adding(days: -2), energyKcal: 2000, entries: 5),
            DailyAverage.Day(date: today.adding(days: -1), energyKcal: 0, entries: 0),
            DailyAverage.Day(date: today, energyKcal: 300, entries: 1),
        ]
        let average = try #require(DailyAverage.of(days, today: today))
        #expect(average.energyKcal == 2000 && average.days == [today.adding(days: -2)] && average.leftOutToday)
        let onlyToday = try #require(DailyAverage.of([days[2]], today: today))
        #expect(onlyToday.energyKcal == 300 && !onlyToday.leftOutToday)
        #expect(DailyAverage.of([days[1]], today: today) == nil)
        // A past range (today not in it) counts every day with entries.
        let past = try #require(DailyAverage.of(Array(days.prefix(2)) + [DailyAverage.Day(date: today.adding(days: -3), energyKcal: 1000, entries: 2)], today: today))
        #expect(past.energyKcal == 1500 && !past.leftOutToday)
    }
}
