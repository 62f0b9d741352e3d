import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("Foods: validation, barcodes, units")
struct FoodTests {
    @Test func aPlateRowLeftAtItsUsualPortionLogsIt() {
        let bar = Food(name: "Granola bar", serving: Serving(size: 40, unit: .gram))
        let milk = Food(name: "Milk", basis: .milliliter)
        #expect(bar.platePortion(quantity: nil, unit: nil)! == (1, .serving), "nothing typed: one serving")
        #expect(milk.platePortion(quantity: nil, unit: nil)! == (100, .milliliter), "no serving: 100 of its basis")
        #expect(bar.platePortion(quantity: 150, unit: nil)! == (150, .gram), "a plain number is grams, never servings")
        #expect(milk.platePortion(quantity: 250, unit: nil)! == (250, .milliliter))
        #expect(bar.platePortion(quantity: 30, unit: .gram)! == (30, .gram), "what was typed, as typed")
        #expect(bar.platePortion(quantity: nil, unit: .gram) == nil, "a unit without an amount: how much?")
        #expect(bar.platePortion(quantity: 2, unitText: "portion:128")! == (256, .gram), "two of a named portion, in grams")
        #expect(bar.platePortion(quantity: nil, unitText: "portion:128")! == (128, .gram), "one when no number is typed")
        #expect(bar.platePortion(quantity: 2, unitText: "portion:-1") == nil && bar.platePortion(quantity: 2, unitText: "portion:1e308") == nil)
        #expect(milk.platePortion(quantity: 2, unitText: "portion:128") == nil, "grams of a food measured in ml: no")
        #expect(bar.platePortion(quantity: 150, unitText: "")! == (150, .gram) && bar.platePortion(quantity: 1, unitText: "cup") == nil)
    }

    @Test func anAmountBigEnoughToBeASlipIsAskedAboutFirst() throws {
        let carrots = Food(name: "Carrots, raw", per100: Nutrients(energyKcal: 41), serving: Serving(size: 128, unit: .gram, label: "1 portion"))
        let day = CalendarDate(year: 2026, month: 12, day: 1)!
        func entry(_ q: Decimal, _ unit: QuantityUnit, _ food: Food = carrots) throws -> DiaryEntry {
            try DiaryEntry.food(food, quantity: q, unit: unit, loggedAt: Date(), date: day, mealType: "lunch")
        }
        #expect(try entry(150, .serving).largeAmountQuestion(food: carrots) == "150 servings of Carrots, raw is 7\u{202F}872 kcal — did you mean 150 g?")
        #expect(try entry(150, .gram).largeAmountQuestion(food: carrots) == nil, "150 g is a meal's amount")
        #expect(try entry(10, .serving).largeAmountQuestion(food: carrots) == nil, "10 servings is not more than 10")
        #expect(try entry(3500, .gram).largeAmountQuestion(food: carrots) == "3\u{202F}500 g of Carrots, raw is 1\u{202F}435 kcal — is that right?", "over 3 kg")
        let oil = Food(name: "Olive oil", basis: .milliliter, per100: Nutrients(energyKcal: 824))
        #expect(try entry(400, .milliliter, oil).largeAmountQuestion(food: oil) == "400 ml of Olive oil is 3\u{202F}296 kcal — is that right?", "over 3\u{202F}000 kcal")
        let unknown = Food(name: "Mystery stew", serving: Serving(size: 300, unit: .gram))
        #expect(try entry(12, .serving, unknown).largeAmountQuestion(food: unknown) == "12 servings of Mystery stew is 3\u{202F}600 g — did you mean 12 g?")
        let feast = DiaryEntry(loggedAt: Date(), date: day, mealType: "dinner", kind: .meal(mealId: UUID(), servings: 12), name: "Lasagne",
                               nutrients: Nutrients(energyKcal: 7200))
        #expect(feast.largeAmountQuestion(food: nil) == "12 servings of Lasagne is 7\u{202F}200 kcal — is that right?")
        let quick = DiaryEntry(loggedAt: Date(), date: day, mealType: "dinner", kind: .quickAdd, name: "Quick add", nutrients: Nutrients(energyKcal: 5000))
        #expect(quick.largeAmountQuestion(food: nil) == "Quick add is 5\u{202F}000 kcal — is that right?")
    }

