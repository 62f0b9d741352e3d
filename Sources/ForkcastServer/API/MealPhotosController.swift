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
            let response = Response(status: .ok)
            try response.content.encode(try await MealsController.answer(meal, window: PlannedWindow(), req: req), as: .json)
            return response
        }
        routes.on(Meals.DeletePhoto.self) { req, parameters, _ in
            guard try await req.owner.setMealPhoto(nil, on: parameters.id) != nil else { throw RecipesController.noMeal(parameters.id) }
            return Nothing()
        }
        routes.raw(Meals.Photo.self) { req, parameters in
            guard let photoId = try await req.owner.meals.photoID(of: parameters.id) else {
                throw AppError.notFound("The meal \(parameters.id) is not in your household, or it has no photo.")
            }
            return try await answer(meal: parameters.id, photoId: photoId, req, cache: "private, no-cache")
        }
        routes.raw(Meals.SharedPhoto.self) { req, parameters in
            guard let (meal, photoId) = try await SharedRecipe.photo(parameters.token, on: req.db) else {
                throw AppError.notFound("No recipe with a photo is shared by this link: it has no photo, was never shared, or the link was revoked.")
            }
            // As every answer to a link: kept by no cache, sent with no referrer.
            let response = try await answer(meal: meal, photoId: photoId, req, cache: "no-store")
            for (name, value) in ShoppingController.sharedHeaders { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
    }

    /// The meal's photo `photoId` (its ETag): a 304 for the copy the client has, without reading the
    /// bytes; else the image.
    private static func answer(meal: UUID, photoId: UUID, _ req: Request, cache: String) async throws -> Response {
        let etag = "\"\(photoId.uuidString.lowercased())\""
        if req.headers.first(name: .ifNoneMatch) == etag {
            return Response(status: .notModified, headers: [HTTPHeaders.Name.cacheControl.description: cache, HTTPHeaders.Name.eTag.description: etag])
        }
        guard let photo = try await MealRepository.photo(of: meal, on: req.db) else { throw AppError.notFound("The meal \(meal) has no photo.") }
        return PhotosController.image(photo.data, format: photo.format, etag: etag, cache: cache, name: "recipe", req)
    }
}
