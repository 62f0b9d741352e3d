import Fluent
import ForkcastCore
import Vapor

/// The meal library pages: list with filters, add, edit, delete.
struct WebMealsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.meals(), use: index)
        routes.get(SiteURL.newMeal, use: newForm)
        routes.post(SiteURL.createMeal, use: create)
        routes.post(SiteURL.mealTotals, use: liveTotals)
        routes.get(SiteURL.editMeal(SiteURL.anyID), use: editForm)
        routes.post(SiteURL.updateMeal(SiteURL.anyID), use: update)
        routes.get(SiteURL.deleteMeal(SiteURL.anyID), use: confirmDelete)
        routes.post(SiteURL.deleteMeal(SiteURL.anyID), use: delete)
    }

    // Unoptimized: swift-frontend 6.3.1 crashes (signal 11 in LLVM's coroutine splitting) on this
    // handler with MealListPage.model inlined into it in -O builds.
    @_optimize(none)
    @Sendable func index(req: Request) async throws -> Response {
        let user = try req.webUser
        let filter = req.queryParameters.mealFilter()
        let today = user.today(now: req.now)
        let model = try await req.owner.mealList(filter: filter, window: WeekWindow(start: today), paging: try req.queryParameters.webPage())
        let page = MealListPage(model: model, csrf: CSRF.token(for: req))
        if req.fragment("meal-list") { return page.results.response() }
        return page.render(layout: req.layout("Meals", .meals, scripts: [SiteURL.script("meals").path])).response()
    }

    @Sendable func newForm(req: Request) async throws -> Response {
        let user = try req.webUser
        var page = MealFormPage(facets: try await req.owner.meals.facets())
        page.foodOptions = try await req.owner.foods.list(query: nil, page: try Paging(per: 200)).items
        page.currency = user.currency
        return page.render(layout: req.layout("Add meal", .meals, scripts: [SiteURL.script("meal-form").path])).response()
    }

    @Sendable func create(req: Request) async throws -> Response {
        try await save(req: req, mealID: nil)
    }

    @Sendable func editForm(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "meal")
        let meals = try req.owner.meals
        guard let meal = try await meals.find(id) else { throw AppError.notFound("That meal does not exist (any more).") }
        let foods = try await meals.foods(for: [meal])
        var page = MealFormPage(meal: meal, facets: try await meals.facets(), foods: foods)
        page.foodOptions = try await req.owner.foods.list(query: nil, page: try Paging(per: 200)).items
        page.currency = user.currency
        page.totals = try? MealTotals.of(meal, foods: foods)
        return page.render(layout: req.layout("Edit meal", .meals, scripts: [SiteURL.script("meal-form").path])).response()
    }

    @Sendable func update(req: Request) async throws -> Response {
        try await save(req: req, mealID: try req.idParameter(what: "meal"))
    }

    /// Creates or updates from the form; on any failure the form comes back with the input kept.
    private func save(req: Request, mealID: UUID?) async throws -> Response {
        let user = try req.webUser
        let meals = try req.owner.meals
        var page = MealFormPage(form: FormData(req), mealID: mealID)
        page.currency = user.currency
        let layout = { req.layout(page.title, .meals, scripts: [SiteURL.script("meal-form").path]) }
        do {
            let filled = page, newID = req.dependencies.uuid()
            // The catalogue foods its rows name are adopted in the same write as the meal: a
            // refused meal leaves none of them behind.
            let meal = try await req.owner.inOneWrite { owner in
                let draft = try await filled.draft(foods: owner.foods, adopt: { name in try await owner.adoptCatalogFood(named: name) })
                guard let mealID else { return try await owner.saveMeal.add(draft, id: newID) }
                guard let changed = try await owner.saveMeal.change(draft, id: mealID) else {
                    throw AppError.notFound("That meal was deleted, so it cannot be saved. Add it again instead.")
                }
                return changed
            }
            req.flash(mealID == nil ? "Added “\(meal.description)”." : "Saved “\(meal.description)”.")
            let target = SiteURL.meals().path(fragment: "meal-\(meal.id.uuidString)")
            if req.fragment("form") {
                return Response(status: .noContent, headers: ["X-Redirect": target])
            }
            return req.redirect(to: target, redirectType: .normal)
        } catch let errors as ValidationError {
            page.errors = errors
            page.facets = (try? await meals.facets()) ?? MealFacets()
            page.foodOptions = (try? await req.owner.foods.list(query: nil, page: try Paging(per: 200)).items) ?? []
            return page.render(layout: layout()).response(status: .unprocessableEntity)
        } catch let error where StorageFailure.isStorageFailure(error) {
            req.logger.error("saving a meal failed: \(String(reflecting: error))")
            page.message = "Could not save: the database is unavailable. Nothing was saved — your input is still here; try again in a moment."
            return page.render(layout: layout()).response(status: .serviceUnavailable)
        }
    }

    /// Live totals for the meal form (the `meal-totals` fragment): what the typed ingredients add up to.
    @Sendable func liveTotals(req: Request) async throws -> Response {
        let user = try req.webUser
        let page = MealFormPage(form: FormData(req), mealID: nil)
        let foods = try req.owner.foods
        var draft: MealDraft
        do { draft = try await page.draft(foods: foods) } catch let errors as ValidationError {
            return HTML("<p class=\"muted\" id=\"totals-pending\">\(errors.fields.first?.message ?? "")</p>").response()
        }
        draft.description = "totals"
        guard let content = try? draft.validated() else { return MealTotalsView(totals: .unknown, servings: 1, currency: user.currency).html.response() }
        let meal = Meal(content: content)
        let totals = (try? MealTotals.of(meal, foods: try await foods.find(ids: meal.ingredients.map(\.foodId)))) ?? .unknown
        return MealTotalsView(totals: totals, servings: meal.servings, currency: user.currency).html.response()
    }

    @Sendable func confirmDelete(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "meal")
        guard let meal = try await req.owner.meals.find(id) else { throw AppError.notFound("That meal does not exist (any more).") }
        let planned = try await req.owner.plan.timesPlanned(id, in: nil)
        return DeleteMealPage(meal: meal, plannedDays: planned).render(layout: req.layout("Delete meal", .meals)).response()
    }

    @Sendable func delete(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "meal")
        guard let meal = try await req.owner.deleteMeal(id) else { throw AppError.notFound("That meal was already deleted.") }
        if req.fragment("delete") { return Response(status: .noContent) }
        req.flash("Deleted “\(meal.description)”.")
        return req.redirect(to: SiteURL.meals().path, redirectType: .normal)
    }
}
