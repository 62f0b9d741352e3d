import Fluent
import ForkcastCore
import Vapor

/// `/api/v1/meal-types`: a person's meal types and what the clock suggests (seed 004 §5).
struct MealTypesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let types = routes.grouped("meal-types")
        types.get(use: list)
        types.post(use: create)
        types.get("suggestion", use: suggestion)
        types.get(":id", use: show)
        types.put(":id", use: update)
    }

    @Sendable func list(req: Request) async throws -> [MealTypeDTO] {
        try await req.owner.mealTypes.catalog(now: req.now).all.map(MealTypeDTO.init)
    }

    @Sendable func show(req: Request) async throws -> MealTypeDTO {
        let id = try req.idParameter(what: "meal type")
        guard let type = try await req.owner.mealTypes.catalog(now: req.now).all.first(where: { $0.id == id }) else { throw notFound(id) }
        return MealTypeDTO(type)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let input = try req.decodeJSON(MealTypeInput.self)
        let type = try await req.owner.saveMealType.add(input.change, id: req.dependencies.uuid())
        let response = Response(status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/meal-types/\(type.id)")
        try response.content.encode(MealTypeDTO(type), as: .json)
        return response
    }

    @Sendable func update(req: Request) async throws -> MealTypeDTO {
        let id = try req.idParameter(what: "meal type")
        let input = try req.decodeJSON(MealTypeInput.self)
        guard let type = try await req.owner.saveMealType.change(id, input.change) else { throw notFound(id) }
        return MealTypeDTO(type)
    }

    /// The type suggested at an instant (default now) in the person's time zone.
    @Sendable func suggestion(req: Request) async throws -> MealTypeDTO {
        let owner = try req.owner
        var at = req.now
        if let raw = req.queryParameters.string("at") {
            guard let parsed = Instant.parse(raw) else {
                throw AppError.badRequest("at must be an ISO 8601 instant such as 2026-11-22T12:30:00Z; got \"\(raw.prefix(40))\".")
            }
            at = parsed
        }
        return MealTypeDTO(try await owner.mealTypes.catalog(now: req.now).suggested(at: at, in: owner.user.zone))
    }

    private func notFound(_ id: UUID) -> AppError { .notFound("No meal type with id \(id) exists in your account.") }
}
