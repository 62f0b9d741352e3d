import Fluent
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/meals`: the meal library.
struct MealsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let meals = routes.grouped("meals")
        meals.get(use: index)
        meals.post(use: create)
        meals.get("facets", use: facets)
        meals.get(":id", use: show)
        meals.put(":id", use: update)
        meals.delete(":id", use: delete)
    }

    @Sendable func index(req: Request) async throws -> MealPage {
        let user = try req.requireUser()
        let query = req.queryParameters
        let page = try query.page()
        let window = try plannedWindow(query, user: user, now: req.now)
        let meals = try req.owner.meals
        let result = try await meals.list(filter: query.mealFilter(), page: page, plannedIn: window)
        let presenter = try await MealPresenter.load(result.items.map(\.meal), repository: meals, currency: user.currency)
        return MealPage(items: result.items.map { presenter.dto($0.meal, isPlanned: $0.isPlanned) },
                        metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let input = try req.decodeJSON(MealInput.self)
        let meals = try req.owner.meals
        let meal = try await req.owner.saveMeal.add(try input.draft(), id: req.dependencies.uuid())
        let response = Response(status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/meals/\(meal.id)")
        let presenter = try await MealPresenter.load([meal], repository: meals, currency: user.currency)
        try response.content.encode(presenter.dto(meal, isPlanned: false))
        return response
    }

    @Sendable func show(req: Request) async throws -> MealDTO {
        let user = try req.requireUser()
        let id = try req.idParameter(what: "meal")
        let meals = try req.owner.meals
        guard let meal = try await meals.find(id) else { throw notFound(id) }
        let presenter = try await MealPresenter.load([meal], repository: meals, currency: user.currency)
        return presenter.dto(meal, isPlanned: try await isPlanned(id, user: user, req: req))
    }

    @Sendable func update(req: Request) async throws -> MealDTO {
        let user = try req.requireUser()
        let id = try req.idParameter(what: "meal")
        let input = try req.decodeJSON(MealInput.self)
        let meals = try req.owner.meals
        guard let meal = try await req.owner.saveMeal.change(try input.draft(), id: id) else { throw notFound(id) }
        let presenter = try await MealPresenter.load([meal], repository: meals, currency: user.currency)
        return presenter.dto(meal, isPlanned: try await isPlanned(id, user: user, req: req))
    }

    @Sendable func delete(req: Request) async throws -> HTTPStatus {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "meal")
        guard try await req.owner.deleteMeal(id) != nil else { throw notFound(id) }
        return .noContent
    }

    @Sendable func facets(req: Request) async throws -> MealFacets {
        try await req.owner.meals.facets()
    }

    private func notFound(_ id: UUID) -> AppError {
        .notFound("No meal with id \(id) exists in your account.")
    }

    /// `plannedFrom`/`plannedTo`, default the 7 days from today in the user's time zone.
    private func plannedWindow(_ query: QueryParameters, user: UserModel, now: Date) throws -> WeekWindow {
        let givenTo = try query.date("plannedTo")
        let from = try query.date("plannedFrom") ?? givenTo.map { $0.adding(days: -(WeekWindow.defaultLength - 1)) } ?? user.today(now: now)
        let to = givenTo ?? from.adding(days: WeekWindow.defaultLength - 1)
        guard from <= to else { throw AppError.badRequest("plannedTo (\(to)) must not be before plannedFrom (\(from)).") }
        return WeekWindow(start: from, length: from.days(until: to) + 1)
    }

    private func isPlanned(_ id: UUID, user: UserModel, req: Request) async throws -> Bool {
        let window = try plannedWindow(req.queryParameters, user: user, now: req.now)
        return try await req.owner.plan.timesPlanned(id, in: window) > 0
    }
}
