import ForkcastCore
import Foundation
import Testing

/// Ingredient lines as cooks write them, and amounts as cooks read them.
@Suite("Ingredient lines")
struct IngredientLineTests {
    func d(_ s: String) -> Decimal { Decimal(string: s)! }

    @Test func theIssuesLinesAreReadIntoTheirParts() {
        let flour = IngredientLine("2 1/2 cups flour, sifted")
        #expect(flour.quantity == CookQuantity(d("2.5")) && flour.unit == .cup && flour.food == "flour" && flour.preparation == "sifted")

        let chickpeas = IngredientLine("1 (400 g) can chickpeas")
        #expect(chickpeas.quantity == CookQuantity(1) && chickpeas.unit == .can && chickpeas.food == "chickpeas" && chickpeas.note == "400 g")

        let broccoli = IngredientLine("2-3 large heads of broccoli (~1 1/2 lb.), cut into small florets")
        #expect(broccoli.quantity == CookQuantity(2, upTo: 3) && broccoli.unit == .head && broccoli.food == "broccoli")
        #expect(broccoli.note == "~1 1/2 lb.; large" && broccoli.preparation == "cut into small florets", "\(broccoli)")

        let salt = IngredientLine("½ tsp salt")
        #expect(salt.quantity == CookQuantity(d("0.5")) && salt.unit == .teaspoon && salt.food == "salt")

        let toTaste = IngredientLine("to taste")
        #expect(toTaste.quantity == nil && toTaste.food.isEmpty && toTaste.preparation == "to taste")
        let pepper = IngredientLine("Freshly ground pepper to taste")
        #expect(pepper.quantity == nil && pepper.food == "Freshly ground pepper" && pepper.preparation == "to taste")
    }

    @Test(arguments: [
        ("1½ cups milk", "1.5", CookUnit.cup, "milk"),
        ("1 ½ cups milk", "1.5", .cup, "milk"),
        ("400g spaghetti", "400", .gram, "spaghetti"),
        ("1,5 kg potatoes", "1.5", .kilogram, "potatoes"),
        ("1,500 g potatoes", "1500", .gram, "potatoes"),
        ("2 Tbsp. olive oil", "2", .tablespoon, "olive oil"),
        ("1 14- ounce can of full fat coconut milk", "1", .can, "full fat coconut milk"),
        ("a pinch of salt", "1", .pinch, "salt"),
        ("3 cloves garlic, smashed", "3", .clove, "garlic"),
        ("2 fl oz cream", "2", .fluidOunce, "cream"),
        ("1⁄4 cup sugar", "0.25", .cup, "sugar"),
    ])
    func amountsAndUnits(line: String, quantity: String, unit: CookUnit, food: String) {
        let read = IngredientLine(line)
        #expect(read.quantity?.amount == d(quantity) && read.unit == unit && read.food == food, "\(read)")
    }

    @Test func linesWithoutAUnitCountThings() {
        let eggs = IngredientLine("2 large eggs")
        #expect(eggs.quantity == CookQuantity(2) && eggs.unit == nil && eggs.food == "eggs" && eggs.note == "large")
        let few = IngredientLine("a few sprigs of thyme")
        #expect(few.quantity == nil && few.food == "a few sprigs of thyme")
        let two = IngredientLine("two onions, diced")
        #expect(two.quantity == CookQuantity(2) && two.food == "onions" && two.preparation == "diced")
    }

    @Test func amountsReadAsACookWritesThem() {
        #expect(CookQuantity(1500).text(unit: .gram) == "1.5 kg")
        #expect(CookQuantity(d("0.333")).text(unit: .cup) == "⅓ cup")
        #expect(CookQuantity(2).text(unit: nil) == "2")
        #expect(CookQuantity(d("2.5")).text(unit: .cup) == "2½ cups")
        #expect(CookQuantity(d("0.75")).text(unit: .teaspoon) == "¾ tsp")
        #expect(CookQuantity(d("1250")).text(unit: .milliliter) == "1.25 l")
        #expect(CookQuantity(d("0.4")).text(unit: .kilogram) == "400 g")
        #expect(CookQuantity(d("12.5")).text(unit: .gram) == "12.5 g")
        #expect(CookQuantity(d("333.3")).text(unit: .gram) == "335 g")
        #expect(CookQuantity(2, upTo: 3).text(unit: .head) == "2–3 heads")
        #expect(CookQuantity(d("0.02")).text(unit: .teaspoon) == "0.02 tsp")
    }

