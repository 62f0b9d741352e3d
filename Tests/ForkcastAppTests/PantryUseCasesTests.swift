import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// The pantry alone on the in-memory library: lots, using them, the shop booking in, cooking
/// taking out and lists buying only the shortfall (the API runs the same on both engines in
/// ForkcastServerTests' PantryAPITests).
@Suite("Pantry use cases, alone on the in-memory library")
struct PantryUseCasesTests {
    let libraries = InMemoryLibraries()
    let ann = UUID()
    let now = Date(timeIntervalSince1970: 1_795_392_000) // 2026-11-23 00:00 UTC
    let today = CalendarDate(iso: "2026-11-23")!
    let catalog = InMemoryFoodCatalog([])

    var lib: InMemoryLibrary { libraries.library(of: ann) }
    var stock: StockPantry { StockPantry(library: lib, now: now, today: today) }

    func food(_ name: String, basis: NutritionBasis = .gram, serving: Serving? = nil, price: Price? = nil) async throws -> Food {
        try await SaveFood(library: lib, now: now).add(FoodDraft(name: name, basis: basis, per100: Nutrients(energyKcal: 100), serving: serving, price: price), id: UUID())
    }

    func lots() async throws -> [PantryItem] { try await lib.write { tx in try await tx.pantry.items() } }

    @Test func aLotIsKeptInTheFoodsOwnUnitAndBadInputChangesNothing() async throws {
        let eggs = try await food("Eggs", serving: Serving(size: 50, unit: .gram, label: "1 large"))
        let milk = try await food("Milk", basis: .milliliter)
        let six = try await stock.add(PantryInput(foodId: eggs.id, amount: 6, unit: "pieces", location: "fridge"), id: UUID())
        #expect(six.amount == 300 && six.unit == .gram && six.location == PantryLocation.fridge, "6 pieces of 50 g, the usual place's own name")
        let litre = try await stock.add(PantryInput(foodId: milk.id, amount: 1000), id: UUID())
        #expect(litre.unit == .milliliter && litre.location == PantryLocation.cupboard)

        let refusals: [(PantryInput, String)] = [
            (PantryInput(foodId: eggs.id, amount: 0), "amount"), (PantryInput(foodId: eggs.id, amount: -5), "amount"),
            (PantryInput(foodId: eggs.id, amount: Decimal(string: "1e100")!), "amount"), (PantryInput(foodId: eggs.id, amount: .nan), "amount"),
            (PantryInput(foodId: milk.id, amount: 2, unit: "g"), "unit"), (PantryInput(foodId: eggs.id, amount: 2, unit: "cup"), "unit"),
            (PantryInput(foodId: milk.id, amount: 1, unit: "piece"), "unit"),
            (PantryInput(foodId: eggs.id, amount: 1, bestBefore: CalendarDate(iso: "9999-12-31")), "bestBefore"),
            (PantryInput(foodId: eggs.id, amount: 1, location: String(repeating: "é", count: 41)), "location"),
        ]
        for (input, field) in refusals {
            let error = await #expect(throws: ValidationError.self) { try await stock.add(input, id: UUID()) }
            #expect(error?.fields.first?.field == field, "\(input) names \(field)")
        }
        await #expect(throws: Refusal.self) { try await stock.add(PantryInput(foodId: UUID(), amount: 1), id: UUID()) }
        #expect(try await lots().count == 2, "nothing refused was stored")
    }

    @Test func usingTakesFromOneLotNeverBelowZeroAndCountsWhatIsThrownAway() async throws {
        let cheese = try await food("Cheese", price: Price(amount: 6, per: .package, packageSize: 300))
        let lot = try await stock.add(PantryInput(foodId: cheese.id, amount: 300), id: UUID())
        let use = UsePantryItem(library: lib, now: now)
        let left = try #require(try await use(lot.id, amount: 100, unit: nil, reason: .eaten))
        #expect(left.amount == 200 && left.opened)
        let error = await #expect(throws: ValidationError.self) { try await use(lot.id, amount: 201, unit: "g", reason: .discarded) }
        #expect(error?.fields.first?.field == "amount")
        let gone = try #require(try await use(lot.id, amount: 200, unit: "g", reason: .discarded))
        let remaining = try await lots()
        #expect(gone.amount == 0 && remaining.isEmpty, "used up: the lot goes")
        #expect(try await use(lot.id, amount: 1, unit: nil, reason: .eaten) == nil, "a second phone taking the last of it finds it gone")
        let waste = PantryRules.waste(try await lib.write { tx in try await tx.pantry.uses(since: now) })
        #expect(waste.grams == 200 && waste.cost == 4, "200 g of a €6 pack of 300 g thrown away; what was eaten is not waste")
    }

