import Foundation

/// What a cup of a food weighs, and one of it, for a recipe that measures by volume or counts a food
/// whose nutrition is per 100 g: a cup of flour is 125 g, not 237; an onion is 110 g. Read from the
/// words of the line and of the food's name (the first rule whose words are all there). Figures are
/// the usual kitchen ones (grams per US cup of 236.6 ml; a medium one), rounded.
public enum CookWeight {
    /// What one `food` (as the line names it, matched to a food named `name`) usually weighs; nil
    /// for a food not listed.
    public static func gramsEach(line food: String, name: String) -> Decimal? {
        let words = words(food + " " + name)
        return each.first { $0.words.allSatisfy(words.contains) }.map { Decimal($0.grams) }
    }

    /// Most particular first: "green onion" before "onion".
    private static let each: [(words: [String], grams: Int)] = [
        (["chicken", "breast"], 175), (["chicken", "thigh"], 115), (["green", "onion"], 15), (["spring", "onion"], 15),
        (["scallion"], 15), (["onion"], 110), (["shallot"], 44), (["bell", "pepper"], 120), (["jalapeno"], 14),
        (["serrano"], 6), (["cherry", "tomato"], 17), (["tomato"], 123), (["sweet", "potato"], 130), (["potato"], 213),
        (["carrot"], 61), (["celery"], 40), (["zucchini"], 196), (["cucumber"], 300), (["eggplant"], 458),
        (["avocado"], 150), (["apple"], 182), (["banana"], 118), (["lemon"], 84), (["lime"], 67), (["orange"], 131),
        (["peach"], 150), (["pear"], 178), (["mango"], 200), (["egg"], 50), (["corn", "tortilla"], 26), (["tortilla"], 45), (["pizza", "crust"], 400), (["bagel"], 105),
        (["salmon"], 170), (["sausage"], 75), (["bread"], 28), (["bun"], 60), (["date"], 8), (["garlic"], 3),
    ]

    /// Grams per millilitre of `food` as the line names it, matched to a food named `name`: its
    /// rule, else its category's, else 1.
    public static func gramsPerMilliliter(line food: String, name: String, category: String? = nil) -> Decimal {
        let words = words(food + " " + name)
        // The line's own last word first: "honey roasted peanuts" are peanuts, not honey.
        let last = CatalogSearch.terms(food).last.map(singular)
        let fitting = rules.filter { $0.words.allSatisfy(words.contains) }
        if let rule = fitting.first(where: { rule in last.map(rule.words.contains) ?? false }) ?? fitting.first {
            return Decimal(rule.gramsPerCup) / cup
        }
        let category = category?.lowercased() ?? ""
        for (part, gramsPerCup) in categories where category.contains(part) {
            return Decimal(gramsPerCup) / cup
        }
        return 1
    }

    private static let cup = Decimal(string: "236.588")!

    /// The text's words, singular: "tomatoes" is "tomato" ("s" goes in ``CatalogSearch/terms(_:)``).
    private static func words(_ text: String) -> Set<String> {
        Set(CatalogSearch.terms(text).map(singular))
    }

    private static func singular(_ term: String) -> String { term.hasSuffix("oe") ? String(term.dropLast()) : term }

    /// Most particular first: "brown sugar" before "sugar", "coconut milk" before "coconut".
    private static let rules: [(words: [String], gramsPerCup: Int)] = [
        (["milk"], 244), (["cream", "cheese"], 232), (["cottage"], 226), (["ricotta"], 246), (["yogurt"], 245),
        (["cream"], 238), (["butter"], 227), (["oil"], 218), (["honey"], 336), (["syrup"], 315), (["molasse"], 328),
        (["broth"], 240), (["stock"], 240), (["juice"], 248), (["water"], 237), (["wine"], 232), (["vinegar"], 239),
        (["sauce"], 245), (["dressing"], 240), (["mayonnaise"], 220), (["spice"], 110),
        (["powdered", "sugar"], 120), (["confectioner"], 120), (["icing", "sugar"], 120), (["brown", "sugar"], 213),
        (["sugar"], 200), (["cocoa"], 86), (["almond", "flour"], 96), (["oat", "flour"], 90), (["flour"], 125),
        (["cornstarch"], 128), (["starch"], 128), (["panko"], 60), (["crumb"], 108), (["oat"], 90), (["quinoa"], 170),
        (["cooked", "rice"], 158), (["rice"], 185), (["macaroni"], 105), (["pasta"], 105), (["orzo"], 180),
        (["cookie"], 100), (["chocolate"], 170), (["coconut"], 85), (["parmesan"], 100), (["shredded", "cheese"], 113), (["grated", "cheese"], 100),
        (["cheese"], 113), (["chopped", "pecan"], 110), (["pecan"], 99), (["walnut"], 117), (["sliced", "almond"], 92),
        (["almond"], 143), (["cashew"], 137), (["peanut"], 146), (["nut"], 130), (["seed"], 140), (["raisin"], 145),
        (["dried"], 140), (["salt"], 288), (["baking", "soda"], 220), (["baking", "powder"], 220), (["lentil"], 192),
        (["chickpea"], 164), (["bean"], 180), (["pea"], 145), (["corn"], 154), (["spinach"], 30), (["kale"], 67),
        (["lettuce"], 47), (["arugula"], 20), (["basil"], 24), (["parsley"], 60), (["cilantro"], 16),
        (["tomato"], 180), (["onion"], 160), (["pepper"], 149), (["carrot"], 128), (["potato"], 150),
    ]

    private static let categories: [(part: String, gramsPerCup: Int)] = [
        ("spice", 110), ("herb", 40), ("dressing", 240), ("oil", 218), ("vegetable", 130), ("fruit", 150), ("berr", 148), ("nut", 130), ("seed", 140), ("legume", 180),
        ("cereal", 180), ("beverage", 240), ("soup", 240), ("sauce", 245),
    ]
}