    @Test func aFoodsAmountReadsInTheUnitTheCookWrote() throws {
        let sugar = Food(name: "Sugar", basis: .gram, per100: Nutrients(energyKcal: 387))
        let egg = Food(name: "Egg, whole", basis: .gram, per100: Nutrients(energyKcal: 143))
        // "⅓ cup sugar" became 66.7 g at 200 g a cup; "2 eggs" 100 g at 50 g each; "250 g" stays grams.
        let cup = try #require(WrittenUnit(quantity: d("0.3333"), unit: .cup, stored: d("66.66"), as: .gram))
        let each = try #require(WrittenUnit(quantity: 2, unit: nil, stored: 100, as: .gram))
        #expect(WrittenUnit(quantity: 250, unit: .gram, stored: 250, as: .gram) == nil)
        #expect(WrittenUnit(quantity: 1, unit: .cup, stored: d("1e100"), as: .gram) == nil, "a size past any plausible amount")
        #expect(WrittenUnit(quantity: 0, unit: .cup, stored: 10, as: .gram) == nil)
        for hostile in [#"{"unit":"cup","size":0}"#, #"{"unit":"cup","size":-3}"#, #"{"unit":"bucket","size":5}"#, #"{"size":1e300}"#] {
            #expect(throws: DecodingError.self, "\(hostile)") { try JSONDecoder().decode(WrittenUnit.self, from: Data(hostile.utf8)) }
        }
        #expect(try JSONDecoder().decode(WrittenUnit.self, from: Data(#"{"size":50}"#.utf8)) == WrittenUnit(unit: nil, size: 50))
        let meal = Meal(description: "Meringue", servings: 2, ingredients: [
            Ingredient(foodId: sugar.id, quantity: d("66.66"), unit: .gram, written: cup),
            Ingredient(foodId: egg.id, quantity: 100, unit: .gram, written: each),
            Ingredient(foodId: sugar.id, quantity: 1500, unit: .gram),
        ])
        let foods = [sugar.id: sugar, egg.id: egg]
        #expect(meal.recipeLines(foods: foods).map(\.text) == ["⅓ cup Sugar", "2 Egg, whole", "1.5 kg Sugar"])
        #expect(meal.recipeLines(foods: foods, servings: 6).map(\.text) == ["1 cup Sugar", "6 Egg, whole", "4.5 kg Sugar"])
        #expect(meal.recipeLines(foods: foods).first?.exactText == "⅓ cup Sugar (67 g)", "a part of one is its own weight")
        #expect(meal.recipeLines(foods: foods, servings: 6).map(\.exactText) == ["1 cup Sugar (200 g)", "6 Egg, whole (300 g in all)", "4.5 kg Sugar"])
                // The totals still use the grams.
        #expect(try MealTotals.of(meal, foods: foods).total.energyKcal?.rounded(0) == d("6206"))
    }

    @Test func scalingChangesOnlyTheAmount() {
        let line = IngredientLine("2 1/2 cups flour, sifted").scaled(by: Decimal(3) / 2)
        #expect(line.amountText == "3¾ cups" && line.food == "flour" && line.text == "2 1/2 cups flour, sifted")
        let range = IngredientLine("2-3 large heads of broccoli").scaled(by: 2)
        #expect(range.amountText == "4–6 heads")
    }

    @Test func hostileLinesAreReadWithoutTrapping() {
        for text in ["1e308 g sugar", "99999999999999999999 cups", "-5 cups flour", "1/0 cup", "((((", "))) 2 g",
                     "½½½½", "0 g salt", String(repeating: "9", count: 5000) + " g", "١٢ ملعقة سكر", "e\u{301}\u{301}\u{301} 2 g",
                     "<script>alert(1)</script> 2 cups", "\"\u{301} 2 g", "2 g \"\u{301}, sifted", String(repeating: "(", count: 10_000)] {
            let line = IngredientLine(text)
            #expect(line.text.count <= IngredientLine.maximumLength)
            _ = line.amountText
            _ = line.scaled(by: 1000).amountText
        }
        #expect(IngredientLine("1/0 cup").quantity == CookQuantity(1))
    }

    @Test(arguments: [
        ("PT1H30M", 90), ("P0DT0H20M0.000S", 20), ("PT20.0M", 20), ("PT0S", nil), ("P1DT2H", 1560), ("45", 45),
        ("1 hour 15 minutes", 75), ("20 mins", 20), ("10-15 minutes", 15), ("1h30", 90), ("PT99999999999H", nil), ("", nil), ("soon", nil),
    ] as [(String, Int?)])
    func durations(text: String, minutes: Int?) {
        #expect(ImportedRecipe.minutes(text) == minutes, "\(text)")
    }
}
