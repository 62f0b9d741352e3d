import Fluent
import ForkcastCore
import Foundation

/// Saving the body profile, from the API, the Goals page or a synced device. The goals stay as they
/// are (manual goals are kept) unless the person also asks for computed goals, which is then part
/// of the same transaction.
struct SaveBodyProfile {
    let ownerID: UUID
    let db: any Database
    let now: Date
    let today: CalendarDate
    let uuid: @Sendable () -> UUID

    @discardableResult
    func callAsFunction(_ input: BodyProfileInput, useComputedGoals: Bool = false) async throws -> BodyProfile {
        let profile: BodyProfile
        do {
            profile = try BodyRules.profile(sex: input.sex, birthDate: input.birthDate, heightCm: input.heightCm, heightFt: input.heightFt,
                                            heightIn: input.heightIn, weightKg: input.weightKg, weightLb: input.weightLb,
                                            activityLevel: input.activityLevel, aim: input.aim, today: today)
        } catch { throw AppError.validation(error) }
        let ownerID = ownerID, now = now, id = uuid()
        try await db.write { tx in
            let body = BodyRepository(db: tx, ownerID: ownerID)
            try await body.save(profile, now: now, uuid: id)
            if useComputedGoals { try await body.saveGoals(.computed, now: now) }
        }
        return profile
    }
}
