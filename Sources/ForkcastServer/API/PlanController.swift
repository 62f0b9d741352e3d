import ForkcastCore
import Vapor

/// `/api/v1/plan`: the weekly planner.
struct PlanController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let plan = routes.grouped("plan")
        plan.get(use: show)
        plan.post("assignments", use: assign)
        plan.get("assignments", ":id", use: showAssignment)
        plan.delete("assignments", ":id", use: remove)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let query = req.queryParameters
        let today = user.today(now: req.now)
        let start = try query.date("start") ?? today
        let length = try query.int("days") ?? WeekWindow.defaultLength
        guard (1...WeekWindow.maximumLength).contains(length) else {
            throw AppError.badRequest("days must be between 1 and \(WeekWindow.maximumLength); got \(length).")
        }
        let window = WeekWindow(start: start, length: length)
        let plan = try req.owner.plan
        return try await req.application.readCache.answer(req, owner: plan.ownerID, today: today) {
            let days = try await plan.days(in: window)
            let presenter = try await MealPresenter.load(days.flatMap { $0.entries.map(\.meal) }, repository: plan.meals, currency: user.currency)
            let total = days.map(presenter.dayTotals).reduce(PlanTotals.empty, +)
            return PlanDTO(start: window.start, end: window.end, today: today,
                           previousStart: window.previous.start, nextStart: window.next.start,
                           days: days.map { PlanDayDTO($0, presenter: presenter) },
                           totals: PerServingDTO(total.nutrients, price: total.cost))
        }
    }

    @Sendable func assign(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let input = try req.decodeJSON(AssignmentInput.self)
        guard let entry = try await req.owner.planMeal(input.mealId, on: input.date, mealType: input.mealType, id: req.dependencies.uuid()) else {
            throw AppError.notFound("No meal with id \(input.mealId) exists in your account, so it cannot be planned.")
        }
        let response = Response(status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/plan/assignments/\(entry.assignment.id)")
        let presenter = try await MealPresenter.load([entry.meal], repository: try req.owner.meals, currency: user.currency)
        try response.content.encode(AssignmentDTO(entry, presenter: presenter))
        return response
    }

    @Sendable func showAssignment(req: Request) async throws -> AssignmentDTO {
        let user = try req.requireUser()
        let id = try req.idParameter(what: "assignment")
        let plan = try req.owner.plan
        guard let assignment = try await plan.find(id), let meal = try await plan.meals.find(assignment.mealId) else {
            throw AppError.notFound("No assignment with id \(id) exists in your plan.")
        }
        let presenter = try await MealPresenter.load([meal], repository: plan.meals, currency: user.currency)
        return AssignmentDTO(PlanDay.Entry(assignment: assignment, meal: meal), presenter: presenter)
    }

    @Sendable func remove(req: Request) async throws -> HTTPStatus {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "assignment")
        guard try await req.owner.unplanMeal(id) != nil else {
            throw AppError.notFound("No assignment with id \(id) exists in your plan.")
        }
        return .noContent
    }
}
