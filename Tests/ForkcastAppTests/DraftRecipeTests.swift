import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// An imported recipe's lines matched to the catalogue Forkcast ships, on the fake.
@Suite("Recipe drafts matched to the catalogue")
struct DraftRecipeTests {
    let draft = DraftRecipe(ownFoods: { _ in [] }, catalog: InMemoryFoodCatalog(LibraryUseCasesTests.shippedCatalogue))

    func lines(_ ingredients: [String]) async throws -> [DraftRecipe.Line] {
        let recipe = ImportedRecipe(name: "Test", ingredients: ingredients, steps: ["Cook."], yield: "1")
        return try await draft.draft([recipe], from: .text("")).lines
    }

    func name(_ line: DraftRecipe.Line) -> String? {
        if case .catalog(let food) = line.match { food.name } else { nil }
    }

    @Test func linesAreFoundByTheFoodTheyName() async throws {
        let found = try await lines(["2 cups peeled and chopped jicama", "2 cups chopped English cucumber", "1 (1-pound) salmon fillet",
                                     "1 teaspoon dried or fresh parsley", "⅓ cup freshly grated parmesan cheese"])
        let names = found.map(name)
        #expect(names.allSatisfy { $0 != nil }, "\(names)")
        #expect(names[0]?.lowercased().contains("jicama") == true && names[1]?.hasPrefix("Cucumber") == true, "\(names)")
        #expect(names[2]?.lowercased().contains("salmon") == true && names[3]?.contains("arsley") == true, "\(names)")
        #expect(names[4]?.contains("armesan") == true, "\(names)")
        #expect(found[2].amount.map { $0.quantity > 453 && $0.quantity < 454 } == true, "the fillet's bracketed pound")
    }

    @Test func aCountWeighsItsUsualOneElseTheFoodsPortion() async throws {
        let found = try await lines(["2 ripe mangos", "3 garlic cloves, minced", "2 plums"])
        #expect(found[0].amount?.quantity == 400 && found[0].amount?.conversion == .estimated, "two mangoes of 200 g")
        #expect(found[1].amount?.quantity == 9 && found[1].amount?.conversion == .estimated)
        let plums = try #require(found[2].amount, "\(String(describing: name(found[2])))")
        #expect(plums.conversion == .portion && plums.quantity > 50, "\(plums)")
    }

    @Test func grainsAreWeighedDryUnlessTheLineSaysCooked() async throws {
        let found = try await lines(["1 pound linguine", "1 cup jasmine rice", "2 cups cooked rice", "1 cup chicken broth"])
        let names = found.map(name)
        #expect(names[0]?.contains("dry") == true && names[1]?.contains("raw") == true, "\(names)")
        #expect(names[2]?.contains("cooked") == true && names[3]?.contains("no broth") == false, "\(names)")
    }

    @Test func aFoodThatStatesItsEnergyIsChosenFirst() async throws {
        // The catalogue's "Oil, olive, extra virgin" and "Butter, stick, unsalted" state no energy.
        let found = try await lines(["2 tablespoons extra virgin olive oil", "1 tablespoon unsalted butter"])
        for line in found {
            guard case .catalog(let food) = line.match else { Issue.record("\(line.line.text) unmatched"); continue }
            #expect(food.per100.energyKcal.map { $0 > 600 } == true, "\(food.name)")
        }
    }

    @Test func aMatchedLineKeepsTheUnitTheCookWrote() async throws {
        let sugar = Food(name: "Sugar", basis: .gram, per100: Nutrients(energyKcal: 387))
        let own = DraftRecipe(ownFoods: { name in name.lowercased().contains("sugar") ? [sugar] : [] },
                              catalog: InMemoryFoodCatalog(LibraryUseCasesTests.shippedCatalogue))
        let recipe = ImportedRecipe(name: "Syrup", ingredients: ["⅓ cup sugar", "100 g sugar", "2 eggs"], steps: ["Boil."], yield: "2")
        let found = try await own.draft([recipe], from: .text(""))
        #expect(found.lines[0].written?.unit == .cup && found.lines[1].written == nil, "grams written as grams need no unit")
        let meal = Meal(description: "Syrup", servings: 2, ingredients: found.meal.ingredients)
        #expect(meal.ingredients[0].written?.unit == .cup)
        #expect(meal.recipeLines(foods: [sugar.id: sugar]).prefix(2).map(\.text) == ["⅓ cup Sugar", "100 g Sugar"])
        #expect(meal.recipeLines(foods: [sugar.id: sugar], servings: 6).first?.text == "1 cup Sugar")
    }

