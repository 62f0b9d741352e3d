import ForkcastContract
import ForkcastCore
import Foundation

/// Turns meals into the contract's answers with their foods and totals, loaded once for a whole list.
struct MealPresenter {
    var foods: [UUID: Food]
    var totals: [UUID: MealTotals]
    var currency: String

    static func load(_ meals: [Meal], repository: some MealReads, currency: String) async throws -> MealPresenter {
        let foods = try await repository.foods(for: meals)
        return MealPresenter(foods: foods, totals: MealRepository.totals(of: meals, foods: foods), currency: currency)
    }

    /// One serving of the meal, with its price.
    func perServing(_ meal: Meal) -> PerServingAnswer {
        let totals = totals[meal.id] ?? .unknown
        return PerServingAnswer(totals.perServing, price: totals.costPerServing)
    }

    /// The meal with its ingredients in order; with `servings`, the amounts scaled to that many.
    func answer(_ meal: Meal, isPlanned: Bool, servings: Int? = nil) -> MealAnswer {
        let factor = servings.map { Decimal($0) / Decimal(max(meal.servings, 1)) } ?? 1
        return MealAnswer(
            id: meal.id, description: meal.description, primaryProtein: meal.primaryProtein, primaryCarb: meal.primaryCarb,
            otherComponents: meal.otherComponents, createdAt: meal.createdAt, updatedAt: meal.updatedAt, isPlanned: isPlanned,
            servings: servings ?? meal.servings,
            ingredients: meal.lines.map { line in
                switch line {
                case .food(let i):
                    IngredientAnswer(foodId: i.foodId, food: foods[i.foodId].map { FoodAnswer($0, currency: currency) },
                                     quantity: i.quantity * factor, unit: i.unit, written: i.written)
                case .text(let text):
                    IngredientAnswer(text: text)
                }
            },
            nutrition: meal.manualNutrition.map { NutrientsAnswer($0) }, perServing: perServing(meal),
            recipe: meal.recipe, recipeServings: servings.map { _ in meal.servings }, photoId: meal.photoId)
    }

    /// The meal as a plan shows it: no ingredients.
    func planned(_ meal: Meal) -> PlannedMealAnswer {
        PlannedMealAnswer(id: meal.id, description: meal.description, primaryProtein: meal.primaryProtein, primaryCarb: meal.primaryCarb,
                          otherComponents: meal.otherComponents, createdAt: meal.createdAt, updatedAt: meal.updatedAt,
                          servings: meal.servings, perServing: perServing(meal))
    }

    func answer(_ entry: PlanDay.Entry) -> AssignmentAnswer { answer(entry, cooked: cookedTotals([entry])) }

    private func answer(_ entry: PlanDay.Entry, cooked: PlanTotals) -> AssignmentAnswer {
        AssignmentAnswer(id: entry.assignment.id, date: entry.assignment.date, mealId: entry.meal.id,
                         meal: planned(entry.meal), createdAt: entry.assignment.createdAt,
                         mealType: entry.assignment.mealType, servings: entry.assignment.portions(of: entry.meal),
                         servingsSet: entry.assignment.servings != nil, cooked: PerServingAnswer(cooked.nutrients, price: cooked.cost),
                         eaters: entry.assignment.eaters?.map(EaterEntry.init), seriesId: entry.assignment.seriesId)
    }

    /// A day's answer with its totals unrounded: a window's are their sums, each entry's cooking computed once.
    private func answer(_ day: PlanDay, goals: Goals) -> (answer: PlanDayAnswer, totals: PlanTotals, cooked: PlanTotals) {
        let cooked = day.entries.map { cookedTotals([$0]) }
        let t = dayTotals(day), dayCooked = cooked.reduce(PlanTotals.empty, +)
        let answer = PlanDayAnswer(date: day.date, weekday: day.weekday.name, assignments: zip(day.entries, cooked).map(answer),
                                   totals: PerServingAnswer(t.nutrients, price: t.cost), cooked: PerServingAnswer(dayCooked.nutrients, price: dayCooked.cost),
                                   goals: PlanGoalsAnswer(GoalStanding(t.nutrients, goals: goals)))
        return (answer, t, dayCooked)
    }

    /// One serving of each planned meal: what one person eats that day.
    func dayTotals(_ day: PlanDay) -> PlanTotals {
        PlanTotals.of(day.entries.map { totals[$0.meal.id] ?? .unknown })
    }

    /// The portions made of each planned meal: what the cooking holds and costs.
    func cookedTotals(_ entries: [PlanDay.Entry]) -> PlanTotals {
        PlanTotals.cooked(entries.map { (totals[$0.meal.id] ?? .unknown, $0.assignment.scale(of: $0.meal)) })
    }

    /// The window's answer: its days, totals, cooking and average day against the goals.
    func answer(_ days: [PlanDay], window: WeekWindow, today: CalendarDate, goals: Goals) -> PlanAnswer {
        let answers = days.map { answer($0, goals: goals) }
        let total = answers.map(\.totals).reduce(PlanTotals.empty, +), cooked = answers.map(\.cooked).reduce(PlanTotals.empty, +)
        // The average of the days that have something planned (an empty day is not planned yet, not a fast).
        let average = total.nutrients.scaled(by: 1 / Decimal(max(days.filter { !$0.entries.isEmpty }.count, 1)))
        return PlanAnswer(start: window.start, end: window.end, today: today, previousStart: window.previous.start, nextStart: window.next.start,
                          days: answers.map(\.answer), totals: PerServingAnswer(total.nutrients, price: total.cost),
                          cooked: PerServingAnswer(cooked.nutrients, price: cooked.cost),
                          goals: PlanGoalsAnswer(GoalStanding(average, goals: goals)))
    }
}