    func d(_ s: String) -> Decimal { Decimal(string: s)! }

    @Test func barcodesOfOneProductAreEqualAcrossUPCAndEAN() {
        #expect(Barcode("737628064502") == Barcode("0737628064502"))
        #expect(Barcode("0737628064502")?.digits == "0737628064502")
        #expect(Barcode("00737628064502")?.digits == "0737628064502", "GTIN-14 with a leading zero")
        #expect(Barcode("5449000011527")?.digits == "5449000011527")
        #expect(Barcode("04963406")?.digits == "04963406", "EAN-8 stays 8 digits")
        #expect(Barcode("200000000034") == Barcode("0200000000034"))
        #expect(Barcode("12a45678") == nil)
        #expect(Barcode("123") == nil)
        #expect(Barcode("123456789012345") == nil)
        #expect(Barcode(" 5449000 011527 ")?.digits == "5449000011527")
    }

    @Test func kilojoulesBecomeKilocalories() throws {
        let food = try FoodDraft(name: "Juice", per100: Nutrients(protein: 0, carbohydrates: 10, fat: 0), energyKj: d("418.4")).validated()
        #expect(food.per100.energyKcal == 100)
        #expect(Nutrients.kilocalories(fromKilojoules: d("4.184")) == 1)
    }

    @Test func rejectsImpossibleNutrition() {
        func problems(_ n: Nutrients, basis: NutritionBasis = .gram) -> [String] {
            do { _ = try FoodDraft(name: "X", basis: basis, per100: n).validated(); return [] } catch { return error.fields.map(\.field) }
        }
        #expect(problems(Nutrients(protein: -1)) == ["per100.protein"])
        #expect(problems(Nutrients(fat: 101)).contains("per100.fat"))
        #expect(problems(Nutrients(protein: 40, carbohydrates: 40, fat: 30)) == ["per100"])
        #expect(problems(Nutrients(carbohydrates: 10, sugars: 12)) == ["per100.sugars"])
        #expect(problems(Nutrients(fat: 5, saturatedFat: 6)) == ["per100.saturatedFat"])
        #expect(problems(Nutrients(energyKcal: 950)) == ["per100.energyKcal"])
        #expect(problems(Nutrients(energyKcal: 884, fat: 100)).isEmpty, "pure oil is fine")
        #expect(problems(Nutrients(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0)).isEmpty, "water is fine")
    }

