import ForkcastContract
import ForkcastCore
import Foundation

/// Turns meals into the contract's answers with their foods and totals, loaded once for a whole list.
struct MealPresenter {
    var foods: [UUID: Food]
    var totals: [UUID: MealTotals]
    var currency: String

    static func load(_ meals: [Meal], repository: MealRepository, currency: String) async throws -> MealPresenter {
        let foods = try await repository.foods(for: meals)
        return MealPresenter(foods: foods, totals: MealRepository.totals(of: meals, foods: foods), currency: currency)
    }

    func answer(_ meal: Meal, isPlanned: Bool) -> MealAnswer {
        let totals = totals[meal.id] ?? .unknown
        return MealAnswer(
            id: meal.id, description: meal.description, primaryProtein: meal.primaryProtein, primaryCarb: meal.primaryCarb,
            otherComponents: meal.otherComponents, createdAt: meal.createdAt, updatedAt: meal.updatedAt, isPlanned: isPlanned,
            servings: meal.servings,
            ingredients: meal.ingredients.map {
                IngredientAnswer(foodId: $0.foodId, food: foods[$0.foodId].map { FoodAnswer($0, currency: currency) },
                                 quantity: $0.quantity, unit: $0.unit)
            },
            nutrition: meal.manualNutrition.map { NutrientsAnswer($0) },
            perServing: PerServingAnswer(totals.perServing, price: totals.costPerServing))
    }

    func answer(_ entry: PlanDay.Entry) -> AssignmentAnswer {
        AssignmentAnswer(id: entry.assignment.id, date: entry.assignment.date, mealId: entry.meal.id,
                         meal: answer(entry.meal, isPlanned: true), createdAt: entry.assignment.createdAt,
                         mealType: entry.assignment.mealType)
    }

    func answer(_ day: PlanDay) -> PlanDayAnswer {
        let t = dayTotals(day)
        return PlanDayAnswer(date: day.date, weekday: day.weekday.name, assignments: day.entries.map(answer),
                             totals: PerServingAnswer(t.nutrients, price: t.cost))
    }

    func dayTotals(_ day: PlanDay) -> PlanTotals {
        PlanTotals.of(day.entries.map { totals[$0.meal.id] ?? .unknown })
    }
}
