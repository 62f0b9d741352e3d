import Fluent
import ForkcastCore
import Foundation

/// A stored food. Amounts are stored as doubles and read back as the shortest decimal they stand for.
final class FoodModel: Model, @unchecked Sendable {
    static let schema = "foods"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "name") var name: String
    /// Lower-cased name and brand, for search as you type.
    @Field(key: "search_key") var searchKey: String
    @OptionalField(key: "brand") var brand: String?
    @OptionalField(key: "barcode") var barcode: String?
    @Field(key: "basis") var basis: String
    @OptionalField(key: "energy_kcal") var energyKcal: Double?
    @OptionalField(key: "protein") var protein: Double?
    @OptionalField(key: "carbohydrates") var carbohydrates: Double?
    @OptionalField(key: "fat") var fat: Double?
    @OptionalField(key: "fiber") var fiber: Double?
    @OptionalField(key: "sugars") var sugars: Double?
    @OptionalField(key: "saturated_fat") var saturatedFat: Double?
    @OptionalField(key: "salt") var salt: Double?
    @OptionalField(key: "serving_size") var servingSize: Double?
    @OptionalField(key: "serving_label") var servingLabel: String?
    @OptionalField(key: "portion") var portion: String?
    @OptionalField(key: "price_amount") var priceAmount: Double?
    @OptionalField(key: "price_per") var pricePer: String?
    @OptionalField(key: "price_package_size") var pricePackageSize: Double?
    @Field(key: "icon") var icon: String
    @Field(key: "source") var source: String
    @OptionalField(key: "catalog_id") var catalogID: String?
    /// The nutrients beyond the columns above (``NutrientText``).
    @OptionalField(key: "micros") var micros: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $name, $searchKey, $brand, $barcode, $basis, $energyKcal, $protein, $carbohydrates, $fat, $fiber, $sugars, $saturatedFat, $salt, $servingSize, $servingLabel, $portion, $priceAmount, $pricePer, $pricePackageSize, $icon, $source, $catalogID, $micros, $createdAt, $updatedAt] }

    init() {}

    init(_ food: Food, ownerID: UUID) {
        self.id = food.id
        self.ownerID = ownerID
        self.createdAt = food.createdAt
        apply(food)
    }

    func apply(_ food: Food) {
        name = food.name
        searchKey = ([food.name, food.brand ?? ""]).joined(separator: " ").lowercased()
        brand = food.brand
        barcode = food.barcode?.digits
        basis = food.basis.rawValue
        let n = food.per100
        energyKcal = n.energyKcal?.doubleValue
        protein = n.protein?.doubleValue
        carbohydrates = n.carbohydrates?.doubleValue
        fat = n.fat?.doubleValue
        fiber = n.fiber?.doubleValue
        sugars = n.sugars?.doubleValue
        saturatedFat = n.saturatedFat?.doubleValue
        salt = n.salt?.doubleValue
        micros = NutrientText.encode(n, except: Self.columns)
        catalogID = food.catalogId
        servingSize = food.serving?.size.doubleValue
        servingLabel = food.serving?.label
        portion = food.portion
        priceAmount = food.price?.amount.doubleValue
        pricePer = food.price?.per.rawValue
        pricePackageSize = food.price?.packageSize?.doubleValue
        icon = food.icon.rawValue
        source = food.source.rawValue
        updatedAt = food.updatedAt
    }

    /// The nutrients with a column of their own.
    static let columns: Set<Nutrient> = [.energyKcal, .protein, .carbohydrates, .fat, .fiber, .sugars, .saturatedFat, .salt]

    var domain: Food {
        func d(_ v: Double?) -> Decimal? { v.map(Decimal.init(shortest:)) }
        let basis = NutritionBasis(rawValue: basis) ?? .gram
        var per100 = Nutrients(energyKcal: d(energyKcal), protein: d(protein), carbohydrates: d(carbohydrates), fat: d(fat),
                               fiber: d(fiber), sugars: d(sugars), saturatedFat: d(saturatedFat), salt: d(salt))
        NutrientText.decode(micros, into: &per100, except: Self.columns)
        return Food(
            id: id!, name: name, brand: brand, barcode: barcode.flatMap(Barcode.init), basis: basis,
            per100: per100,
            serving: servingSize.map { Serving(size: Decimal(shortest: $0), unit: basis, label: servingLabel) },
            portion: portion,
            price: priceAmount.map { Price(amount: Decimal(shortest: $0), per: Price.Per(rawValue: pricePer ?? "") ?? .package,
                                           packageSize: d(pricePackageSize)) },
            icon: FoodIcon(rawValue: icon) ?? .generic, source: FoodSource(rawValue: source) ?? .custom, catalogId: catalogID,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// One word of a food's name or brand, for prefix search.
final class FoodTermModel: Model, @unchecked Sendable {
    static let schema = "food_terms"

    @ID(key: .id) var id: UUID?
    @Field(key: "food_id") var foodID: UUID
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "term") var term: String
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $foodID, $ownerID, $term] }

    init() {}

    init(foodID: UUID, ownerID: UUID, term: String) {
        self.id = UUID.timeOrdered()
        self.foodID = foodID
        self.ownerID = ownerID
        self.term = term
    }

    /// The rows that make a food findable by the words of its name and brand, and from inside a
    /// word: every ending of three letters or more is a term too, so "gurt" (a prefix of the ending
    /// "gurt" of "yogurt") finds yogurt through the same prefix lookup.
    static func rows(for food: Food, ownerID: UUID) -> [FoodTermModel] {
        indexTerms(of: food.name + " " + (food.brand ?? "")).map { FoodTermModel(foodID: food.id, ownerID: ownerID, term: $0) }
    }

    static func indexTerms(of text: String) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for word in terms(of: text) {
            let characters = Array(word)
            for start in 0..<max(1, min(characters.count - 2, 24)) {
                let ending = String(characters[start...])
                if seen.insert(ending).inserted { result.append(ending) }
            }
        }
        return result
    }

    /// The distinct lower-cased words of a text (letters and digits; everything else separates).
    static func terms(of text: String) -> [String] {
        var seen = Set<String>()
        return text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { seen.insert($0).inserted }
    }
}

