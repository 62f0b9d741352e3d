import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/meals/{id}/photo`: a recipe's photo, put, taken off and shown to its household; and the
/// shared recipe's, to whoever holds its link.
enum MealPhotosController {
    static func register(_ routes: OperationRoutes, maxBytes: Int) {
        routes.raw(Meals.SetPhoto.self, body: .collect(maxSize: ByteCount(value: maxBytes + 64 * 1024))) { req, parameters in
            let upload = try await PhotosController.receive(req, maxBytes: maxBytes, readsCapturedAt: false)
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
            let meals = try req.owner.meals
            guard let meal = try await meals.find(parameters.id), let photoId = meal.photoId else {
                throw AppError.notFound("The meal \(parameters.id) is not in your household, or it has no photo.")
            }
            // The copy the client has is asked about before the bytes are read.
            if let unchanged = notModified(photoId, req, cache: "private, no-cache") { return unchanged }
            guard let photo = try await meals.photo(of: meal.id) else { throw AppError.notFound("The meal \(parameters.id) has no photo.") }
            return image(photo, req, cache: "private, no-cache")
        }
        routes.raw(Meals.SharedPhoto.self) { req, parameters in
            let none = AppError.notFound("No recipe with a photo is shared by this link: it has no photo, was never shared, or the link was revoked.")
            guard let shared = try await SharedRecipe.open(parameters.token, on: req.db), let photoId = shared.meal.photoId else { throw none }
            // As every answer to a link: kept by no cache, sent with no referrer.
            var response = notModified(photoId, req, cache: "no-store")
            if response == nil {
                guard let photo = try await MealRepository.photo(of: shared.meal.id, on: req.db) else { throw none }
                response = image(photo, req, cache: "no-store")
            }
            for (name, value) in ShoppingController.sharedHeaders { response!.headers.replaceOrAdd(name: name, value: value) }
            return response!
        }
    }

    private static func etag(_ photoId: UUID) -> String { "\"\(photoId.uuidString.lowercased())\"" }

    private static func notModified(_ photoId: UUID, _ req: Request, cache: String) -> Response? {
        guard req.headers.first(name: .ifNoneMatch) == etag(photoId) else { return nil }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .cacheControl, value: cache)
        headers.replaceOrAdd(name: .eTag, value: etag(photoId))
        return Response(status: .notModified, headers: headers)
    }

    /// A photo under an address that stays when the photo changes: revalidated each time by its id.
    static func image(_ photo: MealPhoto, _ req: Request, cache: String) -> Response {
        PhotosController.image(photo.data, format: photo.format, etag: etag(photo.id), cache: cache, name: "recipe", req)
    }
}
