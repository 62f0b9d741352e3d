@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Each user sees only their own meals and plan; another user's id is a 404.
@Suite("Per-user isolation")
struct IsolationTests {
    @Test func anotherUsersMealIsNotFound() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            let meal = try await alice.createMeal("Alice's lasagne", protein: "Beef", components: ["Secret sauce"])

            #expect(try await bob.get("/api/v1/meals/\(meal.id)").status == .notFound)
            #expect(try await bob.send(.PUT, "/api/v1/meals/\(meal.id)", json: ["description": "Stolen"]).status == .notFound)
            #expect(try await bob.send(.DELETE, "/api/v1/meals/\(meal.id)").status == .notFound)
            #expect(try await bob.assign(meal.id, on: "2026-11-25").status == .notFound)
            #expect(try await bob.meals().items.isEmpty)
            #expect(try await bob.get("/api/v1/meals/facets").json(TestFacets.self).components.isEmpty)

            let untouched = try await alice.get("/api/v1/meals/\(meal.id)").json(TestMeal.self)
            #expect(untouched.description == "Alice's lasagne")
        }
    }

    @Test func anotherUsersPlanIsInvisible() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            let meal = try await alice.createMeal("Risotto")
            let assignment = try await alice.assign(meal.id, on: "2026-11-25").json(TestAssignment.self)

            #expect(try await bob.plan("start=2026-11-25&days=1").days[0].assignments.isEmpty)
            #expect(try await bob.get("/api/v1/plan/assignments/\(assignment.id)").status == .notFound)
            #expect(try await bob.send(.DELETE, "/api/v1/plan/assignments/\(assignment.id)").status == .notFound)
            #expect(try await alice.plan("start=2026-11-25&days=1").days[0].assignments.count == 1)
        }
    }

    @Test func filtersNeverReachAcrossAccounts() async throws {
        try await withForkcast(allowSignup: true) { app in
            let alice = try await app.signUp("alice@example.com")
            let bob = try await app.signUp("bob@example.com")
            _ = try await alice.createMeal("Chili", protein: "Beans", components: ["Cumin"])
            let bobs = try await bob.createMeal("Tacos", protein: "Beans", components: ["Cumin"])
            #expect(try await bob.meals("protein=beans&component=cumin").items.map(\.id) == [bobs.id])
            #expect(try await bob.meals("q=chili").items.isEmpty)
        }
    }
}