/// A food in a meal, in the order the user gave.
final class MealIngredientModel: Model, @unchecked Sendable {
    static let schema = "meal_ingredients"

    @ID(key: .id) var id: UUID?
    @Parent(key: "meal_id") var meal: MealModel
    @Field(key: "user_id") var ownerID: UUID
    @Parent(key: "food_id") var food: FoodModel
    @Field(key: "position") var position: Int
    @Field(key: "quantity") var quantity: Double
    @Field(key: "unit") var unit: String
    /// ``WrittenUnit``: a size without a unit is a count.
    @OptionalField(key: "written_unit") var writtenUnit: String?
    @OptionalField(key: "written_size") var writtenSize: Double?
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $meal, $ownerID, $food, $position, $quantity, $unit, $writtenUnit, $writtenSize] }

    init() {}

    init(mealID: UUID, ownerID: UUID, position: Int, ingredient: Ingredient) {
        self.id = UUID.timeOrdered()
        self.$meal.id = mealID
        self.ownerID = ownerID
        self.$food.id = ingredient.foodId
        self.position = position
        self.quantity = ingredient.quantity.doubleValue
        self.unit = ingredient.unit.rawValue
        writtenUnit = ingredient.written?.unit?.rawValue
        writtenSize = ingredient.written?.size.doubleValue
    }

    var domain: Ingredient {
        let written = writtenSize.flatMap { WrittenUnit(unit: writtenUnit.flatMap(CookUnit.init(rawValue:)), size: Decimal(shortest: $0)) }
        return Ingredient(foodId: $food.id, quantity: Decimal(shortest: quantity), unit: QuantityUnit(rawValue: unit) ?? .gram, written: written)
    }
}

/// Open Food Facts answers kept so a barcode is fetched once (public data, shared by all users).
final class OpenFoodFactsCacheModel: Model, @unchecked Sendable {
    static let schema = "openfoodfacts_cache"

    @ID(key: .id) var id: UUID?
    @Field(key: "barcode") var barcode: String
    @Field(key: "found") var found: Bool
    @OptionalField(key: "body") var body: String?
    @Field(key: "fetched_at") var fetchedAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $barcode, $found, $body, $fetchedAt] }

    init() {}

    init(barcode: String, found: Bool, body: String?, fetchedAt: Date) {
        self.id = UUID.timeOrdered()
        self.barcode = barcode
        self.found = found
        self.body = body
        self.fetchedAt = fetchedAt
    }
}
