import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/meals/import`: recipes brought in from what the person's browser already has.
enum RecipesController {
    /// A saved page of 5 MB, escaped as a JSON string, with room to spare.
    static let importLimit: ByteCount = "12mb"

    static func register(_ routes: OperationRoutes) {
        routes.on(Meals.Import.self, body: .collect(maxSize: importLimit)) { req, _, input in
            answer(try await req.owner.draftRecipe(try source(input)))
        }
        routes.raw(Meals.RecipeJSONLD.self) { req, parameters in
            let meals = try req.owner.meals
            guard let meal = try await meals.find(parameters.id) else { throw noMeal(parameters.id) }
            let foods = try await meals.foods(for: [meal])
            let response = jsonLD(meal, foods: foods, image: imageURL(meal, token: try await meals.shareToken(of: meal.id), req))
            let name = meal.description.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }.prefix(60).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "-")
            response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(name.isEmpty ? "recipe" : name.lowercased()).jsonld\"")
            return response
        }
        routes.on(Meals.Share.self) { req, parameters, _ in
            guard let shared = try await req.owner.shareRecipe.share(parameters.id, newToken: Tokens.generate()) else { throw noMeal(parameters.id) }
            return .value(shareAnswer(shared.token, req), headers: [:], status: shared.isNew ? nil : .ok)
        }
        routes.on(Meals.Unshare.self) { req, parameters, _ in
            guard try await req.owner.shareRecipe.revoke(parameters.id) else { throw noMeal(parameters.id) }
            return Nothing()
        }
        routes.raw(Meals.Shared.self) { req, parameters in
            guard let shared = try await SharedRecipe.open(parameters.token, on: req.db) else { throw noShare }
            let response = jsonLD(shared.meal, foods: shared.foods, image: imageURL(shared.meal, token: parameters.token, req))
            for (name, value) in ShoppingController.sharedHeaders { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
    }

    static func jsonLD(_ meal: Meal, foods: [UUID: Food], image: String?) -> Response {
        var document = RecipeDocument(meal: meal, foods: foods, perServing: (try? MealTotals.of(meal, foods: foods))?.perServing)
        document.image = image
        let response = Response(status: .ok, body: .init(string: document.json()))
        response.headers.replaceOrAdd(name: .contentType, value: "application/ld+json; charset=utf-8")
        return response
    }

    /// The photo's address anyone can fetch (another recipe app importing the document): only a
    /// shared recipe's photo has one.
    static func imageURL(_ meal: Meal, token: String?, _ req: Request) -> String? {
        guard meal.photoId != nil, let token else { return nil }
        return req.publicBaseURL + Meals.SharedPhoto.path.filled(["token": token])
    }

    static func shareAnswer(_ token: String, _ req: Request) -> RecipeShareAnswer {
        RecipeShareAnswer(link: req.publicBaseURL + SiteURL.sharedRecipe(token).path, token: token)
    }

    static func noMeal(_ id: UUID) -> AppError { AppError.notFound("No meal with id \(id) exists in your account.") }
    static let noShare = AppError.notFound("No recipe is shared by this link: it was never shared, or the link was revoked.")

    static func source(_ input: RecipeImportInput) throws -> DraftRecipe.Source {
        switch (input.html, input.jsonld, input.text) {
        case let (html?, nil, nil): .html(html)
        case let (nil, json?, nil): .jsonLD(json)
        case let (nil, nil, text?): .text(text)
        default: throw ValidationError(field: "html", "Send exactly one of html, jsonld or text.")
        }
    }

    static func answer(_ draft: DraftRecipe.Draft) -> RecipeDraftAnswer {
        RecipeDraftAnswer(
            meal: MealInput(draft.meal),
            lines: draft.lines.map { line in
                let parsed = line.line
                return RecipeLineAnswer(text: parsed.text, quantity: parsed.quantity?.amount, upTo: parsed.quantity?.upTo,
                                        unit: parsed.unit?.rawValue, food: parsed.food, preparation: parsed.preparation, note: parsed.note,
                                        match: match(line))
            },
            nutritionPerServing: NutrientsAnswer(draft.nutritionPerServing, places: 2),
            pageNutrition: draft.recipe.nutritionPerServing.map { NutrientsAnswer($0, places: 2) },
            yield: draft.recipe.yield, recipesFound: draft.found)
    }

    private static func match(_ line: DraftRecipe.Line) -> RecipeMatchAnswer {
        let amount = line.amount
        switch line.match {
        case .food(let food):
            return RecipeMatchAnswer(kind: "food", foodId: food.id, name: food.name, quantity: amount?.quantity.rounded(2),
                                     unit: amount?.unit.rawValue, conversion: amount?.conversion.rawValue)
        case .catalog(let entry):
            return RecipeMatchAnswer(kind: "catalog", catalogId: entry.catalogId, name: entry.name, quantity: amount?.quantity.rounded(2),
                                     unit: amount?.unit.rawValue, conversion: amount?.conversion.rawValue)
        case .none:
            return RecipeMatchAnswer(kind: "none")
        }
    }
}
