import Foundation

/// The aisles of a shop, in the order a person walks them: every food of a list is in one.
public enum ShoppingAisle: String, CaseIterable, Sendable {
    case produce = "Produce"
    case dairyAndEggs = "Dairy and eggs"
    case meatAndFish = "Meat and fish"
    case bakery = "Bakery"
    case dryGoods = "Dry goods"
    case tinsAndJars = "Tins and jars"
    case frozen = "Frozen"
    case drinks = "Drinks"
    case household = "Household"
    case other = "Other"

    /// Where a position of the walk is for a category name: the aisles in order, then any
    /// category a person named themselves.
    public static func position(of category: String) -> Int {
        allCases.firstIndex { $0.rawValue.matchKey == category.matchKey } ?? allCases.count
    }

    /// The aisle of a catalogue category ("Dairy and Egg Products", "Ground beef", "Corn"):
    /// the first rule whose words the category holds, more particular rules first ("Potato chips"
    /// is dry goods before potatoes are produce, "Ice cream" frozen before cream is dairy).
    public static func of(catalogCategory category: String) -> ShoppingAisle? {
        let text = category.lowercased()
        return rules.first { rule in rule.words.contains { text.contains($0) } }?.aisle
    }

    private static let rules: [(words: [String], aisle: ShoppingAisle)] = [
        (["baby", "sandwich", "burger", "burrito", "pizza", "fast food", "restaurant", "mixed dish", "meals, entrees", "nachos",
          "egg rolls", "fried rice", "macaroni and cheese", "american indian", "not included"], .other),
        (["ice cream", "frozen", "gelatins, ices"], .frozen),
        (["chips", "crackers", "popcorn", "pretzel", "snack", "cereal", "oatmeal", "grits", "candy", "sweets", "cookies", "nutrition bars",
          "sugar", "protein and nutritional powders"], .dryGoods),
        (["soup", "sauce", "condiment", "jams", "pickle", "olives", "mayonnaise", "dressing", "peanut butter", "gravies", "dips",
          "tomato-based", "mustard"], .tinsAndJars),
        (["plant-based milk", "plant-based yogurt", "milk shakes", "flavored milk"], .dairyAndEggs),
        (["juice", "beverage", "drink", "water", "coffee", "tea", "beer", "wine", "liquor", "smoothies", "formula"], .drinks),
        (["dairy", "milk", "cheese", "yogurt", "egg", "cream", "butter", "margarine", "pudding"], .dairyAndEggs),
        (["beef", "pork", "poultry", "chicken", "turkey", "lamb", "meat", "sausage", "bacon", "frankfurter", "fish", "shellfish",
          "seafood", "organ", "cold cuts"], .meatAndFish),
        (["baked", "bread", "bagel", "biscuit", "rolls and buns", "cakes", "doughnut", "tortilla", "pancakes", "turnovers"], .bakery),
        (["vegetable", "fruit", "apple", "banana", "berries", "broccoli", "cabbage", "carrot", "citrus", "corn", "grapes", "lettuce",
          "mango", "melon", "onion", "peach", "pear", "pineapple", "potato", "spinach", "strawberries", "string beans", "tomatoes",
          "coleslaw"], .produce),
        (["grain", "pasta", "rice", "legume", "beans", "nut", "seed", "spice", "herb", "fats and oils", "oil", "soy"], .dryGoods),
    ]

    /// The aisle of a food a person made (no catalogue category): from its icon, else its name's.
    public static func of(_ food: Food) -> ShoppingAisle {
        let icon = food.icon == .generic ? FoodIcon.guess(name: food.name, category: nil) : food.icon
        return switch icon {
        case .apple, .carrot, .leaf: .produce
        case .bread: .bakery
        case .grain, .nut, .sweet: .dryGoods
        case .cheese, .egg, .milk: .dairyAndEggs
        case .fish, .meat: .meatAndFish
        case .drink: .drinks
        case .generic, .bowl: .other
        }
    }
}
