import ForkcastApp
import ForkcastCore
import Vapor

/// A recipe to cook from, and bringing one in: the import page reads a pasted or chosen page into
/// the meal form, filled; nothing is saved until the person saves that form.
struct WebRecipesController: RouteCollection {
    let photoMaxBytes: Int

    func boot(routes: any RoutesBuilder) throws {
        let photo = HTTPBodyStreamStrategy.collect(maxSize: ByteCount(value: photoMaxBytes + 64 * 1024))
        routes.on(.POST, SiteURL.recipePhoto(SiteURL.anyID), body: photo, use: setPhoto).noting(photo)
        routes.post(SiteURL.deleteRecipePhoto(SiteURL.anyID), use: deletePhoto)
        routes.get(SiteURL.recipe(SiteURL.anyID), use: recipe)
        routes.get(SiteURL.cook(SiteURL.anyID), use: cook)
        routes.post(SiteURL.ateCooked(SiteURL.anyID), use: ate)
        routes.post(SiteURL.cookedEntry(SiteURL.anyID), use: cooked)
        routes.get(SiteURL.importRecipe, use: importForm)
        let upload = HTTPBodyStreamStrategy.collect(maxSize: RecipesController.importLimit)
        routes.on(.POST, SiteURL.importRecipe, body: upload, use: read).noting(upload)
        routes.on(.POST, SiteURL.importShared, body: upload, use: shared).noting(upload)
        routes.post(SiteURL.shareRecipe(SiteURL.anyID), use: share)
        routes.post(SiteURL.unshareRecipe(SiteURL.anyID), use: unshare)
    }

