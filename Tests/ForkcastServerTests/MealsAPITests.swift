import Fluent
@testable import ForkcastServer
import Foundation
import Testing
import SQLKit
import VaporTesting

@Suite("Meals API")
struct MealsAPITests {
    @Test func createReadUpdateDelete() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let created = try await client.createMeal("  Chicken curry ", protein: " Chicken", carb: "Rice", components: ["Garlic", " garlic ", "", "Onion"])
            #expect(created.description == "Chicken curry")
            #expect(created.primaryProtein == "Chicken")
            #expect(created.otherComponents == ["Garlic", "Onion"])
            #expect(created.isPlanned == false)

            let read = try await client.get("/api/v1/meals/\(created.id)")
            #expect(read.status == .ok)
            #expect(try read.json(TestMeal.self) == created)

            let updated = try await client.send(.PUT, "/api/v1/meals/\(created.id)",
                                                json: ["description": "Chicken korma", "primaryCarb": "Naan"])
            #expect(updated.status == .ok)
            let meal = try updated.json(TestMeal.self)
            #expect(meal.description == "Chicken korma")
            #expect(meal.primaryProtein == nil, "PUT replaces the whole meal")
            #expect(meal.primaryCarb == "Naan")
            #expect(meal.otherComponents.isEmpty)

