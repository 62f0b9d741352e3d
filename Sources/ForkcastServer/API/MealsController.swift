import Fluent
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/meals`: the meal library, as ForkcastContract's ``Meals`` operations.
enum MealsController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Meals.List.self) { req, query, _ in
            let user = try req.requireUser()
            let page = try req.paging(query.paging)
            let window = try plannedWindow(query.window, user: user, now: req.now)
            let meals = try req.owner.meals
            let result = try await meals.list(filter: query.filter, page: page, plannedIn: window)
            let presenter = try await MealPresenter.load(result.items.map(\.meal), repository: meals, currency: user.currency)
            return Page(items: result.items.map { presenter.answer($0.meal, isPlanned: $0.isPlanned) },
                        metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
        }
        routes.on(Meals.Create.self) { req, _, input in
            let meal = try await req.owner.saveMeal.add(try input.draft(), id: req.dependencies.uuid())
            let presenter = try await MealPresenter.load([meal], repository: try req.owner.meals, currency: try req.requireUser().currency)
            return .value(presenter.answer(meal, isPlanned: false),
                          headers: ["Location": Meals.Get.path.filled(["id": meal.id.uuidString])])
        }
        routes.on(Meals.Get.self) { req, parameters, _ in
            let meals = try req.owner.meals
            guard let meal = try await meals.find(parameters.id) else { throw notFound(parameters.id) }
            return try await answer(meal, window: parameters.window, servings: parameters.servings, req: req)
        }
        routes.on(Meals.Update.self) { req, parameters, input in
            guard let meal = try await req.owner.saveMeal.change(try input.draft(), id: parameters.id) else { throw notFound(parameters.id) }
            return try await answer(meal, window: parameters.window, servings: parameters.servings, req: req)
        }
        routes.on(Meals.Delete.self) { req, parameters, _ in
            guard try await req.owner.deleteMeal(parameters.id) != nil else { throw notFound(parameters.id) }
            return Nothing()
        }
        routes.on(Meals.Facets.self) { req, _, _ in try await req.owner.meals.facets() }
    }

    private static func notFound(_ id: UUID) -> AppError {
        .notFound("No meal with id \(id) exists in your account.")
    }

    /// One meal, planned or not in `window`.
    static func answer(_ meal: Meal, window: PlannedWindow, servings: Int? = nil, req: Request) async throws -> MealAnswer {
        let user = try req.requireUser()
        let owner = try req.owner
        let presenter = try await MealPresenter.load([meal], repository: owner.meals, currency: user.currency)
        let planned = try await owner.plan.timesPlanned(meal.id, in: try plannedWindow(window, user: user, now: req.now)) > 0
        return presenter.answer(meal, isPlanned: planned, servings: servings)
    }

    /// `plannedFrom`/`plannedTo`, default the 7 days from today in the user's time zone.
    private static func plannedWindow(_ window: PlannedWindow, user: UserModel, now: Date) throws -> WeekWindow {
        let givenTo = window.plannedTo
        let from = window.plannedFrom ?? givenTo.map { $0.adding(days: -(WeekWindow.defaultLength - 1)) } ?? user.today(now: now)
        let to = givenTo ?? from.adding(days: WeekWindow.defaultLength - 1)
        guard from <= to else { throw AppError.badRequest("plannedTo (\(to)) must not be before plannedFrom (\(from)).") }
        return WeekWindow(start: from, length: from.days(until: to) + 1)
    }
}
