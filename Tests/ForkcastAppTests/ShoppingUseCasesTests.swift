import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// Shopping lists and portions per plan entry, alone on the in-memory library (the same behaviours
/// run through the API on SQLite and PostgreSQL in ForkcastServerTests' ShoppingAPITests).
@Suite("Shopping use cases, alone on the in-memory library")
struct ShoppingUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID(), bob = UUID()
    let now = Date(timeIntervalSince1970: 1_795_392_000) // 2026-11-23 00:00 UTC
    let monday = CalendarDate(iso: "2026-11-30")!
    static let carrots = CatalogFood(catalogId: "sr-0123456789abcdef", name: "Carrots, raw", category: "Vegetables and Vegetable Products", source: .srLegacy,
                                     per100: Nutrients(energyKcal: 41, protein: Decimal(string: "0.9")!, carbohydrates: Decimal(string: "9.6")!, fat: Decimal(string: "0.2")!),
                                     portions: [CatalogPortion(name: "1 medium (61 g)", grams: 61)])
    let catalog = InMemoryFoodCatalog([carrots])

    func library(_ owner: UUID) -> InMemoryLibrary { libraries.library(of: owner) }
    var uuid: @Sendable () -> UUID { { UUID() } }

    /// Ann's week of the issue: chicken rice Monday, rice pudding Tuesday, chicken rice for 2 Wednesday;
    /// the stew uses a catalogue food.
    func annsWeek() async throws -> (rice: Food, milk: Food, pudding: PlanDay.Entry) {
        let lib = library(ann)
        let rice = try await SaveFood(library: lib, now: now).add(FoodDraft(name: "Rice", per100: Nutrients(energyKcal: 130, protein: 3, carbohydrates: 28, fat: 0)), id: UUID())
        let chicken = try await SaveFood(library: lib, now: now).add(FoodDraft(name: "Chicken", per100: Nutrients(energyKcal: 165, protein: 31, carbohydrates: 0, fat: 4)), id: UUID())
        let milk = try await SaveFood(library: lib, now: now).add(FoodDraft(name: "Milk", basis: .milliliter, per100: Nutrients(energyKcal: 64, protein: 3, carbohydrates: 5, fat: 4)), id: UUID())
        let chickenRice = try await SaveMeal(library: lib, now: now).add(MealDraft(description: "Chicken rice", servings: 4, ingredients: [
            Ingredient(foodId: rice.id, quantity: 300, unit: .gram), Ingredient(foodId: chicken.id, quantity: 400, unit: .gram)]), id: UUID())
        let pudding = try await SaveMeal(library: lib, now: now).add(MealDraft(description: "Rice pudding", servings: 2, ingredients: [
            Ingredient(foodId: rice.id, quantity: 200, unit: .gram), Ingredient(foodId: milk.id, quantity: 250, unit: .milliliter)]), id: UUID())
        let plan = PlanMeal(library: lib, now: now)
        try await plan(chickenRice.id, on: monday, mealType: "dinner", id: UUID())
        let tuesday = try #require(try await plan(pudding.id, on: monday.adding(days: 1), mealType: nil, id: UUID()))
        try await plan(chickenRice.id, on: monday.adding(days: 2), mealType: "dinner", servings: 2, id: UUID())
        return (rice, milk, tuesday)
    }

    @Test func theIssuesWeekRoundTrip() async throws {
        let (rice, milk, tuesday) = try await annsWeek()
        let make = MakeShoppingList(library: library(ann), catalog: catalog, now: now, uuid: uuid)
        let made = try await make(from: monday, to: monday.adding(days: 6), name: nil, id: UUID())
        let amounts = Dictionary(uniqueKeysWithValues: made.items.map { ($0.name, $0.amountText ?? "") })
        #expect(amounts == ["Rice": "650 g", "Chicken": "600 g", "Milk": "250 ml"])
        #expect(libraries.contents.changes.filter { $0.kind == .shoppingItem }.count == 3, "each item is in the change feed")

        let riceItem = try #require(made.items.first { $0.foodId == rice.id })
        let checked = try await ChangeShoppingItem(library: library(ann), now: now)(riceItem.id, ShoppingItemChange(checked: true))
        #expect(checked?.checked == true)
        let soap = try #require(try await AddShoppingItem(library: library(ann), now: now)(to: made.list.id, name: "dish soap", quantity: nil, unit: nil, category: nil, id: UUID()))

        // Tuesday's pudding moves out of the range.
        let moved = PlanMeal.Request(mealID: tuesday.meal.id, date: monday.adding(days: 10), mealType: nil, servings: nil, id: tuesday.assignment.id)
        #expect(try await PlanMeal(library: library(ann), now: now).change(tuesday.assignment.id, to: moved) != nil)
        let refreshed = try #require(try await RefreshShoppingList(library: library(ann), catalog: catalog, now: now, uuid: uuid)(made.list.id))
        #expect(refreshed.items.contains { $0.id == soap.id }, "the soap stays")
        #expect(!refreshed.items.contains { $0.foodId == milk.id }, "the milk goes")
        let rice2 = try #require(refreshed.items.first { $0.id == riceItem.id })
        #expect(rice2.checked && rice2.amountText == "450 g", "rice keeps its check, its amount follows the plan")
        #expect(refreshed.items.last?.id == riceItem.id, "checked items sink to the bottom")
    }

    @Test func anotherPersonReachesNothingAndBadInputChangesNothing() async throws {
        _ = try await annsWeek()
        let made = try await MakeShoppingList(library: library(ann), catalog: catalog, now: now, uuid: uuid)(from: monday, to: monday.adding(days: 2), name: "Week", id: UUID())
        let item = try #require(made.items.first)
        #expect(try await ChangeShoppingItem(library: library(bob), now: now)(item.id, ShoppingItemChange(checked: true)) == nil)
        #expect(try await DeleteShoppingItem(library: library(bob), now: now)(item.id) == nil)
        #expect(try await AddShoppingItem(library: library(bob), now: now)(to: made.list.id, name: "x", quantity: nil, unit: nil, category: nil, id: UUID()) == nil)
        #expect(try await RefreshShoppingList(library: library(bob), catalog: catalog, now: now, uuid: uuid)(made.list.id) == nil)
        #expect(try await DeleteShoppingList(library: library(bob), now: now)(made.list.id) == false)
        #expect(try await ShareShoppingList(library: library(bob), now: now).share(made.list.id, newToken: String(repeating: "a", count: 43)) == nil)
        let before = libraries.contents.shoppingItems.count
        await #expect(throws: ValidationError.self) {
            try await AddShoppingItem(library: library(ann), now: now)(to: made.list.id, name: "  ", quantity: nil, unit: nil, category: nil, id: UUID())
        }
        await #expect(throws: ValidationError.self) {
            try await ChangeShoppingItem(library: library(ann), now: now)(item.id, ShoppingItemChange(quantity: Decimal(string: "1e30")))
        }
        await #expect(throws: ValidationError.self) {
            try await MakeShoppingList(library: library(ann), catalog: catalog, now: now, uuid: uuid)(from: monday, to: monday.adding(days: -1), name: nil, id: UUID())
        }
        #expect(libraries.contents.shoppingItems.count == before)
        #expect(libraries.contents.shoppingItems[item.id]?.value == item, "the item is as it was")
    }

    @Test func sharingGivesOneLinkUntilRevokedAndDeletingTakesTheItems() async throws {
        _ = try await annsWeek()
        let made = try await MakeShoppingList(library: library(ann), catalog: catalog, now: now, uuid: uuid)(from: monday, to: monday, name: nil, id: UUID())
        let share = ShareShoppingList(library: library(ann), now: now)
        let first = try await share.share(made.list.id, newToken: String(repeating: "a", count: 43))
        let second = try await share.share(made.list.id, newToken: String(repeating: "b", count: 43))
        #expect(first == second, "sharing twice gives the same link")
        #expect(try await share.revoke(made.list.id))
        #expect(libraries.contents.shoppingLists[made.list.id]?.value.shareToken == nil)
        #expect(try await DeleteShoppingList(library: library(ann), now: now)(made.list.id))
        #expect(!libraries.contents.shoppingItems.values.contains { $0.value.listId == made.list.id })
    }

    @Test func aCatalogueFoodShopsInItsCatalogueAisleAndAChosenAisleIsRemembered() async throws {
        let lib = library(ann)
        let carrots = try await AdoptCatalogFood(library: lib, catalog: catalog, now: now).adopt(Self.carrots.catalogId).food
        let again = try await AdoptCatalogFood(library: lib, catalog: catalog, now: now).adopt(Self.carrots.catalogId)
        #expect(again.food.id == carrots.id && !again.created, "the same food every time")
        let soup = try await SaveMeal(library: lib, now: now).add(MealDraft(description: "Carrot soup", servings: 2, ingredients: [
            Ingredient(foodId: carrots.id, quantity: 3, unit: .serving)]), id: UUID())
        try await PlanMeal(library: lib, now: now)(soup.id, on: monday, mealType: nil, servings: 4, id: UUID())
        let make = MakeShoppingList(library: lib, catalog: catalog, now: now, uuid: uuid)
        let first = try await make(from: monday, to: monday, name: nil, id: UUID())
        let item = try #require(first.items.first)
        #expect(item.category == "Produce", "the catalogue's category, as a shop's aisle")
        #expect(item.amountText == "366 g", "3 medium carrots (61 g) for 2, made for 4")
        let renamed = try await ChangeShoppingItem(library: lib, now: now)(item.id, ShoppingItemChange(name: "Carrots", category: item.category))
        #expect(renamed?.categoryChosen == false, "a form sending the aisle it showed chooses nothing")
        _ = try await ChangeShoppingItem(library: lib, now: now)(item.id, ShoppingItemChange(category: "Greengrocer"))
        let next = try await make(from: monday, to: monday, name: nil, id: UUID())
        #expect(next.items.first?.category == "Greengrocer", "the aisle the person chose is used on later lists")
    }

    @Test func portionsOutOfRangeAreRefusedAndABatchIsAllOrNothing() async throws {
        _ = try await annsWeek()
        let meal = try #require(libraries.contents.meals.values.first { $0.owner == ann }?.value)
        let plan = PlanMeal(library: library(ann), now: now)
        await #expect(throws: ValidationError.self) { try await plan(meal.id, on: monday, mealType: nil, servings: 0, id: UUID()) }
        await #expect(throws: ValidationError.self) { try await plan(meal.id, on: monday, mealType: nil, servings: 101, id: UUID()) }
        let count = libraries.contents.assignments.count
        let refused = await #expect(throws: Refusal.self) {
            try await plan.all([PlanMeal.Request(mealID: meal.id, date: monday, mealType: "lunch", servings: nil, id: UUID()),
                                PlanMeal.Request(mealID: UUID(), date: monday, mealType: "dinner", servings: nil, id: UUID())])
        }
        guard case let .missingReference(field, _) = refused else { Issue.record("expected a missing reference, got \(String(describing: refused))"); return }
        #expect(field == "assignments[1].mealId")
        #expect(libraries.contents.assignments.count == count, "nothing of the batch is planned")
    }
}
