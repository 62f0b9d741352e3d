import ForkcastCore
import Foundation
import Testing

/// Pages, files and pasted text as people bring them, and as an attacker would.
@Suite("Recipe pages")
struct RecipePageTests {
    func page(_ jsonLD: String, body: String = "") -> String {
        "<html><head><script type=\"application/ld+json\">\(jsonLD)</script></head><body>\(body)</body></html>"
    }

    @Test func aGraphWithAnArrayOfTypesAndSections() {
        let html = page("""
        {"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"Page"},
         {"@type":["Recipe","NewsArticle"],"name":"Dal &amp; rice","recipeYield":["4","4 servings"],"prepTime":"PT10M","cookTime":"PT35M",
          "recipeIngredient":["1 cup red lentils","½ tsp salt"],
          "recipeInstructions":[{"@type":"HowToSection","name":"For the dal","itemListElement":[{"@type":"HowToStep","text":"Rinse."},{"@type":"HowToStep","text":"Simmer 20 minutes."}]},
                                {"@type":"HowToStep","text":"Serve with <b>rice</b>."}],
          "nutrition":{"@type":"NutritionInformation","calories":"320 kcal","proteinContent":"14 g","sodiumContent":"300 mg"}}]}
        """)
        let recipe = RecipePage.recipes(inHTML: html).first
        #expect(recipe?.name == "Dal & rice" && recipe?.yield == "4 servings" && recipe?.servings == 4)
        #expect(recipe?.steps == ["For the dal: Rinse.", "Simmer 20 minutes.", "Serve with rice."])
        #expect(recipe?.prepMinutes == 10 && recipe?.cookMinutes == 35 && recipe?.totalMinutes == 45)
        #expect(recipe?.nutritionPerServing?.energyKcal == 320 && recipe?.nutritionPerServing?[.sodium] == 300)
    }

    @Test func microdataIsReadWhenThereIsNoJSONLD() {
        let html = """
        <div itemscope itemtype="http://schema.org/Recipe"><h1 itemprop="name">Pancakes</h1>
        <span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Ana</span></span>
        <meta itemprop="prepTime" content="PT5M"><span itemprop="recipeYield">Makes 8</span>
        <ul><li itemprop="recipeIngredient">200 g flour</li><li itemprop="recipeIngredient">2 eggs</li></ul>
        <div itemprop="nutrition" itemscope itemtype="http://schema.org/NutritionInformation"><span itemprop="calories">150 calories</span></div>
        <ol itemprop="recipeInstructions"><li>Whisk.</li><li>Fry.</li></ol></div>
        """
        let recipe = RecipePage.recipes(inHTML: html).first
        #expect(recipe?.name == "Pancakes" && recipe?.ingredients == ["200 g flour", "2 eggs"] && recipe?.steps == ["Whisk.", "Fry."])
        #expect(recipe?.servings == 8 && recipe?.prepMinutes == 5 && recipe?.nutritionPerServing?.energyKcal == 150)
    }

    @Test func pastedTextWithAndWithoutHeadings() {
        let headed = RecipeText.recipe(in: "Tomato soup\nServes 4\nPrep time: 10 minutes\nIngredients\n- 1 kg tomatoes\n- salt to taste\nMethod\n1. Chop.\n2. Simmer.")
        #expect(headed?.name == "Tomato soup" && headed?.servings == 4 && headed?.prepMinutes == 10)
        #expect(headed?.ingredients == ["1 kg tomatoes", "salt to taste"] && headed?.steps == ["Chop.", "Simmer."])
        let bare = RecipeText.recipe(in: "Toast\n2 slices bread\n1 tbsp butter\nToast the bread.\nButter it.")
        #expect(bare?.ingredients == ["2 slices bread", "1 tbsp butter"] && bare?.steps == ["Toast the bread.", "Butter it."])
        #expect(RecipeText.recipe(in: " \n\n ") == nil)
    }

    @Test func tenRecipesOnOnePageAreAllFound() {
        let nodes = (1...10).map { "{\"@type\":\"Recipe\",\"name\":\"Dish \($0)\",\"recipeIngredient\":[\"1 egg\"]}" }
        #expect(RecipePage.recipes(inHTML: page("[" + nodes.joined(separator: ",") + "]")).map(\.name) == (1...10).map { "Dish \($0)" })
    }

    @Test func brokenAndHostileJSONLDFindsNothingAndDoesNotTrap() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for block in ["{\"@type\":\"Recipe\",\"name\":", "not json", deep, "{\"@type\":\"Recipe\"}", "{\"@type\":\"Recipe\",\"name\":1e308}",
                      "{\"@type\":\"Recipe\",\"name\":\"x\",\"recipeYield\":1e308,\"prepTime\":\"PT1e308M\",\"recipeIngredient\":{\"a\":{\"b\":[]}}}"] {
            let found = RecipePage.recipes(inHTML: page(block))
            #expect(found.count <= 1)
            _ = found.first?.servings
        }
        #expect(RecipePage.recipes(inHTML: "<script type=\"application/ld+json\">{\"@type\":\"Recipe\",\"name\":\"Unclosed\"}").first?.name == "Unclosed")
    }

    @Test func scriptInAPageStaysText() {
        let html = page(#"{"@type":"Recipe","name":"<img src=x onerror=alert(1)>Cake<script>alert(2)<\/script>","recipeIngredient":["&lt;script&gt;alert(3)&lt;/script&gt; 2 eggs"]}"#)
        let recipe = RecipePage.recipes(inHTML: html).first
        #expect(recipe?.name.contains("<") == false, "tags are removed from names; the pages escape what is left")
        #expect(recipe?.ingredients.first == "alert(3) 2 eggs", "entities are decoded before tags go, as recipe-scrapers does")
    }

    @Test func aFiveMegabytePageWithTenThousandIngredientsIsRead() {
        let lines = (1...10_000).map { "\"\($0) g flour \(String(repeating: "x", count: 400))\"" }.joined(separator: ",")
        let html = page("{\"@type\":\"Recipe\",\"name\":\"Big\",\"recipeIngredient\":[\(lines)]}", body: String(repeating: "<p>filler</p>", count: 50_000))
        #expect(html.utf8.count > 4_500_000)
        let recipe = RecipePage.recipes(inHTML: html).first
        #expect(recipe?.ingredients.count == 10_000)
    }
}
