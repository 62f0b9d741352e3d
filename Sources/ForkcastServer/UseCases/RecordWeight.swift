import Fluent
import ForkcastCore
import Foundation

/// Recording a weight: the one way a weighing is written, whether it comes from the API, the Goals
/// page or a synced device. It validates with ForkcastCore's ``BodyRules``, refuses a second weight
/// at the same instant (409) and writes the weight and its change-feed entry, at the request's time,
/// in one transaction.
struct RecordWeight {
    let ownerID: UUID
    let db: any Database
    /// The request's time: "now" for a weighing without a time, and the time of the change.
    let now: Date

    struct Input: Sendable {
        var measuredAt: Date?
        var weightKg: Decimal?
        var weightLb: Decimal?
    }

    /// Adds the weighing `id`; when `id` is already one of the person's weights (a synced device's
    /// edit) it is moved and changed in place.
    @discardableResult
    func callAsFunction(_ input: Input, id: UUID, source: String = "manual") async throws -> BodyRepository.Weight {
        let kg: Decimal, at: Date
        do {
            kg = try BodyRules.kilograms(kg: input.weightKg, lb: input.weightLb)
            at = try BodyRules.measuredAt(input.measuredAt, now: now)
        } catch { throw AppError.validation(error) }
        let ownerID = ownerID, now = now
        return try await db.write { tx in
            // Instants are compared to the millisecond (both databases keep at least that).
            let key = { (d: Date) in Int64((d.timeIntervalSince1970 * 1000).rounded()) }
            let sameInstant = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID)
                .filter(\.$measuredAt >= at.addingTimeInterval(-1)).filter(\.$measuredAt <= at.addingTimeInterval(1)).all()
                .filter { key($0.measuredAt) == key(at) && $0.id != id }
            guard sameInstant.isEmpty else {
                throw AppError.conflict("A weight is already recorded at \(ISO8601DateFormatter().string(from: at)).")
            }
            let model: WeightEntryModel
            if let existing = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() {
                existing.measuredAt = at
                existing.weightKg = kg.doubleValue
                try await existing.update(on: tx)
                model = existing
            } else {
                model = WeightEntryModel(id: id, ownerID: ownerID, measuredAt: at, weightKg: kg, source: source)
                try await model.create(on: tx)
            }
            try await SyncLog.record(.weight, [id], op: .upsert, owner: ownerID, on: tx, now: now)
            return BodyRepository.Weight(id: id, measuredAt: model.measuredAt, weightKg: kg, source: model.source)
        }
    }
}
