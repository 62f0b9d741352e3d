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
        let input = try req.decodeJSON(BodyProfileInput.self)
        let today = user.today(now: req.now)
        let profile = try BodyInput.profile(from: input, today: today)
        try await req.owner.body.save(profile, now: req.now, uuid: req.dependencies.uuid())
        return BodyProfileDTO(profile, today: today)
    }

    @Sendable func goals(req: Request) async throws -> GoalsDTO {
        let user = try req.requireUser()
        let (goals, calculation) = try await req.owner.body.goals(today: user.today(now: req.now))
        return GoalsDTO(goals, steps: calculation?.steps)
    }

    @Sendable func saveGoals(req: Request) async throws -> GoalsDTO {
        let user = try req.requireUser()
        let input = try req.decodeJSON(GoalsInput.self)
        let body = try req.owner.body
        let goals = try await BodyInput.goals(from: input, body: body)
        try await body.saveGoals(goals, now: req.now)
        let (current, calculation) = try await body.goals(today: user.today(now: req.now))
        return GoalsDTO(current, steps: calculation?.steps)
    }

    @Sendable func weights(req: Request) async throws -> WeightPageDTO {
        let user = try req.requireUser()
        let page = try req.queryParameters.page()
        let result = try await req.owner.body.weights(page: page)
        return WeightPageDTO(items: result.items.map { WeightDTO(id: $0.id, measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: $0.source) },
                             metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
    }

    @Sendable func addWeight(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let input = try req.decodeJSON(WeightInput.self)
        let kg = try BodyInput.kilograms(kg: input.weightKg, lb: input.weightLb, field: "weightKg")
        let at = try BodyInput.measuredAt(input.measuredAt, now: req.now)
        let body = try req.owner.body
        guard try await body.addWeights([(at, kg)], source: "manual") == 1 else {
            throw AppError.conflict("A weight is already recorded at \(ISO8601DateFormatter().string(from: at)).")
        }
        guard let saved = try await body.weights(from: at, to: at).first else {
            throw AppError.conflict("The weight was removed again while it was being saved; add it again.")
        }
        let response = Response(status: .created)
        try response.content.encode(WeightDTO(id: saved.id, measuredAt: saved.measuredAt, weightKg: saved.weightKg, source: saved.source))
        return response
    }

    @Sendable func deleteWeight(req: Request) async throws -> HTTPStatus {
        let user = try req.requireUser()
        let id = try req.idParameter(what: "weight entry")
        guard try await req.owner.body.deleteWeight(id, now: req.now) else { throw AppError.notFound("No weight entry with id \(id) exists in your account.") }
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

    static func apply(_ result: AppleHealthImport.Result, user: UserModel, db: any Database, now: Date) async throws -> ImportResultDTO {
        let body = BodyRepository(db: db, ownerID: try user.requireID())
        let added = try await body.addWeights(result.weights, source: "apple-health")
        try await body.merge(sex: result.sex, birthDate: result.birthDate, heightCm: result.height?.cm, now: now)
        let weights = result.weights
        return ImportResultDTO(weightsFound: weights.count, weightsAdded: added, heightCm: result.height?.cm,
                               birthDate: result.birthDate, sex: result.sex?.rawValue, recordsRead: result.recordsRead,
                               weightRecords: result.weightRecords,
                               skipped: result.skipped.merging(["alreadyRecorded": weights.count - added]) { $0 + $1 }.filter { $0.value > 0 })
    }

}

/// Turning body and goal input into domain values, shared by the API and the pages.
enum BodyInput {
    /// When a weighing happened: not more than a day ahead (a future weighing would drive computed
    /// goals until it came).
    static func measuredAt(_ at: Date?, now: Date) throws -> Date {
        let at = at ?? now
        guard at <= now.addingTimeInterval(86_400) else {
            throw AppError.validation(ValidationError(field: "measuredAt", "A weighing cannot be in the future."))
        }
        return at
    }

    static func kilograms(kg: Decimal?, lb: Decimal?, field: String) throws -> Decimal {
        guard let value = kg ?? lb.map(BodyUnits.kilograms(fromPounds:)) else {
            throw AppError.validation(ValidationError(field: field, "Give the weight in kg (weightKg) or pounds (weightLb)."))
        }
        if let problem = Plausible.bodyWeightKg.check(value, field: kg == nil ? "weightLb" : field, label: "Weight") {
            throw AppError.validation(ValidationError([problem]))
        }
        return value.rounded(2)
    }

    static func profile(from input: BodyProfileInput, today: CalendarDate) throws -> BodyProfile {
        var problems: [ValidationError.Field] = []
        let sex = Sex(rawValue: input.sex)
        if sex == nil { problems.append(.init(field: "sex", message: "sex must be \"male\" or \"female\" (the equation needs one of the two).")) }
        let level = ActivityLevel(rawValue: input.activityLevel)
        if level == nil { problems.append(.init(field: "activityLevel", message: "activityLevel must be one of: \(ActivityLevel.allCases.map(\.rawValue).joined(separator: ", ")).")) }
        let aim = Aim(rawValue: input.aim)
        if aim == nil { problems.append(.init(field: "aim", message: "aim must be cut, maintain or bulk.")) }
        var height = input.heightCm
        if height == nil, input.heightFt != nil || input.heightIn != nil {
            height = BodyUnits.centimetres(feet: input.heightFt ?? 0, inches: input.heightIn ?? 0)
        }
        if height == nil { problems.append(.init(field: "heightCm", message: "Give the height in cm (heightCm) or feet and inches (heightFt, heightIn).")) }
        var weight = input.weightKg
        if weight == nil, let lb = input.weightLb { weight = BodyUnits.kilograms(fromPounds: lb) }
        if weight == nil { problems.append(.init(field: "weightKg", message: "Give the weight in kg (weightKg) or pounds (weightLb).")) }
        guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
        do {
            // The ranges are checked on what was sent, then the values are rounded for storage.
            var profile = try BodyProfile(sex: sex!, birthDate: input.birthDate, heightCm: height!, weightKg: weight!,
                                          activityLevel: level!, aim: aim!).validated(today: today)
            profile.heightCm = profile.heightCm.rounded(1)
            profile.weightKg = profile.weightKg.rounded(2)
            return profile
        } catch { throw AppError.validation(error) }
    }

    static func goals(from input: GoalsInput, body: BodyRepository) async throws -> Goals {
        switch input.source ?? "manual" {
        case "computed":
            guard try await body.profile() != nil else {
                throw AppError.validation(ValidationError(field: "source", "Computed goals need a body profile first (PUT /api/v1/body-profile)."))
            }
            return Goals(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0, source: .computed)
        case "manual":
            var missing: [ValidationError.Field] = []
            for (name, value) in [("energyKcal", input.energyKcal), ("protein", input.protein), ("carbohydrates", input.carbohydrates), ("fat", input.fat)]
            where value == nil { missing.append(.init(field: name, message: "\(name) is required for manual goals.")) }
            guard missing.isEmpty else { throw AppError.validation(ValidationError(missing)) }
            do {
                return try Goals(energyKcal: input.energyKcal!, protein: input.protein!, carbohydrates: input.carbohydrates!, fat: input.fat!).validated()
            } catch { throw AppError.validation(error) }
        default:
            throw AppError.validation(ValidationError(field: "source", "source must be \"manual\" or \"computed\"."))
        }
    }
}