            #expect(try await client.send(.DELETE, "/api/v1/meals/\(created.id)").status == .noContent)
            #expect(try await client.get("/api/v1/meals/\(created.id)").status == .notFound)
            #expect(try await client.send(.DELETE, "/api/v1/meals/\(created.id)").status == .notFound, "deleting what does not exist")
        }
    }

    @Test func emptyLibrary() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let page = try await client.meals()
            #expect(page.items.isEmpty)
            #expect(page.metadata.total == 0)
            let facets = try await client.get("/api/v1/meals/facets").json(TestFacets.self)
            #expect(facets == TestFacets(proteins: [], carbs: [], components: []))
            #expect(try await client.meals("protein=chicken").items.isEmpty)
        }
    }

    @Test func badInputIsAClearClientErrorAndChangesNothing() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let blank = try await client.send(.POST, "/api/v1/meals", json: ["description": "   "])
            #expect(blank.status == .unprocessableEntity)
            #expect(blank.headers.contentType?.description.hasPrefix("application/problem+json") == true)
            #expect(blank.problem?.message(for: "description")?.contains("required") == true)

            let missing = try await client.send(.POST, "/api/v1/meals", raw: #"{"primaryProtein":"Tofu"}"#)
            #expect(missing.status == .unprocessableEntity)
            #expect(missing.problem?.message(for: "description") != nil)

            let wrongType = try await client.send(.POST, "/api/v1/meals", raw: #"{"description": 42}"#)
            #expect(wrongType.status == .unprocessableEntity)
            #expect(wrongType.problem?.message(for: "description")?.contains("string") == true)

            let wrongComponents = try await client.send(.POST, "/api/v1/meals", raw: #"{"description": "x", "otherComponents": "garlic"}"#)
            #expect(wrongComponents.status == .unprocessableEntity)
            #expect(wrongComponents.problem?.message(for: "otherComponents") != nil)

            let malformed = try await client.send(.POST, "/api/v1/meals", raw: #"{"description": "x","#)
            #expect(malformed.status == .badRequest)
            #expect(malformed.problem?.detail.contains("JSON") == true)

            let empty = try await client.send(.POST, "/api/v1/meals", raw: "")
            #expect(empty.status == .badRequest)

            let notJSON = try await client.send(.POST, "/api/v1/meals", raw: "description=x", contentType: "application/x-www-form-urlencoded")
            #expect(notJSON.status == .unsupportedMediaType)
            // JSON's media types with parameters or a +json suffix are read; a look-alike is not.
            for (type, read) in [("application/json; charset=utf-8", true), ("application/vnd.forkcast+json", true),
                                 ("application/jsonp", false), ("application/json-seq", false), ("text/json", false)] {
                let answer = try await client.send(.POST, "/api/v1/meals", raw: #"{"description": "x","#, contentType: type)
                #expect(answer.status == (read ? .badRequest : .unsupportedMediaType), "\(type)")
            }

            let huge = try await client.send(.POST, "/api/v1/meals", json: ["description": String(repeating: "a", count: 200_000)],
                                             overTheNetwork: true)
            #expect(huge.status == .payloadTooLarge)
            #expect(huge.problem?.status == 413)

            let tooLong = try await client.send(.POST, "/api/v1/meals", json: ["description": String(repeating: "a", count: 201)])
            #expect(tooLong.status == .unprocessableEntity)
            #expect(tooLong.problem?.message(for: "description")?.contains("200") == true)

            #expect(try await client.meals().metadata.total == 0, "nothing was written")
        }
    }

    @Test func unknownAndMalformedIdsAreNotFound() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            #expect(try await client.get("/api/v1/meals/\(UUID())").status == .notFound)
            #expect(try await client.get("/api/v1/meals/not-a-uuid").status == .notFound)
            let update = try await client.send(.PUT, "/api/v1/meals/\(UUID())", json: ["description": "Ghost"])
            #expect(update.status == .notFound)
            #expect(try await client.meals().metadata.total == 0)
        }
    }

    @Test func filtersMatchIgnoringCaseAndAllMustMatch() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let curry = try await client.createMeal("Curry", protein: "Chicken", carb: "Rice", components: ["Garlic", "Onion"])
            let bolognese = try await client.createMeal("Bolognese", protein: "Beef", carb: "Pasta", components: ["garlic", "Tomato"])
            _ = try await client.createMeal("Salad")

            #expect(try await client.meals("protein=%20chicken%20").items.map(\.id) == [curry.id])
            #expect(try await client.meals("carb=PASTA").items.map(\.id) == [bolognese.id])
            #expect(Set(try await client.meals("component=GARLIC").items.map(\.id)) == [curry.id, bolognese.id])
            #expect(try await client.meals("component=garlic&component=onion").items.map(\.id) == [curry.id])
            #expect(try await client.meals("protein=beef&component=onion").items.isEmpty)
            #expect(try await client.meals("q=bolo").items.map(\.id) == [bolognese.id])
            #expect(try await client.meals("q=tomato").items.map(\.id) == [bolognese.id])
            #expect(try await client.meals("q=100%25").items.isEmpty, "LIKE wildcards are taken literally")
            #expect(try await client.meals().items.count == 3)
        }
    }

    @Test func paginationReportsTheTotal() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for i in 0..<7 { _ = try await client.createMeal(String(format: "Meal %02d", i)) }
            let second = try await client.meals("page=2&per=3")
            #expect(second.items.map(\.description) == ["Meal 03", "Meal 04", "Meal 05"])
            #expect(second.metadata.page == 2 && second.metadata.per == 3 && second.metadata.total == 7)
            #expect(try await client.meals("page=4&per=3").items.isEmpty)
            #expect(try await client.get("/api/v1/meals?per=0").status == .badRequest)
            #expect(try await client.get("/api/v1/meals?page=abc").status == .badRequest)
            #expect(try await client.get("/api/v1/meals?per=5000").status == .badRequest)
        }
    }

    @Test func plannedMealsAreListedLast() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let apple = try await client.createMeal("Apple pie")
            let bagel = try await client.createMeal("Bagel")
            let curry = try await client.createMeal("Curry")
            #expect(try await client.assign(apple.id, on: "2026-11-23").status == .created)
            #expect(try await client.assign(curry.id, on: "2026-12-25").status == .created)

            let page = try await client.meals()
            #expect(page.items.map(\.description) == ["Bagel", "Curry", "Apple pie"])
            #expect(page.items.map(\.isPlanned) == [false, false, true])

            let christmas = try await client.meals("plannedFrom=2026-12-21&plannedTo=2026-12-27")
            #expect(christmas.items.map(\.description) == ["Apple pie", "Bagel", "Curry"])
            #expect(christmas.items.last?.isPlanned == true)
            #expect(try await client.get("/api/v1/meals/\(bagel.id)").json(TestMeal.self).isPlanned == false)
            #expect(try await client.get("/api/v1/meals?plannedFrom=2026-12-27&plannedTo=2026-12-21").status == .badRequest)
        }
    }

    /// Numbers in descriptions sort by value on SQLite and PostgreSQL alike, and meals stored
    /// before that have their keys made again by the migration.
    @Test func numbersInDescriptionsSortByValue() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for name in ["Soup #106", "soup #36", "Soup #7", "Apple", "Soup #0036b", "Soup", "Bowl 2", "Bowl 10", "Bowl 1.5"] {
                _ = try await client.createMeal(name)
            }
            let order = ["Apple", "Bowl 1.5", "Bowl 2", "Bowl 10", "Soup", "Soup #7", "soup #36", "Soup #0036b", "Soup #106"]
            #expect(try await client.meals("per=50").items.map(\.description) == order)
            // Keys as stored before (the description ignoring case): the migration makes them again.
            let sql = app.db as! any SQLDatabase
            try await M019_MealNumberOrder().revert(on: app.db)
            let old = try await sql.raw("SELECT description_key FROM meals WHERE description = 'Soup #106'").first()?.decode(column: "description_key", as: String.self)
            #expect(old == "soup #106")
            #expect(try await client.meals("per=50").items.map(\.description) != order, "the old keys sort #106 before #36")
            try await M019_MealNumberOrder().prepare(on: app.db)
            #expect(try await client.meals("per=50").items.map(\.description) == order)
        }
    }

    @Test func facetsAreDistinctIgnoringCase() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            _ = try await client.createMeal("A", protein: "Chicken", carb: "Rice", components: ["Garlic"])
            _ = try await client.createMeal("B", protein: "chicken", carb: "Pasta", components: ["GARLIC", "Basil"])
            let facets = try await client.get("/api/v1/meals/facets").json(TestFacets.self)
            #expect(facets == TestFacets(proteins: ["Chicken"], carbs: ["Pasta", "Rice"], components: ["Basil", "Garlic"]))
        }
    }

    @Test func deletingAMealRemovesItsAssignments() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let meal = try await client.createMeal("Tacos")
            let assignment = try await client.assign(meal.id, on: "2026-11-24").json(TestAssignment.self)
            #expect(try await client.send(.DELETE, "/api/v1/meals/\(meal.id)").status == .noContent)
            #expect(try await client.get("/api/v1/plan/assignments/\(assignment.id)").status == .notFound)
            #expect(try await AssignmentModel.query(on: app.db).count() == 0)
            let plan = try await client.plan("start=2026-11-24&days=1")
            #expect(plan.days[0].assignments.isEmpty)
        }
    }
}