    @Test func anOptionalLineIsKeptAsWrittenAndLeftOutOfTheTotals() async throws {
        let recipe = ImportedRecipe(name: "Salad", ingredients: ["100 g spinach", "Optional: 2 cups cooked chicken"], steps: ["Toss."], yield: "1")
        let draft = try await draft.draft([recipe], from: .text(""))
        #expect(draft.lines[1].match != .none, "its match is still offered")
        let spinachOnly = try await self.draft.draft([ImportedRecipe(name: "Salad", ingredients: ["100 g spinach"], steps: ["Toss."], yield: "1")], from: .text(""))
        #expect(draft.nutritionPerServing.energyKcal == spinachOnly.nutritionPerServing.energyKcal)
        #expect(IngredientLine("16 olives (optional)").isOptional && !IngredientLine("2 cups chicken").isOptional)
    }

    @Test func aLineFindsTheCataloguesFoodBeforeAnOwnFoodOfALesserName() async throws {
        let milk = try FoodDraft(name: "Milk", per100: Nutrients(energyKcal: 64)).validated(id: UUID(), createdAt: Date(), now: Date())
        let draft = DraftRecipe(ownFoods: { query in [milk].filter { $0.name.lowercased().contains(query.lowercased()) } },
                                catalog: InMemoryFoodCatalog(LibraryUseCasesTests.shippedCatalogue))
        let found = try await draft.draft([ImportedRecipe(name: "Curry", ingredients: ["1 cup coconut milk", "1 cup milk"], steps: ["Cook."], yield: "1")],
                                          from: .text("")).lines
        #expect(name(found[0])?.lowercased().contains("coconut") == true, "not the person's dairy milk")
        #expect(found[1].match == .food(milk))
    }

    @Test func aTinIsMatchedToACannedFoodAndAFreshOneNot() async throws {
        let found = try await lines(["1 (14 oz) can diced tomatoes", "2 tomatoes, diced"])
        #expect(name(found[0])?.lowercased().contains("canned") == true, "\(found.map(name))")
        #expect(name(found[1])?.lowercased().contains("canned") == false, "\(found.map(name))")
        #expect(found[0].amount.map { $0.quantity > 396 && $0.quantity < 397 } == true, "the bracketed 14 oz")
    }

    /// 500 lines of several names each: a draft asks at most 1,500 names in all, then keeps the
    /// rest of the lines as written rather than search without end.
    @Test func aDraftAsksAtMostFifteenHundredNames() async throws {
        actor Asked { var count = 0; func add() { count += 1 } }
        let asked = Asked()
        let draft = DraftRecipe(ownFoods: { _ in await asked.add(); return [] }, catalog: InMemoryFoodCatalog([]))
        // Names of letters only (a number in a line is read as an amount): each line's its own.
        func word(_ n: Int) -> String { String((0..<3).map { Character(UnicodeScalar(UInt8(97 + (n / [1, 26, 676][$0]) % 26))) }) }
        let ingredients = (0..<DraftRecipe.maximumLines).map { "1 cup chopped fresh zq\(word($0)) or zx\(word($0)) or zw\(word($0)) leaves" }
        let found = try await draft.draft([ImportedRecipe(name: "Many", ingredients: ingredients, steps: ["Cook."], yield: "1")], from: .text("")).lines
        #expect(found.count == DraftRecipe.maximumLines && found.allSatisfy { $0.match == .none })
        let count = await asked.count
        #expect(count == 1_500, "\(count) names asked; a line has \(IngredientLine(ingredients[0]).searchNames)")
    }

    @Test func aNameWithAWordNoFoodHasIsKeptAsWritten() async throws {
        let found = try await lines(["Tajin, for sprinkling", "1 tsp xyzzy powder"])
        #expect(found.map(\.match) == [.none, .none], "\(found.map(name))")
    }
}
