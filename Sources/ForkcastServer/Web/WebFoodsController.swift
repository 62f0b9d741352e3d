import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// The food library pages: search, add, edit, delete, and Open Food Facts search and import.
struct WebFoodsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.foods(), use: index)
        routes.get(SiteURL.newFood, use: newForm)
        routes.post(SiteURL.foods(), use: create)
        routes.get(SiteURL.openFoodFacts, use: openFoodFacts)
        routes.post(SiteURL.importFood, use: importProduct)
        routes.get(SiteURL.editFood(SiteURL.anyID), use: editForm)
        routes.post(SiteURL.updateFood(SiteURL.anyID), use: update)
        routes.get(SiteURL.deleteFood(SiteURL.anyID), use: confirmDelete)
        routes.post(SiteURL.deleteFood(SiteURL.anyID), use: delete)
    }

    @Sendable func index(req: Request) async throws -> Response {
        let user = try req.webUser
        let query = req.queryParameters.string("q") ?? ""
        let repo = try req.owner.foods
        let paging = try req.queryParameters.webPage()
        let result = try await repo.list(query: query, page: paging)
        let libraryCount = query.trimmed.isEmpty ? result.total : try await repo.count()
        let page = FoodListPage(query: query, foods: result.items, total: result.total, libraryCount: libraryCount,
                                grid: req.queryParameters.string("view") == "grid", currency: user.currency, csrf: CSRF.token(for: req),
                                page: paging.page)
        if req.fragment("food-list") { return page.results.response() }
        return page.render(layout: req.layout("Foods", .foods, scripts: [SiteURL.script("foods").path])).response()
    }

    @Sendable func newForm(req: Request) async throws -> Response {
        var page = FoodFormPage()
        if let code = req.queryParameters.string("barcode") { page.values["barcode"] = code }
        return page.render(layout: req.layout("Add food", .foods, scripts: [SiteURL.script("food-form").path])).response()
    }

    @Sendable func create(req: Request) async throws -> Response { try await save(req: req, id: nil) }
    @Sendable func update(req: Request) async throws -> Response { try await save(req: req, id: try req.idParameter(what: "food")) }

    @Sendable func editForm(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "food")
        guard let food = try await req.owner.foods.find(id) else { throw AppError.notFound("That food does not exist (any more).") }
        return FoodFormPage(food: food).render(layout: req.layout("Edit food", .foods, scripts: [SiteURL.script("food-form").path])).response()
    }

    private func save(req: Request, id: UUID?) async throws -> Response {
        let user = try req.webUser
        var page = FoodFormPage(form: FormData(req), foodID: id)
        if id == nil, req.fragment("created") { return try await created(req, page: page, currency: user.currency) }
        let layout = { req.layout(page.title, .foods, scripts: [SiteURL.script("food-form").path]) }
        do {
            let draft = try page.draft(), saveFood = try req.owner.saveFood
            let saved: Food
            if let id {
                guard let changed = try await saveFood.change(draft, id: id) else { throw AppError.notFound("That food was deleted; add it again instead.") }
                saved = changed
            } else {
                saved = try await saveFood.add(draft, id: req.dependencies.uuid())
            }
            req.flash((id == nil ? "Added “\(saved.name)”." : "Saved “\(saved.name)”.") + (saved.warnings.isEmpty ? "" : " " + saved.warnings.joined(separator: " ")))
            return req.redirect(to: SiteURL.foods().path(fragment: "food-\(saved.id.uuidString)"), redirectType: .normal)
        } catch let errors as ValidationError {
            page.errors = errors
            return page.render(layout: layout()).response(status: .unprocessableEntity)
        } catch Refusal.conflict(let detail) {
            page.errors = ValidationError(field: "barcode", detail)
            return page.render(layout: layout()).response(status: .conflict)
        } catch let error where StorageFailure.isStorageFailure(error) {
            page.message = "Could not save: the database is unavailable. Nothing was saved — your input is still here; try again in a moment."
            return page.render(layout: layout()).response(status: .serviceUnavailable)
        }
    }

    /// The food picker's Create dialog (food-create.js) sends the form's fields as typed: the food
    /// as the API answers it, or the problem, in JSON, read by the same rules as this page.
    private func created(_ req: Request, page: FoodFormPage, currency: String) async throws -> Response {
        do {
            let saved = try await req.owner.saveFood.add(try page.draft(), id: req.dependencies.uuid())
            let body = try JSONEncoder.forkcastSorted.encode(FoodAnswer(saved, currency: currency))
            return Response(status: .created, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(data: body))
        } catch {
            return ProblemMiddleware.response(ProblemMiddleware.problem(for: error, request: req).0)
        }
    }

    @Sendable func confirmDelete(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "food")
        guard let food = try await req.owner.foods.find(id) else { throw AppError.notFound("That food does not exist (any more).") }
        return req.layout("Delete food", .foods).render("""
        <section class="card narrow">
          <h1>Delete “\(food.name)”?</h1>
          <p>This cannot be undone. Foods used in meals cannot be deleted.</p>
          <form method="post" action="\(SiteURL.deleteFood(food.id).path)" class="form-actions">
            \(Layout.csrfField(CSRF.token(for: req)))
            <a class="button" href="\(SiteURL.foods().path)">Cancel</a>
            <button class="button danger" type="submit">Delete food</button>
          </form>
        </section>
        """).response()
    }

    @Sendable func delete(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "food")
        guard let food = try await req.owner.deleteFood(id) else { throw AppError.notFound("That food was already deleted.") }
        if req.fragment("delete") { return Response(status: .noContent) }
        req.flash("Deleted “\(food.name)”.")
        return req.redirect(to: SiteURL.foods().path, redirectType: .normal)
    }

    /// Searches Open Food Facts by name, or looks a barcode up when the text is one.
    @Sendable func openFoodFacts(req: Request) async throws -> Response {
        _ = try req.webUser
        let query = (req.queryParameters.string("q") ?? "").trimmed
        var products: [FoodDraft] = []
        var failure: String?
        if let code = Barcode(query) {
            do {
                switch try await req.owner.foodLookup.lookup(code) {
                case .local(let food):
                    failure = "“\(food.name)” with this barcode is already one of your foods."
                case .product(let draft): products = [draft]
                case .notFound: products = []
                }
            } catch let error as OpenFoodFactsClient.Failure { failure = error.message }
        } else if query.count >= CatalogSearch.minimumQueryLength {
            do { products = try await req.application.openFoodFacts.search(query) } catch { failure = error.message }
        } else {
            failure = "Type at least \(CatalogSearch.minimumQueryLength) letters of a product name, or a barcode."
        }
        let view = OpenFoodFactsResultsView(query: query, products: products, failure: failure, csrf: CSRF.token(for: req))
        if req.fragment("off-results") { return view.html.response() }
        return OpenFoodFactsPage(results: view).render(layout: req.layout("Open Food Facts", .foods)).response()
    }

    @Sendable func importProduct(req: Request) async throws -> Response {
        _ = try req.webUser
        guard let code = FormData(req)["barcode"].flatMap(Barcode.init) else { throw AppError.badRequest("That is not a barcode.") }
        do {
            guard let result = try await req.owner.foodLookup.importProduct(code, id: req.dependencies.uuid()) else {
                throw AppError.notFound("Open Food Facts has no product with barcode \(code.digits).")
            }
            req.flash(result.created ? "Added “\(result.food.name)” from Open Food Facts. Check the values and adjust anything you like."
                                     : "“\(result.food.name)” is already one of your foods.")
            let target = SiteURL.editFood(result.food.id).path
            if req.fragment("import") { return Response(status: .noContent, headers: ["X-Redirect": target]) }
            return req.redirect(to: target, redirectType: .normal)
        } catch let failure as OpenFoodFactsClient.Failure {
            throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
        }
    }
}
