import ForkcastCore
import Foundation
import Testing

/// How an ingredient line is looked up among foods, and its amount when the food knows no portion.
@Suite("Ingredient lines looked up")
struct IngredientLineSearchTests {
    @Test(arguments: [
        ("2 cups peeled and chopped jicama", ["jicama"]),
        ("2 cups chopped English cucumber", ["english cucumber", "cucumber"]),
        ("1 teaspoon dried or fresh parsley", ["dried parsley", "parsley"]),
        ("1 (1-pound) salmon fillet", ["salmon fillet", "salmon"]),
        ("1 tsp vanilla bean powder", ["vanilla bean powder", "bean powder"]),
        ("Optional Glaze: ½ cup powdered sugar", ["powdered sugar", "sugar"]),
        ("kosher salt and black pepper", ["salt", "black pepper"]),
        ("3 tbsp melted butter or coconut oil", ["butter", "coconut oil"]),
        ("16 ounces linguine", ["pasta", "linguine"]),
        ("500 g turkey mince", ["turkey ground", "turkey mince", "ground beef", "mince"]),
        ("500 g mince", ["ground beef", "mince"]),
        ("1 cup sugar --", ["sugar"]),
        ("2 tablespoons chopped fresh mint leaves", ["spearmint leaves", "mint leaves", "spearmint", "mint"]),
    ])
    func namesGoFromTheWholeFoodToItsLastWord(line: String, names: [String]) {
        #expect(IngredientLine(line).searchNames == names)
    }

    @Test func aUnitAfterTheFoodIsTheUnit() {
        let garlic = IngredientLine("3 garlic cloves (minced)")
        #expect(garlic.unit == .clove && garlic.food == "garlic")
        #expect(IngredientLine("2 celery stalks").unit == .stalk)
        #expect(IngredientLine("Garlic cloves").unit == nil, "no amount, no unit")
    }

    @Test func aCupWeighsWhatItsFoodDoes() {
        func grams(_ line: String, _ name: String) -> Decimal? {
            let line = IngredientLine(line)
            return line.amount(basis: .gram, serving: nil, density: CookWeight.gramsPerMilliliter(line: line.food, name: name))?.quantity
        }
        #expect(grams("2 cups all-purpose flour", "Wheat flour, white, all-purpose").map { abs($0 - 250) < 1 } == true)
        #expect(grams("1 cup brown sugar", "Sugars, brown").map { abs($0 - 213) < 1 } == true)
        #expect(grams("1 cup shredded cheddar cheese", "Cheese, cheddar").map { abs($0 - 113) < 1 } == true)
        #expect(grams("1 cup rice vinegar", "Vinegar, rice").map { abs($0 - 239) < 1 } == true, "the vinegar, not the rice")
        #expect(grams("1 cup honey roasted peanuts", "Peanuts, honey roasted").map { abs($0 - 146) < 1 } == true, "peanuts, not honey")
        #expect(grams("1 cup mystery", "Mystery").map { abs($0 - Decimal(string: "236.588")!) < 1 } == true, "else 1 g per ml")
    }

    @Test func describingWordsBeforeACommaAreOfTheFood() {
        let chicken = IngredientLine("1 pound boneless, skinless chicken breasts, cubed")
        #expect(chicken.food == "boneless skinless chicken breasts" && chicken.preparation == "cubed")
        let apples = IngredientLine("4 pounds crisp, sweet apples")
        #expect(apples.food == "crisp sweet apples" && apples.preparation == nil)
        #expect(IngredientLine("2 onions, chopped").food == "onions")
        let milk = IngredientLine("1, 14 oz can of sweetened condensed milk")
        #expect(milk.unit == .can && milk.note == "14 oz" && milk.food == "sweetened condensed milk", "\(milk)")
    }

    @Test func aHeadingBeforeTheAmountIsNotTheFood() {
        let sugar = IngredientLine("Optional Glaze: ½ cup powdered sugar")
        #expect(sugar.quantity == CookQuantity(Decimal(string: "0.5")!) && sugar.unit == .cup && sugar.food == "powdered sugar")
        #expect(IngredientLine("Note: salt is optional").quantity == nil)
        let salt = IngredientLine("Salt: 1 tsp")
        #expect(salt.food == "Salt" && salt.unit == .teaspoon, "a heading with nothing after the amount is the food")
    }

    @Test func aCatalogueNameMustHoldEveryWordSearchedFor() {
        #expect(IngredientLine.names("limes", match: "Limes, raw"))
        #expect(IngredientLine.names("tomato", match: "Tomatoes, red, ripe, raw"))
        #expect(IngredientLine.names("raspberries", match: "Raspberry, raw"))
        #expect(IngredientLine.names("red bell pepper", match: "Peppers, bell, red, raw"))
        #expect(!IngredientLine.names("tajin", match: "Tahini"))
        #expect(!IngredientLine.names("salmon fillet", match: "Fish, salmon, raw"))
    }

    @Test func bracketedWeightsAndUsualCountsGiveGrams() throws {
        func grams(_ line: String) -> Decimal? {
            IngredientLine(line).amount(basis: .gram, serving: nil)?.quantity
        }
        #expect(grams("1 (1-pound) salmon fillet").map { abs($0 - Decimal(string: "453.59237")!) < 0.01 } == true)
        #expect(grams("2 cans salmon (6 oz / 170 grams each)").map { abs($0 - Decimal(string: "340.19")!) < 0.01 } == true)
        #expect(grams("2-3 large heads of broccoli (~1 1/2 lb.)").map { abs($0 - Decimal(string: "680.39")!) < 0.01 } == true,
                "about a total weight, not each head's")
        #expect(grams("3 cloves garlic, minced") == 9)
        #expect(grams("1 (14-ounce) can coconut milk").map { $0 > 396 && $0 < 397 } == true, "the can's size, not a usual can")
        #expect(grams("2 cans chickpeas") == 800)
        #expect(grams("4 chicken thighs (2 lbs total)").map { abs($0 - Decimal(string: "907.18")!) < 0.01 } == true, "a total, not each")
        #expect(grams("2 (6-ounce) salmon fillets").map { abs($0 - Decimal(string: "340.19")!) < 0.01 } == true, "a size is each one's")
        #expect(grams("1/4 cup plain bread crumbs (30 grams)") == 30, "a volume the page also weighed")
        let milk = try #require(IngredientLine("1 (400 ml) can coconut milk").amount(basis: .milliliter, serving: nil))
        #expect(milk.quantity == 400 && milk.unit == .milliliter && milk.conversion == .exact)
        #expect(IngredientLine("1 head lettuce").amount(basis: .gram, serving: nil) == nil, "a head varies too much to guess")
    }
}