    /// The loop: a week for two planned, its list buying only what the pantry lacks, bought
    /// (booked in by the ticks, once), cooked (taken out once, the lot that goes off first first):
    /// the pantry holds what was bought minus what the recipes used, to the gram.
    @Test func planShopCookLeavesThePantryToTheGram() async throws {
        let rice = try await food("Rice"), milk = try await food("Milk", basis: .milliliter)
        let pudding = try await SaveMeal(library: lib, now: now).add(MealDraft(description: "Rice pudding", servings: 2, ingredients: [
            Ingredient(foodId: rice.id, quantity: 300, unit: .gram), Ingredient(foodId: milk.id, quantity: 500, unit: .milliliter)]), id: UUID())
        let monday = today.adding(days: 7)
        let first = try #require(try await PlanMeal(library: lib, now: now)(pudding.id, on: monday, mealType: nil, servings: 2, id: UUID()))
        try await PlanMeal(library: lib, now: now)(pudding.id, on: monday.adding(days: 2), mealType: nil, servings: 4, id: UUID())
        // The pantry has 500 g of rice in two lots; the week needs 300 + 600 = 900 g.
        let older = try await stock.add(PantryInput(foodId: rice.id, amount: 200, bestBefore: today.adding(days: 2)), id: UUID())
        _ = try await stock.add(PantryInput(foodId: rice.id, amount: 300, bestBefore: today.adding(days: 60)), id: UUID())

        let list = try await MakeShoppingList(library: lib, catalog: catalog, now: now, uuid: { UUID() })(from: monday, to: monday.adding(days: 6), name: nil, id: UUID())
        let riceItem = try #require(list.items.first { $0.foodId == rice.id }), milkItem = try #require(list.items.first { $0.foodId == milk.id })
        #expect(riceItem.quantity == 900 && riceItem.inPantry == 500 && riceItem.toBuy == 400 && riceItem.amountText == "400 g of 900 g")
        #expect(milkItem.inPantry == nil && milkItem.toBuy == 1500 && milkItem.amountText == "1.5 l")

        let tick = ChangeShoppingItem(library: lib, now: now)
        for item in [riceItem, milkItem] { _ = try await tick(item.id, ShoppingItemChange(checked: true)) }
        _ = try await tick(riceItem.id, ShoppingItemChange(checked: true))  // the same tick again (a phone back online)
        var held = Dictionary(grouping: try await lots(), by: \.foodId).mapValues { $0.reduce(0) { $0 + $1.amount } }
        #expect(held[rice.id] == 900 && held[milk.id] == 1500, "bought what was to buy, booked once")
        _ = try await tick(milkItem.id, ShoppingItemChange(checked: false))
        #expect(try await lots().allSatisfy { $0.foodId != milk.id }, "unticked: the milk is not in the pantry")
        _ = try await tick(milkItem.id, ShoppingItemChange(checked: true))
        let refreshed = try #require(try await RefreshShoppingList(library: lib, catalog: catalog, now: now, uuid: { UUID() })(list.list.id))
        #expect(refreshed.items.first { $0.foodId == rice.id }?.toBuy == 400, "what the list bought does not cover the list itself")

        let cook = CookFromPantry(library: lib, now: now)
        let cooked = try #require(try await cook(first.assignment.id))
        let riceLine = try #require(cooked.lines.first { $0.foodId == rice.id })
        #expect(riceLine.needed == 300 && riceLine.taken == 300 && riceLine.short == 0 && !cooked.alreadyCooked)
        #expect(try await lots().contains { $0.id == older.id } == false, "the lot that went off first was used first")
        #expect(try await cook(first.assignment.id)?.alreadyCooked == true, "a second door takes nothing")
        held = Dictionary(grouping: try await lots(), by: \.foodId).mapValues { $0.reduce(0) { $0 + $1.amount } }
        #expect(held[rice.id] == 600 && held[milk.id] == 1000, "(500 + 400) − 300 g of rice; 1,500 − 500 ml of milk")

        // The next week needs 900 g of rice and 1.5 l of milk again: the list buys 300 g and 500 ml.
        let next = today.adding(days: 14)
        try await PlanMeal(library: lib, now: now)(pudding.id, on: next, mealType: nil, servings: 6, id: UUID())
        let nextList = try await MakeShoppingList(library: lib, catalog: catalog, now: now, uuid: { UUID() })(from: next, to: next, name: nil, id: UUID())
        #expect(nextList.items.first { $0.foodId == rice.id }?.toBuy == 300)
        #expect(nextList.items.first { $0.foodId == milk.id }?.toBuy == 500)
    }

