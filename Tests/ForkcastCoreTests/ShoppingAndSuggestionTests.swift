import ForkcastCore
import Foundation
import PropertyBased
import Testing

/// Plans and shopping in the domain: portions per plan entry, the shopping list from the plan and its refresh,
/// the week against the goals, and "Fill my week".
@Suite("Shopping lists and the week against the goals")
struct ShoppingAndSuggestionTests {
    static let rice = Food(name: "Rice", basis: .gram, per100: Nutrients(energyKcal: 130, protein: Decimal(string: "2.7")!, carbohydrates: 28, fat: Decimal(string: "0.3")!),
                           price: Price(amount: 2, per: .package, packageSize: 1000))
    static let chicken = Food(name: "Chicken breast", basis: .gram, per100: Nutrients(energyKcal: 165, protein: 31, carbohydrates: 0, fat: Decimal(string: "3.6")!))
    static let milk = Food(name: "Milk", basis: .milliliter, per100: Nutrients(energyKcal: 64, protein: Decimal(string: "3.3")!, carbohydrates: Decimal(string: "4.8")!, fat: Decimal(string: "3.6")!),
                           serving: Serving(size: 250, unit: .milliliter))
    static let foods = Dictionary(uniqueKeysWithValues: [rice, chicken, milk].map { ($0.id, $0) })
    static let chickenRice = Meal(description: "Chicken rice", servings: 4,
                                  ingredients: [Ingredient(foodId: rice.id, quantity: 300, unit: .gram), Ingredient(foodId: chicken.id, quantity: 400, unit: .gram)])
    static let pudding = Meal(description: "Rice pudding", servings: 2,
                              ingredients: [Ingredient(foodId: rice.id, quantity: 200, unit: .gram), Ingredient(foodId: milk.id, quantity: 1, unit: .serving)])
    static let monday = CalendarDate(iso: "2026-11-30")!

    static func entry(_ meal: Meal, _ date: CalendarDate, servings: Int? = nil) -> PlanDay.Entry {
        PlanDay.Entry(assignment: Assignment(mealId: meal.id, date: date, servings: servings), meal: meal)
    }

    static var week: [PlanDay.Entry] {
        [entry(chickenRice, monday), entry(pudding, monday.adding(days: 1)), entry(chickenRice, monday.adding(days: 2), servings: 2)]
    }

    func need(_ needs: [ShoppingPlan.Need], _ food: Food) -> ShoppingPlan.Need? { needs.first { $0.foodId == food.id } }

    @Test("The issue's week: rice 650 g, chicken 600 g, milk 250 ml (a serving turned into millilitres)")
    func acceptanceWeek() {
        let needs = ShoppingPlan.needs(Self.week, foods: Self.foods, categories: [:])
        #expect(needs.count == 3)
        #expect(need(needs, Self.rice)?.quantity == 650)
        #expect(need(needs, Self.rice)?.unit == "g")
        #expect(need(needs, Self.rice)?.meals == ["Chicken rice", "Rice pudding"])
        #expect(need(needs, Self.rice)?.estimatedPrice == Decimal(string: "1.3"))
        #expect(need(needs, Self.chicken)?.quantity == 600)
        #expect(need(needs, Self.chicken)?.estimatedPrice == nil, "no price known")
        #expect(need(needs, Self.milk)?.quantity == 250)
        #expect(need(needs, Self.milk)?.unit == "ml")
        #expect(need(needs, Self.chicken)?.category == "Meat and fish", "an unset icon is guessed from the name")
    }

    @Test("Portions scale a day: 2 of a meal for 4 is half its ingredients and cost; unset is the meal's own")
    func portions() {
        let half = Self.entry(Self.chickenRice, Self.monday, servings: 2)
        #expect(half.assignment.scale(of: Self.chickenRice) == Decimal(string: "0.5"))
        #expect(Self.entry(Self.chickenRice, Self.monday).assignment.portions(of: Self.chickenRice) == 4)
        let totals = try! MealTotals.of(Self.pudding, foods: Self.foods)
        let cooked = PlanTotals.cooked([(totals, Decimal(3))])
        #expect(cooked.nutrients.energyKcal == totals.total.energyKcal! * 3)
        #expect(Assignment.problem(servings: 0) != nil)
        #expect(Assignment.problem(servings: 101) != nil)
        #expect(Assignment.problem(servings: 1) == nil)
        #expect(Assignment.problem(servings: nil) == nil)
    }

