@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

@Suite("Plan API")
struct PlanAPITests {
    @Test func theDefaultWeekStartsTodayInTheUsersTimeZone() async throws {
        // 23:30 UTC on the 21st is already the 22nd in Auckland.
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-21T23:30:00Z")!)
        try await withForkcast(clock: clock) { app in
            let utc = try await app.signUp()
            let plan = try await utc.plan()
            #expect(plan.start == "2026-11-21")
            #expect(plan.today == "2026-11-21")
            #expect(plan.days.map(\.date) == ["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"])
            #expect(plan.days.map(\.weekday) == ["Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
            #expect(plan.end == "2026-11-27")
            #expect(plan.days.allSatisfy { $0.assignments.isEmpty })

            _ = try await utc.send(.PUT, "/api/v1/me", json: ["timeZone": "Pacific/Auckland"])
            #expect(try await utc.plan().start == "2026-11-22")
        }
    }

    @Test func navigationCrossesTheYear() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let plan = try await client.plan("start=2026-12-29")
            #expect(plan.days.map(\.date).last == "2027-01-04")
            #expect(plan.nextStart == "2027-01-05")
            #expect(plan.previousStart == "2026-12-22")
            let leap = try await client.plan("start=2028-02-27&days=3")
            #expect(leap.days.map(\.date) == ["2028-02-27", "2028-02-28", "2028-02-29"])
        }
    }

    @Test func aDayHoldsAnyNumberOfMeals() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let soup = try await client.createMeal("Soup")
            let bread = try await client.createMeal("Bread")
            for meal in [soup, bread, soup] {
                #expect(try await client.assign(meal.id, on: "2026-11-25").status == .created)
            }
            let plan = try await client.plan("start=2026-11-25&days=1")
            #expect(plan.days[0].assignments.map(\.meal.description) == ["Soup", "Bread", "Soup"])
            #expect(plan.days[0].assignments.allSatisfy { $0.date == "2026-11-25" })
        }
    }

    @Test func removingAnAssignment() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let meal = try await client.createMeal("Pizza")
            let assignment = try await client.assign(meal.id, on: "2026-11-26").json(TestAssignment.self)
            #expect(try await client.get("/api/v1/plan/assignments/\(assignment.id)").status == .ok)
            #expect(try await client.send(.DELETE, "/api/v1/plan/assignments/\(assignment.id)").status == .noContent)
            #expect(try await client.plan("start=2026-11-26&days=1").days[0].assignments.isEmpty)
            #expect(try await client.send(.DELETE, "/api/v1/plan/assignments/\(assignment.id)").status == .notFound)
            #expect(try await client.send(.DELETE, "/api/v1/plan/assignments/nope").status == .notFound)
            #expect(try await client.get("/api/v1/meals/\(meal.id)").status == .ok, "the meal stays in the library")
        }
    }

    @Test func badDatesAndRangesAreClientErrors() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let meal = try await client.createMeal("Pizza")
            for query in ["start=2026-02-30", "start=2026-13-01", "start=yesterday", "start=2026-2-3", "days=0", "days=63", "days=seven", "days=-1"] {
                let response = try await client.get("/api/v1/plan?" + query)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.problem?.detail.isEmpty == false)
            }
            let invalidDate = try await client.assign(meal.id, on: "2026-02-30")
            #expect(invalidDate.status == .unprocessableEntity)
            #expect(invalidDate.problem?.message(for: "date")?.contains("YYYY-MM-DD") == true)
            let unknownMeal = try await client.assign(UUID(), on: "2026-11-26")
            #expect(unknownMeal.status == .notFound)
            let missingMeal = try await client.send(.POST, "/api/v1/plan/assignments", json: ["date": "2026-11-26"])
            #expect(missingMeal.status == .unprocessableEntity)
            #expect(missingMeal.problem?.message(for: "mealId") != nil)
            let badID = try await client.send(.POST, "/api/v1/plan/assignments", json: ["mealId": "42", "date": "2026-11-26"])
            #expect(badID.status == .unprocessableEntity)
            #expect(try await client.plan("start=2026-11-20&days=14").days.allSatisfy { $0.assignments.isEmpty })
        }
    }
}
