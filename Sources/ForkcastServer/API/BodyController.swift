import Fluent
import ForkcastCore
import NIOCore
import NIOPosix
import Vapor

/// `/api/v1/body-profile`, `/api/v1/goals`, `/api/v1/weights` and `/api/v1/health/import`.
struct BodyController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("body-profile", use: profile)
        routes.put("body-profile", use: saveProfile)
        routes.get("goals", use: goals)
        routes.put("goals", use: saveGoals)
        routes.get("weights", use: weights)
        routes.post("weights", use: addWeight)
        routes.delete("weights", ":id", use: deleteWeight)
        routes.on(.POST, "health", "import", body: .stream, use: importHealth)
        routes.get("health", "import", use: importStatus)
    }

    @Sendable func profile(req: Request) async throws -> BodyProfileDTO {
        let user = try req.requireUser()
        guard let profile = try await req.owner.body.profile() else {
            throw AppError.notFound("No body profile yet: PUT one with sex, birthDate, heightCm, weightKg, activityLevel and aim.")
        }
        return BodyProfileDTO(profile, today: user.today(now: req.now))
    }

    @Sendable func saveProfile(req: Request) async throws -> BodyProfileDTO {
        let user = try req.requireUser()
        let profile = try await req.owner.saveBodyProfile(try req.decodeJSON(BodyProfileInput.self))
        return BodyProfileDTO(profile, today: user.today(now: req.now))
    }

    @Sendable func goals(req: Request) async throws -> GoalsDTO {
        let user = try req.requireUser()
        let (goals, calculation) = try await req.owner.body.goals(today: user.today(now: req.now))
        return GoalsDTO(goals, steps: calculation?.steps)
    }

    @Sendable func saveGoals(req: Request) async throws -> GoalsDTO {
        let user = try req.requireUser()
        try await req.owner.setGoals(try req.decodeJSON(GoalsInput.self))
        let (current, calculation) = try await req.owner.body.goals(today: user.today(now: req.now))
        return GoalsDTO(current, steps: calculation?.steps)
    }

    @Sendable func weights(req: Request) async throws -> WeightPageDTO {
        _ = try req.requireUser()
        let page = try req.queryParameters.page()
        let result = try await req.owner.body.weights(page: page)
        return WeightPageDTO(items: result.items.map { WeightDTO(id: $0.id, measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: $0.source) },
                             metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
    }

    @Sendable func addWeight(req: Request) async throws -> Response {
        let input = try req.decodeJSON(WeightInput.self)
        let saved = try await req.owner.recordWeight(.init(measuredAt: input.measuredAt, weightKg: input.weightKg, weightLb: input.weightLb),
                                                     id: req.dependencies.uuid())
        let response = Response(status: .created)
        try response.content.encode(WeightDTO(id: saved.id, measuredAt: saved.measuredAt, weightKg: saved.weightKg, source: saved.source))
        return response
    }

    @Sendable func deleteWeight(req: Request) async throws -> HTTPStatus {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "weight entry")
        guard try await req.owner.deleteWeight(id) != nil else { throw AppError.notFound("No weight entry with id \(id) exists in your account.") }
        return .noContent
    }

    /// Imports body mass, height, date of birth and sex from an Apple Health export (zip or xml).
    @Sendable func importHealth(req: Request) async throws -> ImportResultDTO {
        try await HealthImportRunner.run(req, user: try req.requireUser())
    }

    /// Whether an import is running for the user, and how far it has read.
    @Sendable func importStatus(req: Request) async throws -> HealthImports.Status {
        await HealthImports.shared.status(try req.requireUserID())
    }

    static func present(_ result: AppleHealthImport.Result, added: Int) -> ImportResultDTO {
        let weights = result.weights
        return ImportResultDTO(weightsFound: weights.count, weightsAdded: added, heightCm: result.height?.cm,
                               birthDate: result.birthDate, sex: result.sex?.rawValue, recordsRead: result.recordsRead,
                               weightRecords: result.weightRecords,
                               skipped: result.skipped.merging(["alreadyRecorded": weights.count - added]) { $0 + $1 }.filter { $0.value > 0 })
    }
}