    @Test func flagsEnergyThatTheMacrosDoNotExplain() throws {
        let consistent = try FoodDraft(name: "Oats", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7)).validated()
        #expect(consistent.warnings.isEmpty)
        let odd = try FoodDraft(name: "Odd", per100: Nutrients(energyKcal: 50, protein: 13, carbohydrates: 60, fat: 7)).validated()
        #expect(odd.warnings.count == 1)
        #expect(odd.warnings[0].contains("does not match"))
    }

    @Test func servingsAndPricesNeedWhatTheyReferTo() {
        #expect(throws: ValidationError.self) {
            try FoodDraft(name: "X", price: Price(amount: 2, per: .package)).validated()
        }
        #expect(throws: ValidationError.self) {
            try FoodDraft(name: "X", price: Price(amount: 2, per: .serving)).validated()
        }
        #expect(throws: ValidationError.self) {
            try FoodDraft(name: "X", basis: .gram, serving: Serving(size: 250, unit: .milliliter)).validated()
        }
        #expect(throws: ValidationError.self) { try FoodDraft(name: "  ").validated() }
        #expect(throws: ValidationError.self) { try FoodDraft(name: "X", barcode: "12-ab").validated() }
    }

    @Test func amountsConvertThroughTheBasisAndServing() throws {
        let milk = Food(name: "Milk", basis: .milliliter, per100: Nutrients(energyKcal: 64, protein: d("3.4"), carbohydrates: d("4.8"), fat: d("3.6")),
                        serving: Serving(size: 250, unit: .milliliter, label: "1 glass"), price: Price(amount: d("1.20"), per: .package, packageSize: 1000))
        #expect(try FoodMath.basisAmount(of: milk, quantity: 2, unit: .serving) == 500)
        #expect(try FoodMath.nutrients(of: milk, quantity: 250, unit: .milliliter).energyKcal == 160)
        #expect(try FoodMath.nutrients(of: milk, quantity: 1, unit: .serving).protein == d("8.5"))
        #expect(try FoodMath.cost(of: milk, quantity: 250, unit: .milliliter) == d("0.3"))
        #expect(throws: FoodMath.ConversionError.self) { try FoodMath.basisAmount(of: milk, quantity: 100, unit: .gram) }
        let egg = Food(name: "Egg", per100: Nutrients(energyKcal: 143), serving: Serving(size: 50, unit: .gram, label: "1 piece"),
                       price: Price(amount: d("0.35"), per: .serving))
        #expect(try FoodMath.nutrients(of: egg, quantity: 2, unit: .serving).energyKcal == 143)
        #expect(try FoodMath.cost(of: egg, quantity: 3, unit: .serving) == d("1.05"))
        let flour = Food(name: "Flour", per100: Nutrients(energyKcal: 364))
        #expect(throws: FoodMath.ConversionError.self) { try FoodMath.basisAmount(of: flour, quantity: 1, unit: .serving) }
        #expect(Serving(size: 50, unit: .gram, label: "1 piece").displayLabel == "1 piece (50 g)")
    }

    @Test func mealTotalsComeFromIngredientsDividedByServings() throws {
        let oats = Food(name: "Oats", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7),
                        price: Price(amount: 2, per: .package, packageSize: 1000))
        let milk = Food(name: "Milk", basis: .milliliter, per100: Nutrients(energyKcal: 64, protein: d("3.4"), carbohydrates: d("4.8"), fat: d("3.6")),
                        price: Price(amount: 1, per: .package, packageSize: 1000))
        let meal = Meal(description: "Porridge", servings: 2, ingredients: [
            Ingredient(foodId: oats.id, quantity: 100, unit: .gram), Ingredient(foodId: milk.id, quantity: 400, unit: .milliliter)])
        let totals = try MealTotals.of(meal, foods: [oats.id: oats, milk.id: milk])
        #expect(totals.total.energyKcal == Decimal(628))
        #expect(totals.perServing.energyKcal == 314)
        #expect(totals.perServing.protein == d("13.3"))
        #expect(totals.cost == d("0.6"))
        #expect(totals.costPerServing == d("0.3"))
    }

    @Test func aMealWithoutIngredientsUsesTypedNutrition() throws {
        let meal = Meal(description: "Takeaway", servings: 1, manualNutrition: Nutrients(energyKcal: 800, protein: 30))
        let totals = try MealTotals.of(meal, foods: [:])
        #expect(totals.perServing.energyKcal == 800)
        #expect(totals.cost == nil)
        #expect(try MealTotals.of(Meal(description: "Unknown"), foods: [:]).perServing.energyKcal == nil)
    }

    @Test func dayTotalsAddOneServingOfEachPlannedMeal() {
        let a = MealTotals(total: Nutrients(), perServing: Nutrients(energyKcal: 500, protein: 20), cost: nil, costPerServing: d("2.5"))
        let b = MealTotals(total: Nutrients(), perServing: Nutrients(energyKcal: 300), cost: nil, costPerServing: nil)
        let day = PlanTotals.of([a, b, a])
        #expect(day.nutrients.energyKcal == 1300)
        #expect(day.nutrients.protein == 40)
        #expect(day.cost == 5)
        #expect(PlanTotals.of([]).nutrients.energyKcal == nil)
    }

    @Test func numbersAsPeopleTypeThem() {
        #expect(Decimal(typed: "12,5") == Decimal(string: "12.5"))
        #expect(Decimal(typed: " 3 ") == 3)
        #expect(Decimal(typed: "") == nil)
        #expect(Decimal(typed: "12abc") == nil)
        #expect(Decimal(typed: "abc") == nil)
    }

    @Test func displayRoundsOnlyAtTheEnd() {
        let third = Decimal(100) / 3
        #expect(third.display(1) == "33.3")
        #expect((third * 3).rounded(6) == 100)
        #expect(Decimal(string: "2.25")!.rounded(1) == Decimal(string: "2.3")!)
    }
}

