import ForkcastCore
import Foundation

/// Recording a weight: the one way a weighing is written, whether it comes from the API, the Goals
/// page or a synced device. It validates with ForkcastCore's ``BodyRules``, refuses a second weight
/// at the same instant (a ``Refusal/conflict(_:)``) and writes the weight and its change-feed row,
/// at the request's time, in one transaction.
public struct RecordWeight: Sendable {
    let store: any BodyStore
    /// The request's time: "now" for a weighing without a time, and the time of the change.
    let now: Date

    public init(store: any BodyStore, now: Date) {
        self.store = store
        self.now = now
    }

    /// The sources a weighing written on this server has: typed in, from the body profile, from
    /// an Apple Health import. A weighing recorded again after a delete (the Goals page's "Put it
    /// back") keeps one of these; any other (a synced device's own name) is recorded as typed in.
    public static func sourceRecordedAgain(_ sent: String?) -> String {
        let known = ["manual", "profile", ImportHealthData.source]
        return sent.flatMap { known.contains($0) ? $0 : nil } ?? "manual"
    }

    /// A weighing: when (now when absent), in kilograms or in pounds.
    public struct Input: Sendable, Hashable {
        public var measuredAt: Date?
        public var weightKg, weightLb: Decimal?

        public init(measuredAt: Date? = nil, weightKg: Decimal? = nil, weightLb: Decimal? = nil) {
            (self.measuredAt, self.weightKg, self.weightLb) = (measuredAt, weightKg, weightLb)
        }
    }

    /// Adds the weighing `id`; when `id` is already one of the person's weights (a synced device's
    /// edit) it is moved and changed in place. Throws ``ValidationError`` naming the bad field.
    @discardableResult
    public func callAsFunction(_ input: Input, id: UUID, source: String = "manual") async throws -> WeightEntry {
        let kg = try BodyRules.kilograms(kg: input.weightKg, lb: input.weightLb)
        let at = try BodyRules.measuredAt(input.measuredAt, now: now)
        let now = now
        return try await store.write { body in
            guard try await body.weights(at: at).allSatisfy({ $0.id == id }) else {
                throw Refusal.conflict("A weight is already recorded at \(ISO8601DateFormatter().string(from: at)).")
            }
            if var existing = try await body.weight(id) {
                existing.measuredAt = at
                existing.weightKg = kg
                _ = try await body.replaceWeight(existing, now: now)
                return existing
            }
            let weight = WeightEntry(id: id, measuredAt: at, weightKg: kg, source: source)
            try await body.insertWeight(weight, now: now)
            return weight
        }
    }
}