    @Test("A refresh follows the plan: quantities change, an item no longer needed goes, checks, chosen aisles and own items stay")
    func refresh() {
        let list = UUID(), now = Date(timeIntervalSince1970: 1_800_000_000)
        var counter = 0
        let newID = { () -> UUID in counter += 1; return UUID() }
        var items = ShoppingPlan.refresh([], with: ShoppingPlan.needs(Self.week, foods: Self.foods, categories: [:]), listId: list, now: now, newID: newID).added
        #expect(items.count == 3)
        let riceIndex = items.firstIndex { $0.foodId == Self.rice.id }!
        items[riceIndex].checked = true
        let chickenIndex = items.firstIndex { $0.foodId == Self.chicken.id }!
        items[chickenIndex].category = "Butcher"
        items[chickenIndex].categoryChosen = true
        let soap = ShoppingItem(id: UUID(), listId: list, name: "dish soap", source: .manual, updatedAt: now)
        items.append(soap)
        // Tuesday's pudding leaves the range.
        let changed = [Self.entry(Self.chickenRice, Self.monday), Self.entry(Self.chickenRice, Self.monday.adding(days: 2), servings: 2)]
        let refresh = ShoppingPlan.refresh(items, with: ShoppingPlan.needs(changed, foods: Self.foods, categories: [:]), listId: list,
                                           now: now.addingTimeInterval(60), newID: newID)
        #expect(refresh.added.isEmpty)
        #expect(refresh.removed == [items.first { $0.foodId == Self.milk.id }!.id])
        let rice = refresh.changed.first { $0.foodId == Self.rice.id }
        #expect(rice?.quantity == 450)
        #expect(rice?.checked == true)
        #expect(!refresh.changed.contains { $0.id == soap.id }, "own items are not touched")
        #expect(!refresh.removed.contains(soap.id))
        #expect(!refresh.changed.contains { $0.foodId == Self.chicken.id }, "chicken's need did not change: its chosen aisle stays")
    }

    @Test("A plan item whose unit was changed by hand (the API shows 1.5 kg) is still that food's item: its check stays")
    func refreshMatchesByFoodWhenTheUnitChanged() {
        let list = UUID(), now = Date(timeIntervalSince1970: 1_800_000_000)
        var items = ShoppingPlan.refresh([], with: ShoppingPlan.needs(Self.week, foods: Self.foods, categories: [:]), listId: list, now: now, newID: { UUID() }).added
        let rice = items.firstIndex { $0.foodId == Self.rice.id }!
        (items[rice].quantity, items[rice].unit, items[rice].checked) = (Decimal(string: "0.65"), "kg", true)
        let again = ShoppingPlan.refresh(items, with: ShoppingPlan.needs(Self.week, foods: Self.foods, categories: [:]), listId: list, now: now, newID: { UUID() })
        #expect(again.added.isEmpty && again.removed.isEmpty)
        let back = again.changed.first { $0.id == items[rice].id }
        #expect(back?.checked == true && back?.unit == "g" && back?.quantity == 650)
    }

    @Test("Amounts in sensible units: 1,500 g is 1.5 kg, 1,250 ml is 1.25 l, 650 g stays")
    func amounts() {
        #expect(ShoppingAmount.text(quantity: 1500, unit: "g") == "1.5 kg")
        #expect(ShoppingAmount.text(quantity: 1250, unit: "ml") == "1.25 l")
        #expect(ShoppingAmount.text(quantity: 650, unit: "g") == "650 g")
        #expect(ShoppingAmount.text(quantity: Decimal(string: "112.5")!, unit: "g") == "113 g", "rounded up: never buy too little")
        #expect(ShoppingAmount.text(quantity: 2, unit: "serving") == "2 servings")
        #expect(ShoppingAmount.text(quantity: 3, unit: "bottle") == "3 bottle")
        #expect(ShoppingAmount.text(quantity: nil, unit: nil) == nil)
    }

