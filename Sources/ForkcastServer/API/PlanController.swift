import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/plan`: the weekly planner, as ForkcastContract's ``Plan`` operations.
enum PlanController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Plan.Get.self) { req, query, _ in
            let user = try req.requireUser()
            let today = user.today(now: req.now)
            let length = query.days ?? WeekWindow.defaultLength
            guard (1...WeekWindow.maximumLength).contains(length) else {
                throw AppError.badRequest("days must be between 1 and \(WeekWindow.maximumLength); got \(length).")
            }
            let window = WeekWindow(start: query.start ?? today, length: length)
            let plan = try req.owner.plan
            return try await req.application.readCache.answer(req, owner: plan.ownerID, today: today) {
                let days = try await plan.days(in: window)
                let presenter = try await MealPresenter.load(days.flatMap { $0.entries.map(\.meal) }, repository: plan.meals, currency: user.currency)
                let total = days.map(presenter.dayTotals).reduce(PlanTotals.empty, +)
                return PlanAnswer(start: window.start, end: window.end, today: today,
                                  previousStart: window.previous.start, nextStart: window.next.start,
                                  days: days.map(presenter.answer), totals: PerServingAnswer(total.nutrients, price: total.cost))
            }
        }
        routes.on(Plan.Assign.self) { req, _, input in
            guard let entry = try await req.owner.planMeal(input.mealId, on: input.date, mealType: input.mealType, id: req.dependencies.uuid()) else {
                throw AppError.notFound("No meal with id \(input.mealId) exists in your account, so it cannot be planned.")
            }
            let presenter = try await MealPresenter.load([entry.meal], repository: try req.owner.meals, currency: try req.requireUser().currency)
            return .value(presenter.answer(entry),
                          headers: ["Location": Plan.GetAssignment.path.filled(["id": entry.assignment.id.uuidString])])
        }
        routes.on(Plan.GetAssignment.self) { req, parameters, _ in
            let plan = try req.owner.plan
            guard let assignment = try await plan.find(parameters.id), let meal = try await plan.meals.find(assignment.mealId) else {
                throw AppError.notFound("No assignment with id \(parameters.id) exists in your plan.")
            }
            let presenter = try await MealPresenter.load([meal], repository: plan.meals, currency: try req.requireUser().currency)
            return presenter.answer(PlanDay.Entry(assignment: assignment, meal: meal))
        }
        routes.on(Plan.Unassign.self) { req, parameters, _ in
            guard try await req.owner.unplanMeal(parameters.id) != nil else {
                throw AppError.notFound("No assignment with id \(parameters.id) exists in your plan.")
            }
            return Nothing()
        }
    }
}
