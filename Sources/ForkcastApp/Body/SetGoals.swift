import ForkcastCore
import Foundation

/// Setting the daily goals by hand, or choosing goals computed from the body profile (which must
/// exist), from the API, the Goals page or a synced device.
public struct SetGoals: Sendable {
    let store: any BodyStore
    let now: Date

    public init(store: any BodyStore, now: Date) {
        self.store = store
        self.now = now
    }

    /// `source` "manual" (the default) with the four numbers, or "computed"; and the daily targets
    /// to change (a number sets one, nil puts back the daily value).
    public struct Input: Sendable, Hashable {
        public var source: String?
        public var energyKcal, protein, carbohydrates, fat: Decimal?
        public var targets: [Nutrient: Decimal?]

        public init(source: String? = nil, energyKcal: Decimal? = nil, protein: Decimal? = nil, carbohydrates: Decimal? = nil,
                    fat: Decimal? = nil, targets: [Nutrient: Decimal?] = [:]) {
            (self.source, self.targets) = (source, targets)
            (self.energyKcal, self.protein, self.carbohydrates, self.fat) = (energyKcal, protein, carbohydrates, fat)
        }
    }

    /// Changes only nutrients' daily targets (a number sets one, nil puts back the daily value);
    /// the four goals stay as they are (the defaults, kept as set by hand, when none were set).
    public func changeTargets(_ changes: [Nutrient: Decimal?]) async throws {
        _ = try Goals.defaults.withTargets(changes)
        let now = now
        try await store.write { body in
            var goals = try await body.storedGoals() ?? .defaults
            goals.reference = try await Self.reference(body, now: now)
            try await body.saveGoals(try goals.withTargets(changes), now: now)
        }
    }

    /// Throws ``ValidationError`` naming each bad field.
    public func callAsFunction(_ input: Input) async throws {
        var goals: Goals
        switch input.source ?? "manual" {
        case "computed":
            goals = .computed
        case "manual":
            goals = try BodyRules.manualGoals(energyKcal: input.energyKcal, protein: input.protein, carbohydrates: input.carbohydrates, fat: input.fat)
        default:
            throw ValidationError(field: "source", "source must be \"manual\" or \"computed\".")
        }
        let changes = input.targets
        // Checked before any read, so bad input is a 422 whatever is stored.
        _ = try goals.withTargets(changes)
        let now = now, chosen = goals
        try await store.write { body in
            if let problem = chosen.profileProblem(hasProfile: try await body.profile() != nil) {
                throw ValidationError(field: problem.field, "\(problem.message) Save your body profile first.")
            }
            var goals = chosen
            goals.targets = try await body.storedGoals()?.targets ?? [:]
            goals.reference = try await Self.reference(body, now: now)
            try await body.saveGoals(try goals.withTargets(changes), now: now)
        }
    }

    /// The person's reference intakes (a target set to one is no change of the target).
    private static func reference(_ body: any BodyRecords, now: Date) async throws -> [Nutrient: Decimal] {
        guard let profile = try await body.profile() else { return [:] }
        return ReferenceIntake.values(sex: profile.sex, age: profile.age(on: CalendarDate(now, in: .gmt)))
    }
}
