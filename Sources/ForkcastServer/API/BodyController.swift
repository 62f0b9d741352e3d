import Fluent
import ForkcastContract
import ForkcastCore
import NIOCore
import NIOPosix
import Vapor

/// `/api/v1/body-profile`, `/api/v1/goals`, `/api/v1/weights` and `/api/v1/health/import`.
enum BodyController {
    /// The body profile's, goals' and weighings' operations (ForkcastContract's ``BodyProfiles``,
    /// ``DailyGoals`` and ``Weights``).
    static func register(_ routes: OperationRoutes) {
        routes.on(BodyProfiles.Get.self) { req, _, _ in
            let user = try req.requireUser()
            guard let profile = try await req.owner.body.profile() else {
                throw AppError.notFound("No body profile yet: PUT one with sex, birthDate, heightCm, weightKg, activityLevel and aim.")
            }
            return BodyProfileAnswer(profile, today: user.today(now: req.now))
        }
        routes.on(BodyProfiles.Save.self) { req, _, input in
            let user = try req.requireUser()
            return BodyProfileAnswer(try await req.owner.saveBodyProfile(.init(input)), today: user.today(now: req.now))
        }
        routes.on(DailyGoals.Get.self) { req, _, _ in try await goalsInForce(req) }
        routes.on(DailyGoals.Set.self) { req, _, input in
            try await req.owner.setGoals(.init(input))
            return try await goalsInForce(req)
        }
        routes.on(Weights.List.self) { req, query, _ in
            let page = try req.paging(query)
            let result = try await req.owner.body.weights(page: page)
            return Page(items: result.items, metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
        }
        routes.on(Weights.Record.self) { req, _, input in
            try await req.owner.recordWeight(.init(input), id: req.dependencies.uuid())
        }
        // Imports body mass, height, date of birth and sex from an Apple Health export (zip or xml).
        routes.raw(HealthImport.Run.self, body: .stream) { req, _ in
            let result = try await HealthImportRunner.run(req, user: try req.requireUser())
            let response = Response(status: .ok)
            try response.content.encode(result, as: .json)
            return response
        }
        // Whether an import is running for the user, and how far it has read.
        routes.on(HealthImport.Status.self) { req, _, _ in await req.application.healthImports.status(try req.requireUserID()) }
        routes.on(Weights.Delete.self) { req, parameters, _ in
            guard try await req.owner.deleteWeight(parameters.id) != nil else {
                throw AppError.notFound("No weight entry with id \(parameters.id) exists in your account.")
            }
            return Nothing()
        }
    }

    /// The goals in force today, with the arithmetic of computed ones.
    private static func goalsInForce(_ req: Request) async throws -> GoalsAnswer {
        let user = try req.requireUser()
        let (goals, calculation) = try await req.owner.body.goals(today: user.today(now: req.now))
        return GoalsAnswer(goals, steps: calculation?.steps)
    }

    static func present(_ result: AppleHealthImport.Result, added: Int) -> HealthImportResult {
        let weights = result.weights
        return HealthImportResult(weightsFound: weights.count, weightsAdded: added, heightCm: result.height?.cm,
                               birthDate: result.birthDate, sex: result.sex, recordsRead: result.recordsRead,
                               weightRecords: result.weightRecords,
                               skipped: result.skipped.merging(["alreadyRecorded": weights.count - added]) { $0 + $1 }.filter { $0.value > 0 })
    }
}
