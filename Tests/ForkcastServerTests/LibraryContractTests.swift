import FluentKit
import ForkcastApp
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// One contract for every ``Library``: the server's (run here on SQLite, and on PostgreSQL when the
/// test script sets `FORKCAST_TEST_DATABASE_URL`) and the in-memory fake the use cases are tested
/// with alone. A behaviour the fake has and the database lacks (or the other way) fails here.
@Suite("The library contract: SQLite, PostgreSQL and the in-memory fake")
struct LibraryContractTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case inMemory, database
        var testDescription: String { self == .inMemory ? "in memory" : (TestDatabase.postgresURL == nil ? "SQLite" : "PostgreSQL") }
    }

    /// `body` with a way to make a new person's library on `backend`.
    func withLibraries(_ backend: Backend, _ body: @escaping (_ person: @escaping () async throws -> any Library) async throws -> Void) async throws {
        try await withPeople(backend) { person in try await body { try await person().library } }
    }

    /// One person on a backend: their library, their body store, and the last change the change
    /// feed holds for one of their records (true: a deletion; nil: none).
    struct Person {
        let id: UUID
        let library: any Library
        let body: any BodyStore
        let diary: any Diary
        let lastChange: (SyncKind, UUID) async throws -> Bool?
    }

    /// `body` with a way to make a new person on `backend`.
    func withPeople(_ backend: Backend, _ body: @escaping (_ person: @escaping () async throws -> Person) async throws -> Void) async throws {
        switch backend {
        case .inMemory:
            let libraries = InMemoryLibraries()
            try await body {
                let id = UUID()
                return Person(id: id, library: libraries.library(of: id), body: libraries.body(of: id),
                              diary: libraries.diary(of: id, zone: .gmt)) { kind, record in
                    libraries.contents.changes.last { $0.kind == kind && $0.id == record }?.deleted
                }
            }
        case .database:
            try await withForkcast(allowSignup: true) { app in
                try await body {
                    let email = "p\(UUID().uuidString.prefix(8).lowercased())@example.com"
                    _ = try await app.signUp(email)
                    let user = try #require(try await UserModel.query(on: app.db).filter(\.$email == email).first())
                    let id = try user.requireID()
                    return Person(id: id, library: FluentLibrary(db: app.db, ownerID: id), body: FluentBodyStore(db: app.db, ownerID: id),
                                  diary: FluentDiary(user: user, db: app.db, now: Date(), photoStore: app.photoStore)) { kind, record in
                        try await SyncLog.version(kind, record, owner: id, on: app.db).map { $0.op == .delete }
                    }
                }
            }
        }
    }

    /// Whole seconds, so every database gives back exactly what it was given.
    let monday = Date(timeIntervalSince1970: 1_795_392_000)

    func food(_ name: String, barcode: String? = nil, at time: Date) throws -> Food {
        try FoodDraft(name: name, barcode: barcode, per100: Nutrients(energyKcal: 372, protein: 13.5, carbohydrates: 60, fat: 7))
            .validated(id: UUID(), createdAt: time, now: time)
    }

    /// The database reads a long list of ids in chunks of 500 (every driver's bind limit).
    @Test(arguments: Backend.allCases) func moreFoodsThanOneChunkAreFoundById(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person(), bob = try await person()
            let foods = try (0..<501).map { try food("Food \($0)", at: monday) }
            try await ann.write { tx async throws in for food in foods { try await tx.foods.insert(food) } }
            try await ann.write { tx async throws in
                let found = try await tx.foods.find(ids: foods.map(\.id) + [foods[0].id, UUID()])
                #expect(found.count == 501 && found[foods[500].id]?.name == "Food 500")
            }
            try await bob.write { tx async throws in #expect(try await tx.foods.find(ids: foods.map(\.id)).isEmpty) }
        }
    }

    @Test(arguments: Backend.allCases) func foodsAreFoundChangedAndDeletedOnlyByTheirOwner(_ backend: Backend) async throws {
        try await withPeople(backend) { person in
            let annPerson = try await person()
            let ann = annPerson.library, bob = try await person().library
            let oats = try food("Rolled oats", barcode: "737628064502", at: monday)
            try await ann.write { try await $0.foods.insert(oats) }
            let barcode = try #require(oats.barcode)
            try await ann.write { tx async throws in
                let found = try #require(try await tx.foods.find(oats.id))
                #expect(found.name == "Rolled oats" && found.barcode == oats.barcode && found.createdAt == monday && found.per100 == oats.per100)
                #expect(try await tx.foods.find(ids: [oats.id, UUID()]).keys.sorted() == [oats.id])
                #expect(try await tx.foods.holder(of: barcode, except: UUID())?.id == oats.id)
                #expect(try await tx.foods.holder(of: barcode, except: oats.id) == nil, "a food does not hold its own barcode against itself")
            }
            try await bob.write { tx async throws in
                #expect(try await tx.foods.find(oats.id) == nil)
                #expect(try await tx.foods.find(ids: [oats.id]).isEmpty)
                #expect(try await tx.foods.holder(of: barcode, except: UUID()) == nil)
                var stolen = oats
                stolen.name = "Mine now"
                #expect(try await tx.foods.replace(stolen) == false)
                #expect(try await tx.foods.delete(oats.id, now: monday) == false)
            }
            await #expect(throws: (any Error).self, "an id already stored, whoever holds it") {
                try await bob.write { try await $0.foods.insert(oats) }
            }
            var changed = oats
            changed.name = "Jumbo oats"
            changed.updatedAt = monday.addingTimeInterval(60)
            let jumbo = changed
            try await ann.write { tx async throws in
                #expect(try await tx.foods.replace(jumbo))
                #expect(try await tx.foods.find(oats.id)?.createdAt == monday, "createdAt stays as first stored")
                #expect(try await tx.foods.find(oats.id)?.name == "Jumbo oats")
                #expect(try await tx.foods.delete(oats.id, now: monday))
                #expect(try await tx.foods.find(oats.id) == nil)
                #expect(try await tx.foods.delete(oats.id, now: monday) == false, "already gone")
            }
            #expect(try await annPerson.lastChange(.food, oats.id) == true, "the deletion is in the change feed")
            let kept = try food("Kept oats", at: monday)
            await #expect(throws: (any Error).self, "a food an ingredient refers to is not deleted by the records either") {
                try await ann.write { tx async throws in
                    try await tx.foods.insert(kept)
                    _ = try await tx.meals.insert(try MealDraft(description: "Porridge", ingredients: [Ingredient(foodId: kept.id, quantity: 50, unit: .gram)]).validated(),
                                                  id: UUID(), now: monday)
                    _ = try await tx.foods.delete(kept.id, now: monday)
                }
            }
        }
    }

    @Test(arguments: Backend.allCases) func mealsKeepTheirContentAndAPlannedOneIsNotDeletedByTheRecords(_ backend: Backend) async throws {
        try await withPeople(backend) { person in
            let annPerson = try await person()
            let ann = annPerson.library, bob = try await person().library
            let oats = try food("Rolled oats", at: monday)
            let content = try MealDraft(description: "Porridge", primaryProtein: "Milk", primaryCarb: "Oats", otherComponents: ["Berries", "Honey"],
                                        servings: 2, ingredients: [Ingredient(foodId: oats.id, quantity: 80, unit: .gram)]).validated()
            let mealID = UUID()
            let meal = try await ann.write { tx async throws in
                try await tx.foods.insert(oats)
                return try await tx.meals.insert(content, id: mealID, now: monday)
            }
            #expect(meal.content == content && meal.createdAt == monday && meal.updatedAt == monday)
            let friday = try #require(CalendarDate(iso: "2026-11-27"))
            let assignment = Assignment(id: UUID(), mealId: mealID, date: friday, createdAt: monday, mealType: "dinner")
            try await ann.write { tx async throws in
                #expect(try await tx.meals.find(mealID) == meal)
                #expect(try await tx.foods.meals(using: oats.id) == ["Porridge"])
                try await tx.plan.insert(assignment, now: monday)
            }
            try await bob.write { tx async throws in
                #expect(try await tx.meals.find(mealID) == nil)
                #expect(try await tx.foods.meals(using: oats.id).isEmpty)
                #expect(try await tx.meals.replace(mealID, with: content, now: monday) == nil)
                #expect(try await tx.plan.delete(assignment.id, now: monday) == nil)
                #expect(try await tx.plan.deleteAll(of: mealID, now: monday).isEmpty, "Bob has no plan of Ann's meal")
                #expect(try await tx.meals.delete(mealID, now: monday) == false)
            }
            let tuesday = monday.addingTimeInterval(86_400)
            let soup = try MealDraft(description: "Soup", manualNutrition: Nutrients(energyKcal: 250, protein: 12.5)).validated()
            try await ann.write { tx async throws in
                let changed = try #require(try await tx.meals.replace(mealID, with: soup, now: tuesday))
                #expect(changed.content == soup && changed.createdAt == monday && changed.updatedAt == tuesday)
                #expect(try await tx.meals.find(mealID) == changed)
                #expect(try await tx.foods.meals(using: oats.id).isEmpty, "its ingredients went with the change")
            }
            await #expect(throws: StillReferenced.self, "a meal still planned is not deleted by the records (the feed would miss its plan days)") {
                try await ann.write { tx async throws in _ = try await tx.meals.delete(mealID, now: tuesday) }
            }
            #expect(try await ann.write { try await $0.meals.find(mealID) } != nil, "nothing was deleted")
            try await ann.write { tx async throws in
                #expect(try await tx.plan.deleteAll(of: mealID, now: tuesday) == [assignment])
                #expect(try await tx.plan.delete(assignment.id, now: tuesday) == nil, "the plan day is gone")
                #expect(try await tx.meals.delete(mealID, now: tuesday))
            }
            #expect(try await annPerson.lastChange(.meal, mealID) == true)
            #expect(try await annPerson.lastChange(.assignment, assignment.id) == true, "the plan day's deletion is in the feed too")
        }
    }

    @Test(arguments: Backend.allCases) func mealTypesStartAsTheDefaultsAndMoveInOrder(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person(), bob = try await person()
            let defaults = try await ann.write { tx async throws in
                let read = try await tx.mealTypes.catalog(now: monday)
                #expect(read.all.map(\.key) == MealTypeCatalog.defaults(owner: UUID(), now: monday).all.map(\.key))
                let stored = try await tx.mealTypes.stored(now: monday)
                #expect(stored.all.map(\.id) == read.all.map(\.id))
                #expect(try await tx.mealTypes.find(read.all[0].id)?.name == "Breakfast", "stored (at sign-up on the server)")
                return stored
            }
            let brunch = MealType(id: UUID(), key: nil, name: "Brunch", window: SuggestionWindow(start: "10:00", end: "12:00"),
                                  position: defaults.all.count, createdAt: monday, updatedAt: monday)
            try await ann.write { tx async throws in
                try await tx.mealTypes.insert(brunch, now: monday)
                try await tx.mealTypes.move(brunch.id, to: 1, in: MealTypeCatalog(defaults.all + [brunch]), now: monday)
                let order = try await tx.mealTypes.catalog(now: monday).all
                #expect(order.map(\.name).prefix(3) == ["Breakfast", "Brunch", "Lunch"])
                #expect(order.map(\.position) == Array(0..<order.count), "numbered in order")
                var renamed = try #require(try await tx.mealTypes.find(brunch.id))
                renamed.name = "Late breakfast"
                renamed.hidden = true
                #expect(try await tx.mealTypes.replace(renamed, now: monday))
                #expect(try await tx.mealTypes.find(brunch.id)?.name == "Late breakfast")
            }
            try await bob.write { tx async throws in
                #expect(try await tx.mealTypes.find(brunch.id) == nil)
                #expect(try await tx.mealTypes.replace(brunch, now: monday) == false)
                #expect(try await tx.mealTypes.catalog(now: monday).all.count == defaults.all.count, "Bob has the defaults of his own")
            }
        }
    }

    @Test(arguments: Backend.allCases) func aWriteThatThrowsLeavesNothing(_ backend: Backend) async throws {
        struct Stop: Error {}
        try await withLibraries(backend) { person in
            let ann = try await person()
            let oats = try food("Rolled oats", at: monday)
            await #expect(throws: Stop.self) {
                try await ann.write { tx async throws in
                    try await tx.foods.insert(oats)
                    _ = try await tx.meals.insert(try MealDraft(description: "Porridge").validated(), id: UUID(), now: monday)
                    #expect(try await tx.foods.find(oats.id) != nil, "a transaction sees its own writes")
                    throw Stop()
                }
            }
            try await ann.write { tx async throws in #expect(try await tx.foods.find(oats.id) == nil) }
        }
    }

    /// Planning a meal while it is deleted: either it is planned and then deleted with its plan
    /// days, or planning finds no meal; never a plan day for a meal that is gone.
    @Test(arguments: Backend.allCases) func planningAMealWhileItIsDeletedNeverLeavesAPlanDayWithoutItsMeal(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person()
            let friday = try #require(CalendarDate(iso: "2026-11-27"))
            for _ in 0..<5 {
                let meal = try await SaveMeal(library: ann, now: monday).add(MealDraft(description: "Curry"), id: UUID())
                let ids = (0..<6).map { _ in UUID() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for id in ids { group.addTask { _ = try await PlanMeal(library: ann, now: monday)(meal.id, on: friday, mealType: "dinner", id: id) } }
                    group.addTask { _ = try await DeleteMeal(library: ann, now: monday)(meal.id) }
                    try await group.waitForAll()
                }
                for id in ids {
                    #expect(try await ann.write { try await $0.plan.delete(id, now: monday) } == nil, "no plan day outlives its meal")
                }
            }
        }
    }

    /// Eight people at once adding a meal type of the same name to one account: one is added.
    @Test(arguments: Backend.allCases) func eightAddingTheSameMealTypeAtOnceMakeOne(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person()
            let added = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { (try? await SaveMealType(library: ann, now: monday).add(.init(name: "Brunch"), id: UUID())) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(added == 1)
            let names = try await ann.write { try await $0.mealTypes.catalog(now: monday).all.map(\.name) }
            #expect(names.filter { $0 == "Brunch" }.count == 1)
        }
    }

}
