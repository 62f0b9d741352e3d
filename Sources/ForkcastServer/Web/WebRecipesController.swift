import ForkcastApp
import ForkcastCore
import Vapor

/// A recipe to cook from, and bringing one in: the import page reads a pasted or chosen page into
/// the meal form, filled; nothing is saved until the person saves that form.
struct WebRecipesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.recipe(SiteURL.anyID), use: recipe)
        routes.get(SiteURL.importRecipe, use: importForm)
        let upload = HTTPBodyStreamStrategy.collect(maxSize: RecipesController.importLimit)
        routes.on(.POST, SiteURL.importRecipe, body: upload, use: read).noting(upload)
    }

    @Sendable func recipe(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "meal")
        let meals = try req.owner.meals
        guard let meal = try await meals.find(id) else { throw AppError.notFound("That meal does not exist (any more).") }
        let servings = try req.queryParameters.int("servings").map { min(max($0, 1), MealDraft.maximumServings) } ?? meal.servings
        let foods = try await meals.foods(for: [meal])
        let page = RecipeViewPage(meal: meal, foods: foods, servings: servings, totals: (try? MealTotals.of(meal, foods: foods)) ?? .unknown,
                                  currency: user.currency)
        return page.render(layout: req.layout(meal.description, .meals)).response()
    }

    /// The import page; a phone's share sheet opens it with the shared `text`, `title` and `url`.
    @Sendable func importForm(req: Request) async throws -> Response {
        _ = try req.webUser
        let shared = ["title", "text", "url"].compactMap { req.queryParameters.string($0)?.trimmed.nilIfEmptyString }
        let page = RecipeImportPage(pasted: shared.joined(separator: "\n"))
        return page.render(layout: req.layout("Import recipe", .meals), csrf: CSRF.token(for: req)).response()
    }

    @Sendable func read(req: Request) async throws -> Response {
        let user = try req.webUser
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
