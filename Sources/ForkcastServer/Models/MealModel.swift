import Fluent
import ForkcastCore
import Foundation

/// A stored meal. Key columns hold lower-cased copies so filters match the same way on SQLite and
/// PostgreSQL (SQL's LOWER() differs between them outside ASCII).
final class MealModel: Model, @unchecked Sendable {
    static let schema = "meals"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var owner: UserModel
    @Field(key: "description") var description: String
    @Field(key: "description_key") var descriptionKey: String
    @OptionalField(key: "primary_protein") var primaryProtein: String?
    @OptionalField(key: "protein_key") var proteinKey: String?
    @OptionalField(key: "primary_carb") var primaryCarb: String?
    @OptionalField(key: "carb_key") var carbKey: String?
    /// Every searchable text of the meal, lower-cased, one per line (for `q=`).
    @Field(key: "search_text") var searchText: String
    @Timestamp(key: "created_at", on: .none) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .none) var updatedAt: Date?
    @Field(key: "servings") var servings: Int
    @OptionalField(key: "manual_energy_kcal") var manualEnergyKcal: Double?
    @OptionalField(key: "manual_protein") var manualProtein: Double?
    @OptionalField(key: "manual_carbohydrates") var manualCarbohydrates: Double?
    @OptionalField(key: "manual_fat") var manualFat: Double?
    /// The ``Recipe`` as JSON, nil for a meal without one.
    @OptionalField(key: "recipe") var recipe: String?
    /// The token of the recipe's read-only link, nil when it is not shared.
    @OptionalField(key: "share_token") var shareToken: String?
    /// The recipe's photo (`meal_photos`), nil when it has none. Not in ``apply(_:now:)``: an edit keeps it.
    @OptionalField(key: "photo_id") var photoID: UUID?
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $owner, $description, $descriptionKey, $primaryProtein, $proteinKey, $primaryCarb, $carbKey, $searchText, $createdAt, $updatedAt, $servings, $manualEnergyKcal, $manualProtein, $manualCarbohydrates, $manualFat, $recipe, $shareToken, $photoID] }

    init() {}

    init(id: UUID, ownerID: UUID, content: MealContent, now: Date) {
        self.id = id
        self.$owner.id = ownerID
        self.createdAt = now
        apply(content, now: now)
    }

    func apply(_ content: MealContent, now: Date) {
        description = content.description
        descriptionKey = MealOrdering.sortKey(description: content.description)
        primaryProtein = content.primaryProtein
        proteinKey = content.primaryProtein?.matchKey
        primaryCarb = content.primaryCarb
        carbKey = content.primaryCarb?.matchKey
        servings = content.servings
        let manual = content.manualNutrition
        manualEnergyKcal = manual?.energyKcal?.doubleValue
        manualProtein = manual?.protein?.doubleValue
        manualCarbohydrates = manual?.carbohydrates?.doubleValue
        manualFat = manual?.fat?.doubleValue
        recipe = content.recipe.isEmpty ? nil : (try? JSONEncoder().encode(content.recipe)).map { String(decoding: $0, as: UTF8.self) }
        searchText = ([content.description, content.primaryProtein ?? "", content.primaryCarb ?? ""] + content.otherComponents)
            .filter { !$0.isEmpty }.map { $0.lowercased() }.joined(separator: "\n")
        updatedAt = now
    }

    func domain(components: [String], ingredients: [Ingredient] = []) -> Meal {
        func d(_ v: Double?) -> Decimal? { v.map(Decimal.init(shortest:)) }
        let manual = Nutrients(energyKcal: d(manualEnergyKcal), protein: d(manualProtein),
                               carbohydrates: d(manualCarbohydrates), fat: d(manualFat))
        return Meal(id: id!, description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb,
                    otherComponents: components, createdAt: createdAt ?? Date(timeIntervalSince1970: 0), updatedAt: updatedAt,
                    servings: servings, ingredients: ingredients,
                    manualNutrition: manual == Nutrients() ? nil : manual,
                    recipe: recipe.flatMap { try? JSONDecoder().decode(Recipe.self, from: Data($0.utf8)) } ?? Recipe(),
                    photoId: photoID)
    }
}

/// One "other component" of a meal, in the order the user gave.
final class MealComponentModel: Model, @unchecked Sendable {
    static let schema = "meal_components"

    @ID(key: .id) var id: UUID?
    @Parent(key: "meal_id") var meal: MealModel
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "position") var position: Int
    @Field(key: "name") var name: String
    @Field(key: "name_key") var nameKey: String
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $meal, $ownerID, $position, $name, $nameKey] }

    init() {}

    init(mealID: UUID, ownerID: UUID, position: Int, name: String) {
        self.id = UUID.timeOrdered()
        self.$meal.id = mealID
        self.ownerID = ownerID
        self.position = position
        self.name = name
        self.nameKey = name.matchKey
    }
}