    @Test func cookingWithLessThanNeededTakesWhatThereIsAndSaysWhatIsShort() async throws {
        let flour = try await food("Flour")
        let bread = try await SaveMeal(library: lib, now: now).add(MealDraft(description: "Bread", servings: 1, ingredients: [
            Ingredient(foodId: flour.id, quantity: 750, unit: .gram)]), id: UUID())
        let entry = try #require(try await PlanMeal(library: lib, now: now)(bread.id, on: today, mealType: nil, id: UUID()))
        _ = try await stock.add(PantryInput(foodId: flour.id, amount: 500), id: UUID())
        let line = try #require(try await CookFromPantry(library: lib, now: now)(entry.assignment.id)?.lines.first)
        #expect(line.needed == 750 && line.taken == 500 && line.short == 250)
        #expect(try await lots().isEmpty, "0 left, never below")
    }

    @Test func aCoveredItemStaysOnTheListAsCovered() async throws {
        let oats = try await food("Oats")
        let porridge = try await SaveMeal(library: lib, now: now).add(MealDraft(description: "Porridge", servings: 1, ingredients: [
            Ingredient(foodId: oats.id, quantity: 80, unit: .gram)]), id: UUID())
        try await PlanMeal(library: lib, now: now)(porridge.id, on: today, mealType: nil, id: UUID())
        _ = try await stock.add(PantryInput(foodId: oats.id, amount: 1000), id: UUID())
        let list = try await MakeShoppingList(library: lib, catalog: catalog, now: now, uuid: { UUID() })(from: today, to: today, name: nil, id: UUID())
        let item = try #require(list.items.first)
        #expect(item.covered && item.toBuy == 0 && item.amountText == "covered by the pantry (80 g)")
    }

    @Test func whatCanICookNowNeedsEveryFoodButOne() async throws {
        let a = try await food("Apples"), b = try await food("Butter"), c = try await food("Cream")
        func meal(_ name: String, _ foods: [Food]) async throws -> Meal {
            try await SaveMeal(library: lib, now: now).add(MealDraft(description: name, servings: 2, ingredients: foods.map {
                Ingredient(foodId: $0.id, quantity: 100, unit: .gram) }), id: UUID())
        }
        let tart = try await meal("Tart", [a, b]), crumble = try await meal("Crumble", [a, b, c]), fool = try await meal("Fool", [b, c])
        _ = try await meal("Plain note", [])
        let foods = [a.id: a, b.id: b, c.id: c]
        let found = PantryRules.cookable([tart, crumble, fool], foods: foods, stock: [a.id: 100, b.id: 100])
        #expect(found.map(\.meal.description) == ["Tart", "Crumble", "Fool"] && found.map(\.missing) == [nil, "Cream", "Cream"],
                "the complete one first; the others lack one food, named")
        let short = PantryRules.cookable([tart, crumble, fool], foods: foods, stock: [a.id: 100, b.id: 50])
        #expect(short.map(\.meal.description) == ["Tart"] && short.first?.missing == "Butter",
                "50 g of butter is not the 100 g the tart needs; the crumble and the fool then lack two")
    }
}
