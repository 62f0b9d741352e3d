import ForkcastCore
import Foundation
import PropertyBased
import Testing

/// The correctness properties of seed 000 that hold in the domain alone. Properties 1, 3, 9, 10 and
/// 11 need storage and live in ForkcastServerTests/StoragePropertyTests.swift; property 2 is proven
/// both here (validation) and there (nothing persisted).
@Suite("Seed 000 correctness properties (domain)", .tags(.property))
struct DomainPropertyTests {
    // Feature: meal-planning-assistant, Property 2: Invalid Meal Rejection
    @Test("Property 2: blank descriptions are rejected") func property2() async {
        await propertyCheck(count: 200, input: Gens.blank, Gens.name.optional) { blank, protein in
            #expect(throws: ValidationError.self) { try MealDraft(description: blank, primaryProtein: protein).validated() }
        }
    }

    // Feature: meal-planning-assistant, Property 4: Meal Display Completeness
    @Test("Property 4: a meal's display names everything it holds") func property4() async {
        await propertyCheck(count: 200, input: Gens.meal) { meal in
            let text = meal.displayText
            #expect(text.contains(meal.description))
            if let protein = meal.primaryProtein { #expect(text.contains(protein)) }
            if let carb = meal.primaryCarb { #expect(text.contains(carb)) }
            for component in meal.otherComponents { #expect(text.contains(component)) }
        }
    }

    // Property 5 (filter correctness) runs against the database, where filtering happens:
    // ForkcastServerTests/StoragePropertyTests.swift. Facets stay here.
    @Test("Facets never hold two values that differ only in case") func facetsAreCaseInsensitive() async {
        await propertyCheck(count: 300, input: Gens.meals) { meals in
            let facets = MealFacets(of: meals)
            #expect(Set(facets.components.map { $0.lowercased() }).count == facets.components.count)
            #expect(Set(facets.proteins.map { $0.lowercased() }) == Set(meals.compactMap { $0.primaryProtein?.lowercased() }))
        }
    }

    // Feature: meal-planning-assistant, Property 6: Week Generation Consistency
    @Test("Property 6: a week is 7 consecutive dates in order") func property6() async {
        await propertyCheck(count: 300, input: Gens.date) { start in
            let dates = WeekWindow(start: start).dates
            #expect(dates.count == 7)
            #expect(dates.first == start)
            for (a, b) in zip(dates, dates.dropFirst()) {
                #expect(a < b)
                #expect(a.days(until: b) == 1)
                #expect(CalendarDate(iso: b.iso) == b, "every date exists on the calendar")
            }
        }
    }

    // Feature: meal-planning-assistant, Property 7: Day Display Completeness
    @Test("Property 7: a day's display names the day, the date and every meal") func property7() async {
        await propertyCheck(count: 200, input: Gens.date, Gens.meal.array(of: 0...6)) { date, meals in
            let assignments = meals.map { Assignment(mealId: $0.id, date: date) }
            let days = PlanBuilder.days(in: WeekWindow(start: date), assignments: assignments,
                                        meals: Dictionary(uniqueKeysWithValues: meals.map { ($0.id, $0) }))
            let day = days[0]
            #expect(day.entries.count == meals.count)
            let text = day.displayText
            #expect(text.contains(date.weekday.name))
            #expect(text.contains(date.iso))
            for meal in meals { #expect(text.contains(meal.description)) }
            #expect(days.dropFirst().allSatisfy { $0.entries.isEmpty })
        }
    }

    // Feature: meal-planning-assistant, Property 8: Week Navigation Correctness
    @Test("Property 8: next and previous move exactly 7 days") func property8() async {
        await propertyCheck(count: 300, input: Gens.date, Gen.int(in: 1...60)) { start, steps in
            let window = WeekWindow(start: start)
            #expect(window.start.days(until: window.next.start) == 7)
            #expect(window.previous.start.days(until: window.start) == 7)
            #expect(window.next.previous == window)
            var moved = window
            for _ in 0..<steps { moved = moved.next }
            #expect(window.start.days(until: moved.start) == 7 * steps)
            #expect(moved.dates.count == 7)
        }
    }

    // Feature: meal-planning-assistant, Property 12: Date Normalization Invariant
    @Test("Property 12: every time of one local day maps to the same date") func property12() async {
        await propertyCheck(count: 300, input: Gens.date, Gens.timeZone, Gen.double(in: 0..<1)) { date, zone, fraction in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
            let next = calendar.date(byAdding: .day, value: 1, to: start)!
            let instant = start.addingTimeInterval(next.timeIntervalSince(start) * fraction)
            #expect(CalendarDate(instant, in: zone) == date)
            #expect(CalendarDate(start, in: zone) == CalendarDate(instant, in: zone))
            #expect(CalendarDate(next, in: zone) == date.adding(days: 1))
        }
    }

    @Test("Day numbers round-trip for every generated date") func dayNumberRoundTrip() async {
        await propertyCheck(count: 300, input: Gens.date, Gen.int(in: -100_000...100_000)) { date, offset in
            #expect(CalendarDate(dayNumber: date.dayNumber) == date)
            #expect(date.adding(days: offset).adding(days: -offset) == date)
            #expect(CalendarDate(iso: date.iso) == date)
        }
    }
}
