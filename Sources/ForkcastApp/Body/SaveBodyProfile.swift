import ForkcastCore
import Foundation

/// Saving the body profile, from the API, the Goals page or a synced device. A weight in the profile
/// other than the newest weighing is also a weighing, at the request's time, so goals follow it.
/// The goals stay as they are (manual goals are kept) unless the person also asks for computed
/// goals, which is then part of the same transaction.
public struct SaveBodyProfile: Sendable {
    let store: any BodyStore
    let now: Date
    /// Today in the person's time zone (their age is counted to it).
    let today: CalendarDate
    let uuid: @Sendable () -> UUID

    public init(store: any BodyStore, now: Date, today: CalendarDate, uuid: @escaping @Sendable () -> UUID) {
        self.store = store
        self.now = now
        self.today = today
        self.uuid = uuid
    }

    /// Metric fields, or imperial ones (heightFt/heightIn, weightLb), as typed or sent.
    public struct Input: Sendable, Hashable {
        public var sex: String
        public var birthDate: CalendarDate
        public var heightCm, heightFt, heightIn, weightKg, weightLb: Decimal?
        public var activityLevel: String
        public var aim: String

        public init(sex: String, birthDate: CalendarDate, heightCm: Decimal? = nil, heightFt: Decimal? = nil, heightIn: Decimal? = nil,
                    weightKg: Decimal? = nil, weightLb: Decimal? = nil, activityLevel: String, aim: String) {
            (self.sex, self.birthDate, self.activityLevel, self.aim) = (sex, birthDate, activityLevel, aim)
            (self.heightCm, self.heightFt, self.heightIn, self.weightKg, self.weightLb) = (heightCm, heightFt, heightIn, weightKg, weightLb)
        }
    }

    /// Throws ``ValidationError`` naming each bad field.
    @discardableResult
    public func callAsFunction(_ input: Input, useComputedGoals: Bool = false) async throws -> BodyProfile {
        let profile = try BodyRules.profile(sex: input.sex, birthDate: input.birthDate, heightCm: input.heightCm, heightFt: input.heightFt,
                                            heightIn: input.heightIn, weightKg: input.weightKg, weightLb: input.weightLb,
                                            activityLevel: input.activityLevel, aim: input.aim, today: today)
        let now = now, id = uuid()
        try await store.write { body in
            try await body.saveProfile(profile, now: now)
            if try await body.latestWeight()?.weightKg != profile.weightKg {
                if var same = try await body.weights(at: now).first {
                    same.weightKg = profile.weightKg
                    _ = try await body.replaceWeight(same, now: now)
                } else {
                    try await body.insertWeight(WeightEntry(id: id, measuredAt: now, weightKg: profile.weightKg, source: "profile"), now: now)
                }
            }
            if useComputedGoals { try await body.saveGoals(.computed, now: now) }
        }
        return profile
    }
}