@Suite("Food properties", .tags(.property))
struct FoodPropertyTests {
    static let amount = Gen.int(in: 0...100_000).map { Decimal($0) / 100 }
    static let grams = Gen.int(in: 1...2000).map { Decimal($0) }
    static let nutrients = zip(amount, Gen.int(in: 0...30), Gen.int(in: 0...60), Gen.int(in: 0...9))
        .map { Nutrients(energyKcal: $0, protein: Decimal($1), carbohydrates: Decimal($2), fat: Decimal($3)) }

    @Test("A meal's totals equal the sum of its ingredients' shares") func totalsAreSums() async {
        await propertyCheck(count: 200, input: Self.nutrients.array(of: 1...6), Self.grams.array(of: 6), Gen.int(in: 1...8)) { per100s, quantities, servings in
            let foods = per100s.map { Food(name: "F", per100: $0) }
            let ingredients = zip(foods, quantities).map { Ingredient(foodId: $0.id, quantity: $1, unit: .gram) }
            let meal = Meal(description: "M", servings: servings, ingredients: ingredients)
            let totals = try MealTotals.of(meal, foods: Dictionary(uniqueKeysWithValues: foods.map { ($0.id, $0) }))
            var energy: Decimal = 0, protein: Decimal = 0
            for (food, q) in zip(foods, quantities) {
                energy += food.per100.energyKcal! * q / 100
                protein += food.per100.protein! * q / 100
            }
            #expect(totals.total.energyKcal == energy)
            #expect(totals.total.protein == protein)
            #expect((totals.perServing.energyKcal! * Decimal(servings) - energy).magnitude < Decimal(string: "0.000000001")!)
        }
    }

    @Test("Servings and grams agree") func servingConversion() async {
        await propertyCheck(count: 200, input: Self.grams, Gen.int(in: 1...10), Self.nutrients) { servingSize, count, per100 in
            let food = Food(name: "F", per100: per100, serving: Serving(size: servingSize, unit: .gram))
            let viaServings = try FoodMath.nutrients(of: food, quantity: Decimal(count), unit: .serving)
            let viaGrams = try FoodMath.nutrients(of: food, quantity: servingSize * Decimal(count), unit: .gram)
            #expect(viaServings == viaGrams)
        }
    }

    @Test("kJ and kcal round-trip") func kilojoules() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...90_000)) { tenths in
            let kcal = Decimal(tenths) / 10
            let kj = kcal * Nutrients.kilojoulesPerKilocalorie
            #expect((Nutrients.kilocalories(fromKilojoules: kj) - kcal).magnitude < Decimal(string: "0.0000001")!)
        }
    }

    @Test("Barcodes normalise idempotently") func barcodeIdempotent() async {
        await propertyCheck(count: 200, input: Gen.int(in: 8...13), Gen.int(in: 0...Int.max)) { length, seed in
            let digits = String(String(seed).padding(toLength: length, withPad: "7", startingAt: 0).prefix(length))
            guard let code = Barcode(digits) else { Issue.record("rejected \(digits)"); return }
            #expect(Barcode(code.digits) == code)
            if length == 12 { #expect(Barcode("0" + digits) == code) }
        }
    }
}