    @Sendable func recipe(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "meal")
        let meals = try req.owner.meals
        guard let meal = try await meals.find(id) else { throw AppError.notFound("That meal does not exist (any more).") }
        let foods = try await meals.foods(for: [meal])
        let token = try await meals.shareToken(of: id)
        let link = token.map { RecipesController.shareAnswer($0, req).link }
        let planned = try await Self.plannedFor(req, meal)
        var page = RecipeViewPage(meal: meal, foods: foods, servings: try Self.servings(req, meal, planned: planned),
                                  totals: (try? MealTotals.of(meal, foods: foods)) ?? .unknown,
                                  currency: user.currency, viewer: .household(link: link, csrf: CSRF.token(for: req)))
        page.plannedFor = planned
        page.sharedImage = RecipesController.imageURL(meal, token: token, req)
        return page.render(layout: req.layout(meal.description, .meals)).response()
    }

    /// The recipe's photo from the page's form (the same checks as `PUT /api/v1/meals/{id}/photo`).
    @Sendable func setPhoto(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "meal")
        let upload = try await PhotosController.receive(req, maxBytes: photoMaxBytes)
        guard try await req.owner.setMealPhoto(upload.photo, on: id) != nil else { throw AppError.notFound("That meal does not exist (any more).") }
        req.flash("Saved the photo.")
        return req.redirect(to: SiteURL.recipe(id).path, redirectType: .normal)
    }

    @Sendable func deletePhoto(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "meal")
        guard try await req.owner.setMealPhoto(nil, on: id) != nil else { throw AppError.notFound("That meal does not exist (any more).") }
        req.flash("The photo is gone.")
        return req.redirect(to: SiteURL.recipe(id).path, redirectType: .normal)
    }

    /// Cooking mode, for the servings asked or the plan entry's portions.
    @Sendable func cook(req: Request) async throws -> Response {
        _ = try req.webUser
        let meals = try req.owner.meals
        guard let meal = try await meals.find(try req.idParameter(what: "meal")) else { throw AppError.notFound("That meal does not exist (any more).") }
        let planned = try await Self.plannedFor(req, meal)
        let page = CookPage(meal: meal, foods: try await meals.foods(for: [meal]), servings: try Self.servings(req, meal, planned: planned),
                            plannedFor: planned, csrf: CSRF.token(for: req))
        return page.render(layout: req.layout("Cooking: \(meal.description)", .meals, scripts: [SiteURL.script("cook").path])).response()
    }

    /// "We ate this": the plan entry logged into each eater's own diary.
    @Sendable func ate(req: Request) async throws -> Response {
        let user = try req.webUser
        let owner = try req.owner
        guard let (assignment, logged, pantry) = try await owner.logCooked(try req.idParameter(what: "plan entry")) else {
            throw AppError.notFound("That planned meal no longer exists.")
        }
        let members = try await owner.household()?.members ?? []
        let names = logged.map { done in members.first { $0.id == done.eater }.map { Household.name(of: $0, among: members, me: owner.id) } ?? "you" }
        req.flash((names.isEmpty ? "Everyone who eats it had logged it already." : "Logged for \(names.joined(separator: ", ")).")
                  + (pantry.flatMap(PantryTaking.summary).map { " " + $0 } ?? ""))
        let date = assignment.date == user.today(now: req.now) ? nil : assignment.date
        return req.redirect(to: SiteURL.diary(date: date).path(fragment: logged.first.map { "group-\($0.entry.mealType)" } ?? "planned"), redirectType: .normal)
    }

    /// "Cooked": the plan entry's ingredients out of the pantry, once; back to the recipe.
    @Sendable func cooked(req: Request) async throws -> Response {
        guard let cooked = try await req.owner.cookFromPantry(try req.idParameter(what: "plan entry")) else {
            throw AppError.notFound("That planned meal no longer exists.")
        }
        req.flash(cooked.alreadyCooked ? "It was cooked already: its ingredients were taken out of the pantry then."
                  : PantryTaking.summary(cooked) ?? "Nothing of it was in the pantry.")
        let assignment = cooked.assignment
        return req.redirect(to: SiteURL.recipe(assignment.mealId, entry: assignment.id).path, redirectType: .normal)
    }

    /// `?servings=` within what a meal may make; else the plan entry's portions, else the recipe's own.
    static func servings(_ req: Request, _ meal: Meal, planned: PlannedFor? = nil) throws -> Int {
        try req.queryParameters.int("servings").map { min(max($0, 1), MealDraft.maximumServings) } ?? planned?.portions ?? meal.servings
    }

    /// The plan entry `?entry=` names, when it plans this meal in the household.
    static func plannedFor(_ req: Request, _ meal: Meal) async throws -> PlannedFor? {
        guard let text = req.queryParameters.string("entry") else { return nil }
        guard let id = UUID(uuidString: text) else { throw AppError.badRequest("That plan entry's id is not valid.") }
        let owner = try req.owner
        guard let assignment = try await owner.plan.find(id), assignment.mealId == meal.id else { return nil }
        let types = try await owner.diary.types()
        let members = try await owner.household()?.members ?? []
        let eaters = members.count < 2 ? [] : members.compactMap { member in
            assignment.portions(for: member.id).map { (name: Household.name(of: member, among: members, me: owner.id), portions: $0) }
        }
        return PlannedFor(assignment: assignment, slot: assignment.mealType.flatMap { types.resolve($0)?.name }, eaters: eaters,
                          portions: assignment.portions(of: meal), today: try req.webUser.today(now: req.now))
    }

    @Sendable func share(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "meal")
        guard try await req.owner.shareRecipe.share(id, newToken: Tokens.generate()) != nil else { throw AppError.notFound("That meal does not exist (any more).") }
        req.flash("Shared: copy the link below and send it to whoever should read this recipe.")
        return req.redirect(to: SiteURL.recipe(id).path(fragment: "recipe-share"), redirectType: .normal)
    }

    @Sendable func unshare(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "meal")
        guard try await req.owner.shareRecipe.revoke(id) else { throw AppError.notFound("That meal does not exist (any more).") }
        req.flash("The link no longer works.")
        return req.redirect(to: SiteURL.recipe(id).path, redirectType: .normal)
    }

    /// The import page; a phone's share sheet opens it with the shared `text`, `title` and `url`.
    @Sendable func importForm(req: Request) async throws -> Response {
        _ = try req.webUser
        let shared = ["title", "text", "url"].compactMap { req.queryParameters.string($0)?.trimmed.nilIfEmptyString }
        let page = RecipeImportPage(pasted: shared.joined(separator: "\n"))
        return page.render(layout: req.layout("Import recipe", .meals), csrf: CSRF.token(for: req)).response()
    }

    /// The share sheet's POST (manifest.webmanifest): a shared file (a saved page, a .json) is read
    /// as one chosen on the import page; a shared page's title, text and address fill the import
    /// page as the GET does (a browser shares no page's source, and the server fetches nothing).
    @Sendable func shared(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = req.headers.contentType?.parameters["boundary"].flatMap { boundary in
            req.body.data.flatMap { try? MultipartForm(body: $0, boundary: boundary) }
        }
        if let file = form?.first("file"), !file.data.isEmpty {
            return try await draftPage(req, String(decoding: file.data, as: UTF8.self), filename: file.filename)
        }
        let shared = ["title", "text", "url"].compactMap { form?.first($0).map { String(decoding: $0.data, as: UTF8.self) }?.trimmed.nilIfEmptyString }
        let page = RecipeImportPage(pasted: shared.joined(separator: "\n"))
        return page.render(layout: req.layout("Import recipe", .meals), csrf: CSRF.token(for: req)).response()
    }

    @Sendable func read(req: Request) async throws -> Response {
        _ = try req.webUser
        var text = "", filename: String?
        if let boundary = req.headers.contentType?.parameters["boundary"], let body = req.body.data {
            let form = try? MultipartForm(body: body, boundary: boundary)
            if let file = form?.first("file"), !file.data.isEmpty {
                text = String(decoding: file.data, as: UTF8.self)
                filename = file.filename
            } else {
                text = form?.first("source").map { String(decoding: $0.data, as: UTF8.self) } ?? ""
            }
        } else {
            text = FormData(req)["source"] ?? ""
        }
        return try await draftPage(req, text, filename: filename)
    }

    /// The meal form filled from a pasted text or a file's, or the import page with what was wrong.
    private func draftPage(_ req: Request, _ text: String, filename: String?) async throws -> Response {
        let user = try req.webUser
        let source = RecipeImportPage.source(text, filename: filename)
        do {
            var page = MealFormPage(draft: try await req.owner.draftRecipe(source))
            page.currency = user.currency
            page.facets = try await req.owner.meals.facets()
            page.foodOptions = try await req.owner.foods.list(query: nil, page: try Paging(per: 200)).items
            return page.render(layout: req.layout("Add meal", .meals, scripts: [SiteURL.script("meal-form").path])).response()
        } catch let error as ValidationError {
            let page = RecipeImportPage(pasted: filename == nil ? String(text.prefix(100_000)) : "", error: error.fields.first?.message)
            return page.render(layout: req.layout("Import recipe", .meals), csrf: CSRF.token(for: req)).response(status: .unprocessableEntity)
        }
    }
}

/// The page a recipe's sharing link opens, for anyone: the recipe, read-only, with its JSON-LD
/// (so another recipe app imports the address). No account, nothing else of the household's.
struct WebSharedRecipeController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.sharedRecipe(":token"), use: show)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let token = req.parameters.get("token") ?? ""
        guard let shared = try await SharedRecipe.open(token, on: req.db) else { throw RecipesController.noShare }
        var page = RecipeViewPage(meal: shared.meal, foods: shared.foods, servings: try WebRecipesController.servings(req, shared.meal),
                                  totals: shared.totals, currency: shared.currency, viewer: .linkHolder(token: token))
        page.sharedImage = RecipesController.imageURL(shared.meal, token: token, req)
        let layout = Layout(title: shared.meal.description, section: .none, csrf: nil, signedIn: false)
        let response = page.render(layout: layout).response()
        for (name, value) in ShoppingController.sharedHeaders { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }
}
