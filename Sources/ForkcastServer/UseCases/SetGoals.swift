import Fluent
import ForkcastCore
import Foundation

/// Setting the daily goals by hand, or choosing goals computed from the body profile (which must
/// exist), from the API, the Goals page or a synced device.
struct SetGoals {
    let ownerID: UUID
    let db: any Database
    let now: Date

    func callAsFunction(_ input: GoalsInput) async throws {
        let goals: Goals
        switch input.source ?? "manual" {
        case "computed":
            goals = .computed
        case "manual":
            do {
                goals = try BodyRules.manualGoals(energyKcal: input.energyKcal, protein: input.protein, carbohydrates: input.carbohydrates, fat: input.fat)
            } catch { throw AppError.validation(error) }
        default:
            throw AppError.validation(ValidationError(field: "source", "source must be \"manual\" or \"computed\"."))
        }
        let ownerID = ownerID, now = now
        try await db.write { tx in
            let body = BodyRepository(db: tx, ownerID: ownerID)
            if goals.source == .computed, try await body.profile() == nil {
                throw AppError.validation(ValidationError(field: "source", "Computed goals need a body profile first (PUT /api/v1/body-profile)."))
            }
            try await body.saveGoals(goals, now: now)
        }
    }
}

extension Goals {
    /// The setting "computed from the body profile" (the numbers are computed when read).
    static let computed = Goals(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0, source: .computed)
}
