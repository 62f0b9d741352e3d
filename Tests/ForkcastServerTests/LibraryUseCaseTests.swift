import FluentKit
import ForkcastApp
@testable import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// The use cases of a person's library — foods, meals, the plan, meal types and settings — called
/// as the front doors call them (through ``Owner``), on the real database; and a check that no front
/// door writes those records by itself.
@Suite("Foods, meals, the plan, meal types and settings: one use case each")
struct LibraryUseCaseTests {
    /// The signed-in person `email`'s use cases at `now`.
    private func owner(_ app: Application, _ email: String, now: Date) async throws -> Owner {
        let user = try #require(try await UserModel.query(on: app.db).filter(\.$email == email).first())
        return try Owner(user: user, db: app.db, now: now, uuid: { UUID() }, application: app)
    }

    /// Two people signed up, and their use cases.
    private func annAndBob(_ app: Application, now: Date) async throws -> (ann: Owner, bob: Owner) {
        _ = try await app.signUp("ann@example.com")
        _ = try await app.signUp("bob@example.com")
        return (try await owner(app, "ann@example.com", now: now), try await owner(app, "bob@example.com", now: now))
    }

    private var oats: FoodDraft {
        FoodDraft(name: "Rolled oats", barcode: "737628064502", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7))
    }

    @Test func aFoodKeepsWhenItWasFirstStoredWhicheverDoorChangesItAndOneBarcodeBelongsToOneFood() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            _ = try await app.signUp("ann@example.com")
            let created = clock.now
            let id = UUID()
            let added = try await owner(app, "ann@example.com", now: created).saveFood.add(oats, id: id)
            #expect(added.createdAt == added.updatedAt)

            clock.advance(by: 86_400)
            var jumbo = oats
            jumbo.name = "Jumbo oats"
            let ann = try await owner(app, "ann@example.com", now: clock.now)
            let changed = try #require(try await ann.saveFood.change(jumbo, id: id))
            #expect(abs(changed.createdAt.timeIntervalSince(created)) < 1, "a change keeps createdAt")
            #expect(changed.updatedAt > changed.createdAt.addingTimeInterval(86_000))
            clock.advance(by: 60)
            let synced = try await owner(app, "ann@example.com", now: clock.now).saveFood.addOrChange(jumbo, id: id)
            #expect(abs(synced.createdAt.timeIntervalSince(created)) < 1, "a synced change keeps createdAt too")
            #expect(try await ann.saveFood.change(jumbo, id: UUID()) == nil, "a change to no food of hers")

            var copy = oats
            copy.name = "Another oats"
            await #expect(throws: Refusal.self, "the barcode is Jumbo oats'") { try await ann.saveFood.add(copy, id: UUID()) }
            var bad = oats
            bad.per100.protein = -1
            await #expect(throws: ValidationError.self) { try await ann.saveFood.add(bad, id: UUID()) }
            #expect(try await FoodModel.query(on: app.db).count() == 1, "refused foods leave nothing")
            #expect(try await FoodTermModel.query(on: app.db).filter(\.$foodID == id).count() > 0, "its search words were written")
        }
    }

    @Test func aFoodAMealUsesIsKeptNamingTheMealAndAnotherAccountsFoodIsNoIngredient() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let (ann, bob) = try await annAndBob(app, now: clock.now)
            let oatsID = try await ann.saveFood.add(oats, id: UUID()).id
            let porridge = MealDraft(description: "Porridge", servings: 2, ingredients: [Ingredient(foodId: oatsID, quantity: 80, unit: .gram)])

            let missing = await #expect(throws: Refusal.self) { try await bob.saveMeal.add(porridge, id: UUID()) }
            guard case .missingReference(let field, _)? = missing else { Issue.record("\(String(describing: missing))"); return }
            #expect(field == "ingredients[0].foodId")
            var byServing = porridge
            byServing.ingredients = [Ingredient(foodId: oatsID, quantity: 1, unit: .milliliter)]
            let unit = await #expect(throws: ValidationError.self, "oats are weighed, not poured") { try await ann.saveMeal.add(byServing, id: UUID()) }
            #expect(unit?.fields.map(\.field) == ["ingredients[0].unit"])
            #expect(try await MealModel.query(on: app.db).count() == 0)

            let meal = try await ann.saveMeal.add(porridge, id: UUID())
            let kept = await #expect(throws: Refusal.self) { try await ann.deleteFood(oatsID) }
            guard case .conflict(let detail)? = kept else { Issue.record("\(String(describing: kept))"); return }
            #expect(detail.contains("“Rolled oats” is an ingredient of “Porridge”"), "\(detail)")
            #expect(try await ann.foods.find(oatsID) != nil)

            #expect(try await ann.deleteMeal(meal.id)?.description == "Porridge")
            #expect(try await ann.deleteFood(oatsID)?.name == "Rolled oats")
            #expect(try await ann.deleteFood(oatsID) == nil, "already gone")
            let feed = try await SyncLog.version(.food, oatsID, owner: ann.id, on: app.db)
            #expect(feed?.op == .delete)
        }
    }

    @Test func aMealIsPlannedInOneOfThePersonsSlotsByItsKeyAndNeverAnotherAccountsMeal() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let (ann, bob) = try await annAndBob(app, now: clock.now)
            let curry = try await ann.saveMeal.add(MealDraft(description: "Chicken curry"), id: UUID())
            let friday = try #require(CalendarDate(iso: "2026-11-27"))

            let planned = try #require(try await ann.planMeal(curry.id, on: friday, mealType: " Dinner ", id: UUID()))
            #expect(planned.assignment.mealType == "dinner", "stored by the type's key, whatever its spelling")
            let unknown = await #expect(throws: ValidationError.self) {
                try await ann.planMeal(curry.id, on: friday, mealType: "Elevenses", id: UUID())
            }
            #expect(unknown?.fields.map(\.field) == ["mealType"])
            #expect(try await bob.planMeal(curry.id, on: friday, mealType: nil, id: UUID()) == nil, "Ann's meal is no meal of Bob's")
            #expect(try await AssignmentModel.query(on: app.db).count() == 1)

            // A synced device's edit replaces the assignment it names.
            let moved = try #require(try await ann.planMeal(curry.id, on: friday.adding(days: 1), mealType: "lunch", id: planned.assignment.id, replacing: true))
            #expect(moved.assignment.date == friday.adding(days: 1) && moved.assignment.mealType == "lunch")
            #expect(try await AssignmentModel.query(on: app.db).count() == 1)

            #expect(try await bob.unplanMeal(planned.assignment.id) == nil, "not Bob's to remove")
            #expect(try await ann.unplanMeal(planned.assignment.id)?.date == friday.adding(days: 1))
            #expect(try await SyncLog.version(.assignment, planned.assignment.id, owner: ann.id, on: app.db)?.op == .delete)
            #expect(try await ann.meals.find(curry.id) != nil, "the meal stays in the library")
        }
    }

    @Test func mealTypesKeepTheirRulesFromEveryDoorAndSettingsChangeNothingWhenRefused() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            _ = try await app.signUp("ann@example.com")
            let ann = try await owner(app, "ann@example.com", now: clock.now)
            let brunch = try await ann.saveMealType.add(.init(name: "  Brunch ", window: .some(("10:00", "12:00")), position: 1), id: UUID())
            #expect(brunch.name == "Brunch" && brunch.position == 1)
            let types = try await ann.mealTypes.catalog(now: clock.now)
            #expect(types.all.sorted { $0.position < $1.position }.map(\.name).prefix(2) == ["Breakfast", "Brunch"])

            let taken = await #expect(throws: ValidationError.self) { try await ann.saveMealType.add(.init(name: "brunch"), id: UUID()) }
            #expect(taken?.fields.map(\.field) == ["displayName"], "a name is taken ignoring case: \(taken?.fields ?? [])")
            let snack = try #require(types.all.first { $0.key == MealType.snackKey })
            await #expect(throws: ValidationError.self, "Snack is always offered") { try await ann.saveMealType.change(snack.id, .init(hidden: true)) }
            await #expect(throws: ValidationError.self) { try await ann.saveMealType.add(.init(name: "Late", position: 1001), id: UUID()) }
            #expect(try await ann.saveMealType.change(UUID(), .init(name: "Nothing")) == nil)
            #expect(try await ann.mealTypes.catalog(now: clock.now).all.count == types.all.count, "refused changes add nothing")

            let user = ann.user
            let zone = user.timeZone
            let refused = await #expect(throws: ValidationError.self) {
                try await ann.updateSettings(displayName: "Ann", timeZone: "Mars/Olympus", currency: "EURO")
            }
            #expect(refused?.fields.map(\.field) == ["timeZone", "currency"])
            #expect(user.timeZone == zone && user.displayName == nil, "a refused change leaves the person as they were")
            let saved = try await ann.updateSettings(displayName: " Ann ", timeZone: "Europe/Berlin", currency: "usd")
            #expect(saved.displayName == "Ann" && saved.timeZone == "Europe/Berlin" && saved.currency == "USD")
        }
    }

    /// Foods, meals, plan assignments, meal types, weights, the body profile and goals are written
    /// only by their use cases (and the repositories those use): no API handler, page handler, sync
    /// adapter or command writes them.
    @Test func noFrontDoorWritesTheLibraryItself() throws {
        let found = try FrontDoorScan.find([
            "FoodModel(", "MealModel(", "AssignmentModel(", "MealTypeModel(", "MealIngredientModel(", "MealComponentModel(",
            "FoodRepository(", "MealRepository(", "PlanRepository(", "MealTypeRepository(",
            "foods.insert(", "foods.replace(", "foods.delete(id", "meals.insert(", "meals.replace(", "meals.delete(id",
            "plan.insert(", "plan.delete(id", "mealTypes.insert(", "mealTypes.replace(", "mealTypes.move(",
            "user.save(on", "UserModel.query(on: tx)",
            "WeightEntryModel(", "BodyProfileModel(", "GoalSettingModel(", "BodyRepository(",
            ".insertWeight(", ".replaceWeight(", "deleteWeight(id, now", ".saveProfile(", ".saveGoals(", ".addWeights(", ".merge(sex",
        ])
        #expect(found.isEmpty, "library records written outside their use cases: \(found)")
    }
}
