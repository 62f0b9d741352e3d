import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// Body profile, goals and weight entries of one owner.
struct BodyRepository: BodyRecords {
    let db: any Database
    let ownerID: UUID

    func profile() async throws -> BodyProfile? {
        guard let profile = try await BodyProfileModel.query(on: db).filter(\.$ownerID == ownerID).first()?.domain else { return nil }
        return profile.following(latestWeight: try await latestWeight()?.weightKg)
    }

    /// Stores the profile with its change-feed row. The rules (and the weighing a new weight in it
    /// makes) are ``SaveBodyProfile``'s.
    func saveProfile(_ profile: BodyProfile, now: Date) async throws {
        try await db.write { tx in
            let model = try await BodyProfileModel.query(on: tx).filter(\.$ownerID == ownerID).first() ?? {
                let m = BodyProfileModel()
                m.ownerID = ownerID
                return m
            }()
            model.apply(profile, now: now)
            try await model.save(on: tx)
            try await SyncLog.record(.bodyProfile, [ownerID], op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }

    func weight(_ id: UUID) async throws -> WeightEntry? {
        try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == id).first().map(Self.weight)
    }

    /// The owner's weighings among `ids` (others' and missing ones are absent).
    func weights(ids: [UUID]) async throws -> [WeightEntry] {
        guard !ids.isEmpty else { return [] }
        return try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ Set(ids)).all().map(Self.weight)
    }

    func weights(at instant: Date) async throws -> [WeightEntry] {
        try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID)
            .filter(\.$measuredAt >= instant.addingTimeInterval(-1)).filter(\.$measuredAt <= instant.addingTimeInterval(1)).all()
            .filter { WeightEntry.sameInstant($0.measuredAt, instant) }.map(Self.weight)
    }

    /// Stores a weighing with its change-feed row. The rules are ``RecordWeight``'s.
    func insertWeight(_ weight: WeightEntry, now: Date) async throws {
        try await db.write { tx in
            try await WeightEntryModel(id: weight.id, ownerID: ownerID, measuredAt: weight.measuredAt, weightKg: weight.weightKg, source: weight.source)
                .create(on: tx)
            try await SyncLog.record(.weight, [weight.id], op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }

    func replaceWeight(_ weight: WeightEntry, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == weight.id).first() else {
                return false
            }
            model.measuredAt = weight.measuredAt
            model.weightKg = weight.weightKg.doubleValue
            try await model.update(on: tx)
            try await SyncLog.record(.weight, [weight.id], op: .upsert, owner: ownerID, on: tx, now: now)
            return true
        }
    }

    private static func weight(_ model: WeightEntryModel) -> WeightEntry {
        WeightEntry(id: model.id!, measuredAt: model.measuredAt, weightKg: Decimal(shortest: model.weightKg), source: model.source)
    }

    func weights(from: Date? = nil, to: Date? = nil) async throws -> [WeightEntry] {
        var q = WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID)
        if let from { q = q.filter(\.$measuredAt >= from) }
        if let to { q = q.filter(\.$measuredAt < to) }
        return try await q.sort(\.$measuredAt).all().map(Self.weight)
    }

    /// A page of weights, newest first, and how many there are.
    func weights(page: Paging) async throws -> (items: [WeightEntry], total: Int) {
        let q = WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID)
        let total = try await q.count()
        guard total > page.offset else { return ([], total) }
        let items = try await q.sort(\.$measuredAt, .descending).range(page.offset..<(page.offset + page.per)).all()
            .map(Self.weight)
        return (items, total)
    }

    func latestWeight() async throws -> WeightEntry? {
        try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID).sort(\.$measuredAt, .descending).first()
            .map(Self.weight)
    }

    /// Stores weighings with their change-feed rows, in one statement each. The rules are the use
    /// cases' (``ImportHealthData``, the account import).
    func insertWeights(_ weights: [WeightEntry], now: Date) async throws {
        guard !weights.isEmpty else { return }
        try await db.write { tx in
            try await weights.map { WeightEntryModel(id: $0.id, ownerID: ownerID, measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: $0.source) }
                .create(on: tx)
            try await SyncLog.record(.weight, weights.map(\.id), op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }

    func deleteWeight(_ id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else { return false }
            try await model.delete(on: tx)
            try await SyncLog.record(.weight, [id], op: .delete, owner: ownerID, on: tx, now: now)
            return true
        }
    }

    /// The goals in force (ForkcastCore's ``Goals/inForce(stored:profile:today:)``).
    func goals(today: CalendarDate) async throws -> (goals: Goals, calculation: GoalCalculation?) {
        let stored = try await storedGoals()
        // The profile also sets the nutrient targets (reference intakes for sex and age), whichever goals apply.
        return Goals.inForce(stored: stored, profile: try await profile(), today: today)
    }

    /// The goals as stored (nil when the person never set any: the defaults apply).
    func storedGoals() async throws -> Goals? {
        guard let setting = try await GoalSettingModel.query(on: db).filter(\.$ownerID == ownerID).first() else { return nil }
        return Goals(energyKcal: Decimal(shortest: setting.energyKcal), protein: Decimal(shortest: setting.protein),
                     carbohydrates: Decimal(shortest: setting.carbohydrates), fat: Decimal(shortest: setting.fat),
                     source: Goals.Source(rawValue: setting.source) ?? .manual, targets: setting.storedTargets)
    }

    func saveGoals(_ goals: Goals, now: Date) async throws {
        let model = try await GoalSettingModel.query(on: db).filter(\.$ownerID == ownerID).first() ?? {
            let m = GoalSettingModel()
            m.ownerID = ownerID
            return m
        }()
        model.source = goals.source.rawValue
        model.energyKcal = goals.energyKcal.doubleValue
        model.protein = goals.protein.doubleValue
        model.carbohydrates = goals.carbohydrates.doubleValue
        model.fat = goals.fat.doubleValue
        model.targets = NutrientText.encode(Nutrients(goals.targets), except: [])
        model.updatedAt = now
        try await db.write { tx in
            try await model.save(on: tx)
            try await SyncLog.record(.goals, [ownerID], op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }
}