    @Test("A list reads like a shop: a short set of aisles, pieces and packs with the grams beside, meals it could not count named")
    func aListReadsLikeAShop() {
        // Each food in one of the shop's aisles, whichever catalogue part named its category.
        let aisle = { (category: String) in ShoppingAisle.of(catalogCategory: category) }
        #expect(aisle("Dairy and Egg Products") == .dairyAndEggs && aisle("Dairy and eggs") == .dairyAndEggs && aisle("Eggs and omelets") == .dairyAndEggs)
        #expect(aisle("Ground beef") == .meatAndFish && aisle("Finfish and Shellfish Products") == .meatAndFish)
        #expect(aisle("Corn") == .produce && aisle("Vegetables and Vegetable Products") == .produce, "sweetcorn is not a sweet")
        #expect(aisle("Potato chips") == .dryGoods && aisle("Ice cream and frozen dairy desserts") == .frozen && aisle("Sweets") == .dryGoods)
        #expect(aisle("Soups, Sauces, and Gravies") == .tinsAndJars && aisle("Apple juice") == .drinks && aisle("Yeast breads") == .bakery)
        let corn = Food(name: "Corn, sweet, yellow, raw", icon: .sweet, source: .usda)
        #expect(ShoppingCategory.of(corn, catalogCategory: "Vegetables and Vegetable Products") == "Produce")
        #expect(ShoppingCategory.of(Food(name: "Chicken breast"), catalogCategory: nil) == "Meat and fish", "a person's food: by its name")
        // Bought in pieces and packs, with the grams beside.
        let eggs = Food(name: "Egg, whole, raw, fresh", serving: Serving(size: 50, unit: .gram, label: "1 portion"))
        let onions = Food(name: "Onions, raw", serving: Serving(size: 160, unit: .gram, label: "1 portion"))
        let pasta = Food(name: "Spaghetti", price: Price(amount: 1.2, per: .package, packageSize: 500))
        #expect(ShoppingPurchase.of(eggs, quantity: 150, unit: "g") == "3 eggs")
        #expect(ShoppingPurchase.of(onions, quantity: 267, unit: "g") == "3 onions", "a medium onion, not the catalogue's 160 g portion")
        #expect(ShoppingPurchase.of(pasta, quantity: 650, unit: "g") == "2 packs of 500 g")
        #expect(ShoppingPurchase.of(Self.chicken, quantity: 600, unit: "g") == nil, "bought by weight")
        let item = ShoppingItem(id: UUID(), listId: UUID(), name: "Onions, raw", quantity: 267, unit: "g", source: .plan, updatedAt: Date(), purchase: "3 onions")
        #expect(item.amountText == "3 onions (267 g)")
        let needs = ShoppingPlan.needs([Self.entry(Meal(description: "Omelette", ingredients: [Ingredient(foodId: eggs.id, quantity: 3, unit: .serving)]), Self.monday)],
                                       foods: [eggs.id: eggs], categories: [:])
        #expect(needs.first?.purchase == "3 eggs" && needs.first?.category == "Dairy and eggs")
        // A lunch without ingredients is named, once.
        let salad = Meal(description: "Desk salad")
        #expect(ShoppingPlan.uncounted([Self.entry(salad, Self.monday), Self.entry(salad, Self.monday.adding(days: 1))] + Self.week,
                                       foods: Set(Self.foods.keys)) == ["Desk salad"])
        // Aisles in the order a shop is walked, an aisle a person named after them.
        let list = UUID(), now = Date()
        let rows = ["Pet food": "Household", "Bread": "Bakery", "Candles": "Party", "Apples": "Produce"].map {
            ShoppingItem(id: UUID(), listId: list, name: $0.key, category: $0.value, source: .manual, updatedAt: now)
        }
        #expect(ShoppingPlan.ordered(rows).map(\.name) == ["Apples", "Bread", "Pet food", "Candles"])
        #expect(CalendarDate.rangeText(from: CalendarDate(iso: "2026-12-08")!, to: CalendarDate(iso: "2026-12-14")!) == "8–14 December")
        #expect(CalendarDate.rangeText(from: CalendarDate(iso: "2026-12-28")!, to: CalendarDate(iso: "2027-01-03")!) == "28 December 2026 – 3 January 2027")
    }

    @Test("A list's order: open items by aisle and name, checked ones at the bottom")
    func order() {
        let list = UUID(), now = Date()
        let a = ShoppingItem(id: UUID(), listId: list, name: "zucchini", category: "Fruit and vegetables", source: .manual, updatedAt: now)
        let b = ShoppingItem(id: UUID(), listId: list, name: "apples", category: "Fruit and vegetables", checked: true, source: .manual, updatedAt: now)
        let c = ShoppingItem(id: UUID(), listId: list, name: "bread", category: "Bread, grains and pasta", source: .manual, updatedAt: now)
        #expect(ShoppingPlan.ordered([a, b, c]).map(\.name) == ["bread", "zucchini", "apples"])
    }

    @Test("Names, ranges and items are checked: blank, too long, a range backwards or too long, hostile quantities")
    func validation() {
        #expect(throws: ValidationError.self) { try ShoppingList.validated(name: nil, from: Self.monday, to: Self.monday.adding(days: -1)) }
        #expect(throws: ValidationError.self) { try ShoppingList.validated(name: nil, from: Self.monday, to: Self.monday.adding(days: 70)) }
        #expect(throws: ValidationError.self) { try ShoppingList.validated(name: String(repeating: "x", count: 101), from: Self.monday, to: Self.monday) }
        #expect((try? ShoppingList.validated(name: "  ", from: Self.monday, to: Self.monday))?.name == "Shopping 30 November")
        #expect(throws: ValidationError.self) { try ShoppingItemRules.validated(name: " ", quantity: nil, unit: nil, category: nil, requireName: true) }
        #expect(throws: ValidationError.self) { try ShoppingItemRules.validated(name: "soap", quantity: Decimal(string: "1e30"), unit: nil, category: nil, requireName: true) }
        #expect(throws: ValidationError.self) { try ShoppingItemRules.validated(name: "soap", quantity: -1, unit: nil, category: nil, requireName: true) }
        #expect((try? ShoppingItemRules.validated(name: nil, quantity: nil, unit: nil, category: nil, requireName: false)) != nil, "a change may give no name")
    }

    @Test("Bands: under below 90 %, within ±10 %, over above 110 %")
    func bands() {
        #expect(GoalStanding.band(amount: 1799, goal: 2000) == .under)
        #expect(GoalStanding.band(amount: 1800, goal: 2000) == .within)
        #expect(GoalStanding.band(amount: 2200, goal: 2000) == .within)
        #expect(GoalStanding.band(amount: 2201, goal: 2000) == .over)
        let standing = GoalStanding(Nutrients(energyKcal: 1000, protein: 50, carbohydrates: 100, fat: 30), goals: .defaults)
        #expect(standing.line(.energyKcal)?.difference == 1000 - Goals.defaults.energyKcal)
        #expect(standing.band == .under)
    }

}
