import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/meals/{id}/photo`: a recipe's photo, put, taken off and shown to its household; and the
/// shared recipe's, to whoever holds its link.
enum MealPhotosController {
    static func register(_ routes: OperationRoutes, maxBytes: Int) {
        routes.raw(Meals.SetPhoto.self, body: .collect(maxSize: ByteCount(value: maxBytes + 64 * 1024))) { req, parameters in
            let upload = try await PhotosController.receive(req, maxBytes: maxBytes)
            guard let meal = try await req.owner.setMealPhoto(upload.photo, on: parameters.id) else { throw RecipesController.noMeal(parameters.id) }
            let user = try req.requireUser()
            let owner = try req.owner
            let presenter = try await MealPresenter.load([meal], repository: owner.meals, currency: user.currency)
            let window = WeekWindow(start: user.today(now: req.now), length: WeekWindow.defaultLength)
            let answer = presenter.answer(meal, isPlanned: try await owner.plan.timesPlanned(meal.id, in: window) > 0)
            let response = Response(status: .ok)
            try response.content.encode(answer, as: .json)
            return response
        }
        routes.on(Meals.DeletePhoto.self) { req, parameters, _ in
            guard try await req.owner.setMealPhoto(nil, on: parameters.id) != nil else { throw RecipesController.noMeal(parameters.id) }
            return Nothing()
        }
        routes.raw(Meals.Photo.self) { req, parameters in
            guard let photo = try await req.owner.meals.photo(of: parameters.id) else {
                throw AppError.notFound("The meal \(parameters.id) is not in your household, or it has no photo.")
            }
            return image(photo, req, cache: "private, no-cache")
        }
        routes.raw(Meals.SharedPhoto.self) { req, parameters in
            guard let shared = try await SharedRecipe.open(parameters.token, on: req.db),
                  let photo = try await MealRepository.photo(of: shared.meal.id, on: req.db) else {
                throw AppError.notFound("No recipe with a photo is shared by this link: it has no photo, was never shared, or the link was revoked.")
            }
            let response = image(photo, req, cache: "no-cache")
            response.headers.replaceOrAdd(name: "X-Robots-Tag", value: "noindex, nofollow")
            return response
        }
    }

    /// A photo under an address that stays when the photo changes: revalidated each time by its id.
    static func image(_ photo: MealPhoto, _ req: Request, cache: String) -> Response {
        PhotosController.image(photo.data, format: photo.format, etag: "\"\(photo.id.uuidString.lowercased())\"", cache: cache, name: "recipe", req)
    }
}
