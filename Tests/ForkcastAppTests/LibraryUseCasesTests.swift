import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Testing

/// The library's use cases alone: no server, no database, the in-memory fake for two people. The
/// same behaviours are checked through the server's front doors on SQLite and PostgreSQL
/// (ForkcastServerTests' LibraryUseCaseTests), and the fake is held to the database's contract —
/// records, ownership, constraints and change-feed rows — by LibraryContractTests.
@Suite("Library use cases, alone on the in-memory library")
struct LibraryUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let monday = Date(timeIntervalSince1970: 1_795_392_000) // 2026-11-23 00:00 UTC

    var oats: FoodDraft {
        FoodDraft(name: "Rolled oats", barcode: "737628064502", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7))
    }

    func library(_ owner: UUID) -> InMemoryLibrary { libraries.library(of: owner) }

    /// The catalogue Forkcast ships, read from the committed files.
    static let shippedCatalogue: [CatalogFood] = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ForkcastServer/Catalog")
        return try! FoodDataCentral.foods(csv: String(contentsOf: dir.appendingPathComponent("fdc-generic.csv"), encoding: .utf8),
                                          portions: String(contentsOf: dir.appendingPathComponent("fdc-portions.csv"), encoding: .utf8))
    }()

    @Test func everyFoodOfTheShippedCatalogueIsAdoptedAndLoggedAsPublished() async throws {
        let catalogue = InMemoryFoodCatalog(Self.shippedCatalogue)
        var refused: [String] = []
        // A fresh library for every 250 foods: the fake copies a person's whole library in each
        // write, and 7,350 foods in one took 47 s of CPU (2026-12-04) for what one food at a time shows.
        for start in stride(from: 0, to: Self.shippedCatalogue.count, by: 250) {
            let part = Self.shippedCatalogue[start..<min(start + 250, Self.shippedCatalogue.count)]
            let libraries = InMemoryLibraries()
            let adopt = AdoptCatalogFood(library: libraries.library(of: ann), catalog: catalogue, now: monday)
            let log = LogEntry(diary: libraries.diary(of: ann, zone: .gmt), now: monday, uuid: { UUID() })
            let refusedBefore = refused.count
            for food in part {
                do {
                    let mine = try await adopt.adopt(food.catalogId).food
                    _ = try await log.single(EntryInput(mealType: "lunch", foodId: mine.id))
                } catch {
                    refused.append("\(food.name): \(error)")
                }
            }
            #expect(libraries.contents.entries.count == part.count - (refused.count - refusedBefore))
        }
        #expect(refused.isEmpty, "\(refused.count) of \(Self.shippedCatalogue.count) refused, e.g. \(refused.prefix(3))")
        let milkFood = try #require(Self.shippedCatalogue.first { $0.name == "Milk, whole" })
        _ = try await AdoptCatalogFood(library: library(ann), catalog: catalogue, now: monday).adopt(milkFood.catalogId)
        // "Milk, whole": the source's sugars (4.81 g) over its carbohydrates (4.63 g), kept as published;
        // renaming it keeps them, while changing them is held to the rule.
        let milk = try #require(libraries.contents.foods.values.map(\.value).first { $0.name == "Milk, whole" })
        var renamed = FoodDraft(milk)
        renamed.name = "Whole milk"
        #expect(try await SaveFood(library: library(ann), now: monday).change(renamed, id: milk.id)?.per100 == milk.per100)
        renamed.per100.sugars = 5
        await #expect(throws: ValidationError.self) { try await SaveFood(library: library(ann), now: monday).change(renamed, id: milk.id) }
    }

    @Test func aFoodKeepsWhenItWasFirstStoredAndOneBarcodeBelongsToOneFood() async throws {
        let id = UUID()
        let added = try await SaveFood(library: library(ann), now: monday).add(oats, id: id)
        #expect(added.createdAt == monday && added.updatedAt == monday)

        var jumbo = oats
        jumbo.name = "Jumbo oats"
        let tuesday = monday.addingTimeInterval(86_400)
        let changed = try #require(try await SaveFood(library: library(ann), now: tuesday).change(jumbo, id: id))
        #expect(changed.createdAt == monday && changed.updatedAt == tuesday, "a change keeps createdAt")
        let synced = try await SaveFood(library: library(ann), now: tuesday.addingTimeInterval(60)).addOrChange(jumbo, id: id)
        #expect(synced.createdAt == monday, "a synced change keeps it too")
        #expect(try await SaveFood(library: library(bob), now: tuesday).change(jumbo, id: id) == nil, "Bob has no such food")
        #expect(libraries.contents.foods[id]?.value.name == "Jumbo oats", "and Ann's is as she left it")

        var copy = oats
        copy.name = "Another oats"
        let clash = await #expect(throws: Refusal.self) { try await SaveFood(library: library(ann), now: tuesday).add(copy, id: UUID()) }
        #expect(clash == .conflict("Your food “Jumbo oats” already has barcode 0737628064502."), "named by its 13-digit code")
        _ = try await SaveFood(library: library(bob), now: tuesday).add(copy, id: UUID())
        #expect(libraries.contents.foods.count == 2, "another person may hold the same barcode")

        var bad = oats
        bad.per100.protein = -1
        let refused = await #expect(throws: ValidationError.self) { try await SaveFood(library: library(ann), now: tuesday).add(bad, id: UUID()) }
        #expect(refused?.fields.map(\.field) == ["per100.protein"])
        #expect(libraries.contents.foods.count == 2, "refused foods leave nothing")
    }

    @Test func aFoodAMealUsesIsKeptNamingTheMealAndAnotherPersonsFoodIsNoIngredient() async throws {
        let oatsID = try await SaveFood(library: library(ann), now: monday).add(oats, id: UUID()).id
        let porridge = MealDraft(description: "Porridge", servings: 2, ingredients: [Ingredient(foodId: oatsID, quantity: 80, unit: .gram)])

        let missing = await #expect(throws: Refusal.self) { try await SaveMeal(library: library(bob), now: monday).add(porridge, id: UUID()) }
        #expect(missing == .missingReference(field: "ingredients[0].foodId", detail: "No food with id \(oatsID) exists in your account."))
        var poured = porridge
        poured.ingredients = [Ingredient(foodId: oatsID, quantity: 1, unit: .milliliter)]
        let unit = await #expect(throws: ValidationError.self, "oats are weighed") { try await SaveMeal(library: library(ann), now: monday).add(poured, id: UUID()) }
        #expect(unit?.fields.map(\.field) == ["ingredients[0].unit"])
        #expect(libraries.contents.meals.isEmpty)

        let meal = try await SaveMeal(library: library(ann), now: monday).add(porridge, id: UUID())
        let kept = await #expect(throws: Refusal.self) { try await DeleteFood(library: library(ann), now: monday)(oatsID) }
        #expect(kept == .conflict("“Rolled oats” is an ingredient of “Porridge”; remove it from those meals first."))
        #expect(libraries.contents.foods[oatsID] != nil)

        #expect(try await DeleteMeal(library: library(bob), now: monday)(meal.id) == nil, "not Bob's to delete")
        #expect(try await DeleteMeal(library: library(ann), now: monday)(meal.id)?.description == "Porridge")
        #expect(try await DeleteFood(library: library(ann), now: monday)(oatsID)?.name == "Rolled oats")
        #expect(try await DeleteFood(library: library(ann), now: monday)(oatsID) == nil, "already gone")
        #expect(libraries.contents.changes.last == .init(kind: .food, id: oatsID, deleted: true, at: monday))
    }

    @Test func aBatchOfPlannedMealsIsOneToAHundredOrNothingIsPlanned() async throws {
        // Every front door (the API's batch, the web's ticked suggestions) plans through this one
        // rule: too many at once is refused whole, never cut to the first hundred.
        let curry = try await SaveMeal(library: library(ann), now: monday).add(MealDraft(description: "Chicken curry"), id: UUID())
        let plan = PlanMeal(library: library(ann), now: monday)
        let week = try #require(CalendarDate(iso: "2026-11-23"))
        let requests = (0..<(Assignment.maximumAtOnce + 1)).map {
            PlanMeal.Request(mealID: curry.id, date: week.adding(days: $0 % 7), mealType: "dinner", servings: nil, id: UUID())
        }
        let tooMany = await #expect(throws: ValidationError.self) { try await plan.all(requests) }
        #expect(tooMany?.fields.map(\.field) == ["assignments"])
        #expect(tooMany?.fields.first?.message.contains("got \(Assignment.maximumAtOnce + 1)") == true)
        let none = await #expect(throws: ValidationError.self) { try await plan.all([]) }
        #expect(none?.fields.map(\.field) == ["assignments"])
        #expect(libraries.contents.assignments.isEmpty, "nothing was planned")
        #expect(try await plan.all(Array(requests.prefix(Assignment.maximumAtOnce))).count == Assignment.maximumAtOnce)
    }

    @Test func aMealIsPlannedInOneOfThePersonsSlotsByItsKeyAndDeletingItTakesItOffThePlan() async throws {
        let curry = try await SaveMeal(library: library(ann), now: monday).add(MealDraft(description: "Chicken curry"), id: UUID())
        let friday = try #require(CalendarDate(iso: "2026-11-27"))
        let plan = PlanMeal(library: library(ann), now: monday)

        let planned = try #require(try await plan(curry.id, on: friday, mealType: " Dinner ", id: UUID()))
        #expect(planned.assignment.mealType == "dinner", "stored by its key")
        #expect(planned.meal == curry)
        let unknown = await #expect(throws: ValidationError.self) { try await plan(curry.id, on: friday, mealType: "Elevenses", id: UUID()) }
        #expect(unknown?.fields.map(\.field) == ["mealType"])
        #expect(try await PlanMeal(library: library(bob), now: monday)(curry.id, on: friday, mealType: nil, id: UUID()) == nil,
                "Ann's meal is not Bob's to plan")
        let unslotted = try #require(try await plan(curry.id, on: friday, mealType: "  ", id: UUID()))
        #expect(unslotted.assignment.mealType == nil, "a blank slot is no slot")

        let moved = try #require(try await plan(curry.id, on: friday.adding(days: 1), mealType: "LUNCH", id: planned.assignment.id, replacing: true))
        #expect(moved.assignment.date == friday.adding(days: 1) && moved.assignment.mealType == "lunch")
        #expect(libraries.contents.assignments.count == 2, "a synced edit replaces, it does not add")
        #expect(try await UnplanMeal(library: library(bob), now: monday)(unslotted.assignment.id) == nil, "not Bob's to remove")
        #expect(try await UnplanMeal(library: library(ann), now: monday)(unslotted.assignment.id)?.id == unslotted.assignment.id)

        let before = libraries.contents.changes.count
        _ = try await DeleteMeal(library: library(ann), now: monday)(curry.id)
        #expect(libraries.contents.assignments.isEmpty, "a plan day cannot outlive its meal")
        #expect(libraries.contents.changes.dropFirst(before).map(\.kind) == [.assignment, .meal], "each deletion is in the change feed")
    }

    @Test func mealTypesKeepTheirRules() async throws {
        let types = SaveMealType(library: library(ann), now: monday)
        let brunch = try await types.add(.init(name: "  Brunch ", window: .some(("10:00", "12:00")), position: 1), id: UUID())
        #expect(brunch.name == "Brunch" && brunch.position == 1 && brunch.window == SuggestionWindow(start: "10:00", end: "12:00"))
        let stored = MealTypeCatalog(libraries.contents.mealTypes.values.filter { $0.owner == ann }.map(\.value))
        #expect(stored.all.prefix(3).map(\.name) == ["Breakfast", "Brunch", "Lunch"], "the defaults were stored, then Brunch put second")

        let taken = await #expect(throws: ValidationError.self) { try await types.add(.init(name: "BRUNCH"), id: UUID()) }
        #expect(taken?.fields.map(\.field) == ["displayName"])
        let snack = try #require(stored.all.first { $0.key == MealType.snackKey })
        await #expect(throws: ValidationError.self, "Snack is always offered") { try await types.change(snack.id, .init(hidden: true)) }
        let far = await #expect(throws: ValidationError.self) { try await types.add(.init(name: "Late", position: 1001), id: UUID()) }
        #expect(far?.fields.map(\.field) == ["position"])
        let window = await #expect(throws: ValidationError.self) { try await types.change(brunch.id, .init(window: .some(("25:00", "12:00")))) }
        #expect(window?.fields.map(\.field) == ["window"])
        #expect(try await types.change(UUID(), .init(name: "Nothing")) == nil)
        #expect(try await SaveMealType(library: library(bob), now: monday).change(brunch.id, .init(name: "Mine")) == nil, "not Bob's")
        #expect(libraries.contents.mealTypes.values.filter { $0.owner == ann }.count == stored.all.count, "refused changes add nothing")

        let renamed = try await types.addOrChange(brunch.id, .init(name: "Late breakfast", window: .some(nil), position: 0))
        #expect(renamed.name == "Late breakfast" && renamed.window == nil && renamed.position == 0)
    }

    @Test func aTransactionThatThrowsLeavesNothing() async throws {
        struct Stop: Error {}
        let food = try oats.validated(id: UUID(), createdAt: monday, now: monday)
        await #expect(throws: Stop.self) {
            try await library(ann).write { tx in
                try await tx.foods.insert(food)
                #expect(try await tx.foods.find(food.id) != nil, "the transaction sees its own write")
                throw Stop()
            }
        }
        #expect(libraries.contents.foods.isEmpty && libraries.contents.changes.isEmpty)
    }

    @Test func twentyPeopleAddingTheSameMealTypeAtOnceMakeOne() async throws {
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await SaveMealType(library: library(ann), now: monday).add(.init(name: "Brunch"), id: UUID())) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(libraries.contents.mealTypes.values.filter { $0.value.name == "Brunch" }.count == 1)
    }
}
