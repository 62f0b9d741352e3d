import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/meal-types`: a person's meal types and what the clock suggests (seed 004 §5), as
/// ForkcastContract's ``MealTypes`` operations.
enum MealTypesController {
    static func register(_ routes: OperationRoutes) {
        routes.on(MealTypes.List.self) { req, _, _ in
            try await req.owner.mealTypes.catalog(now: req.now).all.map(MealTypeAnswer.init)
        }
        routes.on(MealTypes.Get.self) { req, parameters, _ in
            guard let type = try await req.owner.mealTypes.catalog(now: req.now).all.first(where: { $0.id == parameters.id }) else {
                throw notFound(parameters.id)
            }
            return MealTypeAnswer(type)
        }
        routes.on(MealTypes.Create.self) { req, _, input in
            let type = try await req.owner.saveMealType.add(input.change, id: req.dependencies.uuid())
            return .value(MealTypeAnswer(type), headers: ["Location": MealTypes.Get.path.filled(["id": type.id.uuidString.lowercased()])])
        }
        routes.on(MealTypes.Update.self) { req, parameters, input in
            guard let type = try await req.owner.saveMealType.change(parameters.id, input.change) else { throw notFound(parameters.id) }
            return MealTypeAnswer(type)
        }
        // The type suggested at an instant (default now) in the person's time zone.
        routes.on(MealTypes.Suggestion.self) { req, query, _ in
            let owner = try req.owner
            return MealTypeAnswer(try await owner.mealTypes.catalog(now: req.now).suggested(at: query.at ?? req.now, in: owner.user.zone))
        }
    }

    private static func notFound(_ id: UUID) -> AppError { .notFound("No meal type with id \(id) exists in your account.") }
}
