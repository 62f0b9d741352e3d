import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// `POST/PUT /api/v1/meals` body.
struct MealInput: Content {
    struct IngredientInput: Content { var foodId: UUID; var quantity: Decimal; var unit: String }
    struct NutritionInput: Content { var energyKcal: Decimal?; var protein: Decimal?; var carbohydrates: Decimal?; var fat: Decimal? }

    var description: String
    var primaryProtein: String?
    var primaryCarb: String?
    var otherComponents: [String]?
    /// A number, so 1.5 is answered by the whole-number rule (422 naming the field), not as bad JSON.
    var servings: Decimal?
    var ingredients: [IngredientInput]?
    /// Nutrition per serving typed in by hand (used when there are no ingredients).
    var nutrition: NutritionInput?

    func draft() throws -> MealDraft {
        var problems: [ValidationError.Field] = []
        var ingredients: [Ingredient] = []
        for (index, input) in (self.ingredients ?? []).enumerated() {
            guard let unit = QuantityUnit(rawValue: input.unit) else {
                problems.append(.init(field: "ingredients[\(index)].unit", message: "unit must be \"g\", \"ml\" or \"serving\"."))
                continue
            }
            ingredients.append(Ingredient(foodId: input.foodId, quantity: input.quantity, unit: unit))
        }
        var wholeServings = 1
        if let servings {
            if servings == servings.rounded(0), servings >= 1, servings <= Decimal(MealDraft.maximumServings) {
                wholeServings = NSDecimalNumber(decimal: servings).intValue
            } else {
                problems.append(.init(field: "servings", message: "Servings must be a whole number from 1 to \(MealDraft.maximumServings)."))
            }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let manual = nutrition.map { Nutrients(energyKcal: $0.energyKcal, protein: $0.protein, carbohydrates: $0.carbohydrates, fat: $0.fat) }
        return MealDraft(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb,
                         otherComponents: otherComponents ?? [], servings: wholeServings, ingredients: ingredients,
                         manualNutrition: manual)
    }
}

/// A meal's ingredient in JSON, with the food it uses.
struct IngredientDTO: Content {
    var foodId: UUID
    var food: FoodDTO?
    var quantity: Decimal
    var unit: String
}

/// Nutrition and price of one serving (rounded to 2 decimals).
struct PerServingDTO: Content {
    var energyKcal: Decimal?
    var protein: Decimal?
    var carbohydrates: Decimal?
    var fat: Decimal?
    var price: Decimal?

    init(_ n: Nutrients, price: Decimal?) {
        energyKcal = n.energyKcal?.rounded(2); protein = n.protein?.rounded(2)
        carbohydrates = n.carbohydrates?.rounded(2); fat = n.fat?.rounded(2); self.price = price?.rounded(2)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(energyKcal, forKey: .energyKcal); try c.encode(protein, forKey: .protein)
        try c.encode(carbohydrates, forKey: .carbohydrates); try c.encode(fat, forKey: .fat); try c.encode(price, forKey: .price)
    }
}

/// Turns meals into JSON with their foods and totals, loaded once for a whole list.
struct MealPresenter {
    var foods: [UUID: Food]
    var totals: [UUID: MealTotals]
    var currency: String

    static func load(_ meals: [Meal], repository: MealRepository, currency: String) async throws -> MealPresenter {
        let foods = try await repository.foods(for: meals)
        return MealPresenter(foods: foods, totals: MealRepository.totals(of: meals, foods: foods), currency: currency)
    }

    func dto(_ meal: Meal, isPlanned: Bool) -> MealDTO {
        MealDTO(meal, isPlanned: isPlanned, presenter: self)
    }
}

/// A Meal as the API shows it (PRODUCT.md, API v1).
struct MealDTO: Content {
    var id: UUID
    var description: String
    var primaryProtein: String?
    var primaryCarb: String?
    var otherComponents: [String]
    var createdAt: Date
    var updatedAt: Date
    var isPlanned: Bool
    var servings: Int
    var ingredients: [IngredientDTO]
    var nutrition: NutrientsDTO?
    var perServing: PerServingDTO

    init(_ meal: Meal, isPlanned: Bool, presenter: MealPresenter) {
        id = meal.id
        description = meal.description
        primaryProtein = meal.primaryProtein
        primaryCarb = meal.primaryCarb
        otherComponents = meal.otherComponents
        createdAt = meal.createdAt
        updatedAt = meal.updatedAt
        self.isPlanned = isPlanned
        servings = meal.servings
        ingredients = meal.ingredients.map {
            IngredientDTO(foodId: $0.foodId, food: presenter.foods[$0.foodId].map { FoodDTO($0, currency: presenter.currency) },
                          quantity: $0.quantity, unit: $0.unit.rawValue)
        }
        nutrition = meal.manualNutrition.map { NutrientsDTO($0) }
        let totals = presenter.totals[meal.id] ?? .unknown
        perServing = PerServingDTO(totals.perServing, price: totals.costPerServing)
    }

    // Encode nulls explicitly so clients always see every key.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(description, forKey: .description)
        try c.encode(primaryProtein, forKey: .primaryProtein)
        try c.encode(primaryCarb, forKey: .primaryCarb)
        try c.encode(otherComponents, forKey: .otherComponents)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isPlanned, forKey: .isPlanned)
        try c.encode(servings, forKey: .servings)
        try c.encode(ingredients, forKey: .ingredients)
        try c.encode(nutrition, forKey: .nutrition)
        try c.encode(perServing, forKey: .perServing)
    }
}

struct MealPage: Content {
    var items: [MealDTO]
    var metadata: PageMetadata
}

/// `POST /api/v1/plan/assignments` body.
struct AssignmentInput: Content {
    var mealId: UUID
    var date: CalendarDate
    /// The meal slot: breakfast, lunch, dinner or snack; absent or null for none.
    var mealType: String?
}

struct AssignmentDTO: Content {
    var id: UUID
    var date: CalendarDate
    var mealId: UUID
    var meal: MealDTO
    var createdAt: Date
    var mealType: String?

    init(_ entry: PlanDay.Entry, presenter: MealPresenter) {
        id = entry.assignment.id
        date = entry.assignment.date
        mealType = entry.assignment.mealType
        mealId = entry.meal.id
        meal = presenter.dto(entry.meal, isPlanned: true)
        createdAt = entry.assignment.createdAt
    }
}

struct PlanDayDTO: Content {
    var date: CalendarDate
    var weekday: String
    var assignments: [AssignmentDTO]
    /// One serving of each planned meal.
    var totals: PerServingDTO

    init(_ day: PlanDay, presenter: MealPresenter) {
        date = day.date
        weekday = day.weekday.name
        assignments = day.entries.map { AssignmentDTO($0, presenter: presenter) }
        let t = presenter.dayTotals(day)
        totals = PerServingDTO(t.nutrients, price: t.cost)
    }
}

extension MealPresenter {
    func dayTotals(_ day: PlanDay) -> PlanTotals {
        PlanTotals.of(day.entries.map { totals[$0.meal.id] ?? .unknown })
    }
}

struct PlanDTO: Content {
    var start: CalendarDate
    var end: CalendarDate
    var today: CalendarDate
    var previousStart: CalendarDate
    var nextStart: CalendarDate
    var days: [PlanDayDTO]
    /// The whole window's totals.
    var totals: PerServingDTO
}

extension MealFacets: Content {}
