import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// The diary of one owner.
struct DiaryRepository {
    let db: any Database
    let ownerID: UUID
    let photoStore: any PhotoStore

    func entries(on date: CalendarDate) async throws -> [DiaryEntry] {
        try await entries(from: date, to: date)
    }

    func entries(from: CalendarDate, to: CalendarDate) async throws -> [DiaryEntry] {
        try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID)
            .filter(\.$localDate >= from.iso).filter(\.$localDate <= to.iso)
            .sort(\.$localDate).sort(\.$loggedAt).all().map(\.domain)
    }

    func find(_ id: UUID) async throws -> DiaryEntry? {
        try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == id).first()?.domain
    }

    func create(_ entries: [DiaryEntry], now: Date) async throws {
        guard !entries.isEmpty else { return }
        let models = entries.map { DiaryEntryModel($0, ownerID: ownerID, now: now) }
        // Requests logging at once share one writer (SQLite; not inside another write or a push).
        if WriteContext.current == nil, SyncOrigin.current == nil, let gate = WriteGate.current, let queue = gate.diaryEntries,
           (db as? any SQLDatabase)?.dialect.name == "sqlite" {
            return try await queue.insert(models, owner: ownerID, at: now, on: db, gate: gate)
        }
        try await db.write { tx in
            try await models.insert(on: tx)
            try await SyncLog.record(.diaryEntry, entries.map(\.id), op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }

    /// The entry showing a photo, if any.
    func entry(showingPhoto photoId: UUID) async throws -> UUID? {
        try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$photoID == photoId).first()?.id
    }

    func update(_ entry: DiaryEntry, now: Date, deletingPhoto replaced: UUID? = nil) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await DiaryEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == entry.id).first() else {
                return false
            }
            model.apply(entry, now: now)
            try await model.update(on: tx)
            try await SyncLog.record(.diaryEntry, [entry.id], op: .upsert, owner: ownerID, on: tx, now: now)
            if let replaced { try await PhotoRepository(db: tx, ownerID: ownerID, store: photoStore).delete([replaced], on: tx, now: now) }
            return true
        }
    }

    /// Deletes an entry and the photo it shows.
    func delete(_ id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await DiaryEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else {
                return false
            }
            try await model.delete(on: tx)
            try await SyncLog.record(.diaryEntry, [id], op: .delete, owner: ownerID, on: tx, now: now)
            if let photo = model.photoID { try await PhotoRepository(db: tx, ownerID: ownerID, store: photoStore).delete([photo], on: tx, now: now) }
            return true
        }
    }

    /// The foods logged lately, for the plate: the most recent first, then the most frequent over
    /// the last 90 days (distinct, at most `limit`).
    func usualFoods(now: Date, limit: Int = 6) async throws -> [UUID] {
        let sql = db as! any SQLDatabase
        let since = now.addingTimeInterval(-90 * 24 * 3600)
        let rows = try await sql.raw("""
            SELECT food_id, COUNT(*) AS n, MAX(logged_at) AS last FROM diary_entries
            WHERE user_id = \(bind: ownerID) AND kind = 'food' AND food_id IS NOT NULL AND logged_at >= \(bind: since)
            GROUP BY food_id
            """).all()
        struct Use { let id: UUID; let count: Int; let last: Double }
        let uses = rows.compactMap { row -> Use? in
            guard let id = try? row.decode(column: "food_id", as: UUID.self), let n = try? row.decode(column: "n", as: Int.self) else { return nil }
            let last = (try? row.decode(column: "last", as: Date.self))?.timeIntervalSince1970 ?? (try? row.decode(column: "last", as: Double.self)) ?? 0
            return Use(id: id, count: n, last: last)
        }
        let recent = uses.sorted { ($0.last, $0.id.uuidString) > ($1.last, $1.id.uuidString) }.prefix(limit / 2).map(\.id)
        let frequent = uses.sorted { ($0.count, $0.last) > ($1.count, $1.last) }.map(\.id)
        var seen = Set<UUID>()
        return (recent + frequent).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }

    struct DayTotals: Sendable {
        var date: CalendarDate
        var nutrients: Nutrients
        var cost: Decimal?
        var entries: Int
    }

    /// Totals per day over a range (for charts), added up by ForkcastCore's rule like a day's
    /// totals, so a chart and the day it stands for always agree.
    func dailyTotals(from: CalendarDate, to: CalendarDate) async throws -> [DayTotals] {
        Dictionary(grouping: try await entries(from: from, to: to), by: \.date).map { date, entries in
            DayTotals(date: date, nutrients: DiaryDay.total(of: entries), cost: DiaryDay.cost(of: entries), entries: entries.count)
        }.sorted { $0.date < $1.date }
    }
}

/// Body profile, goals and weight entries of one owner.
struct BodyRepository {
    let db: any Database
    let ownerID: UUID

    func profile() async throws -> BodyProfile? {
        guard let profile = try await BodyProfileModel.query(on: db).filter(\.$ownerID == ownerID).first()?.domain else { return nil }
        return profile.following(latestWeight: try await latestWeight()?.weightKg)
    }

    func save(_ profile: BodyProfile, now: Date, uuid: UUID) async throws {
        try await db.write { tx in
            let model = try await BodyProfileModel.query(on: tx).filter(\.$ownerID == ownerID).first() ?? {
                let m = BodyProfileModel()
                m.ownerID = ownerID
                return m
            }()
            model.apply(profile, now: now)
            try await model.save(on: tx)
            try await SyncLog.record(.bodyProfile, [ownerID], op: .upsert, owner: ownerID, on: tx, now: now)
            // A new weight in the profile is also a weight entry (so goals follow it).
            let latest = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID).sort(\.$measuredAt, .descending).first()
            guard latest.map({ Decimal(shortest: $0.weightKg) != profile.weightKg }) ?? true else { return }
            if let same = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$measuredAt == now).first() {
                same.weightKg = profile.weightKg.doubleValue
                try await same.update(on: tx)
                try await SyncLog.record(.weight, [try same.requireID()], op: .upsert, owner: ownerID, on: tx, now: now)
            } else {
                try await WeightEntryModel(id: uuid, ownerID: ownerID, measuredAt: now, weightKg: profile.weightKg, source: "profile").create(on: tx)
                try await SyncLog.record(.weight, [uuid], op: .upsert, owner: ownerID, on: tx, now: now)
            }
        }
    }

    /// Updates the fields an import found, keeping the others (or creating a profile when all are known).
    func merge(sex: Sex?, birthDate: CalendarDate?, heightCm: Decimal?, now: Date) async throws {
        try await db.write { tx in
            let repository = BodyRepository(db: tx, ownerID: ownerID)
            if let model = try await BodyProfileModel.query(on: tx).filter(\.$ownerID == ownerID).first() {
                if let sex { model.sex = sex.rawValue }
                if let birthDate { model.birthDate = birthDate.iso }
                if let heightCm { model.heightCm = heightCm.doubleValue }
                model.updatedAt = now
                try await model.update(on: tx)
            } else if let sex, let birthDate, let heightCm, let weight = try await repository.latestWeight() {
                let model = BodyProfileModel()
                model.ownerID = ownerID
                model.apply(BodyProfile(sex: sex, birthDate: birthDate, heightCm: heightCm, weightKg: weight.weightKg,
                                        activityLevel: .light, aim: .maintain), now: now)
                try await model.create(on: tx)
            } else {
                return
            }
            try await SyncLog.record(.bodyProfile, [ownerID], op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }

    struct Weight: Sendable { var id: UUID; var measuredAt: Date; var weightKg: Decimal; var source: String }

    func weights(from: Date? = nil, to: Date? = nil) async throws -> [Weight] {
        var q = WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID)
        if let from { q = q.filter(\.$measuredAt >= from) }
        if let to { q = q.filter(\.$measuredAt <= to) }
        return try await q.sort(\.$measuredAt).all().map { Weight(id: $0.id!, measuredAt: $0.measuredAt, weightKg: Decimal(shortest: $0.weightKg), source: $0.source) }
    }

    /// A page of weights, newest first, and how many there are.
    func weights(page: Paging) async throws -> (items: [Weight], total: Int) {
        let q = WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID)
        let total = try await q.count()
        guard total > page.offset else { return ([], total) }
        let items = try await q.sort(\.$measuredAt, .descending).range(page.offset..<(page.offset + page.per)).all()
            .map { Weight(id: $0.id!, measuredAt: $0.measuredAt, weightKg: Decimal(shortest: $0.weightKg), source: $0.source) }
        return (items, total)
    }

    func latestWeight() async throws -> Weight? {
        try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID).sort(\.$measuredAt, .descending).first()
            .map { Weight(id: $0.id!, measuredAt: $0.measuredAt, weightKg: Decimal(shortest: $0.weightKg), source: $0.source) }
    }

    /// Adds weights, skipping instants already recorded; returns how many were new.
    @discardableResult
    func addWeights(_ weights: [(Date, Decimal)], source: String, ids: [Date: UUID]? = nil, now: Date = Date()) async throws -> Int {
        guard !weights.isEmpty else { return 0 }
        // Instants compared to the millisecond (both databases keep at least that).
        func key(_ d: Date) -> Int64 { Int64((d.timeIntervalSince1970 * 1000).rounded()) }
        let instants = weights.map(\.0)
        let existing = Set(try await WeightEntryModel.query(on: db).filter(\.$ownerID == ownerID)
            .filter(\.$measuredAt >= instants.min()!.addingTimeInterval(-1)).filter(\.$measuredAt <= instants.max()!.addingTimeInterval(1))
            .all().map { key($0.measuredAt) })
        var seen = existing
        let fresh = weights.filter { seen.insert(key($0.0)).inserted }
        for chunk in stride(from: 0, to: fresh.count, by: 500).map({ Array(fresh[$0..<min($0 + 500, fresh.count)]) }) {
            try await db.write { tx in
                let models = chunk.map { WeightEntryModel(id: ids?[$0.0] ?? UUID(), ownerID: ownerID, measuredAt: $0.0, weightKg: $0.1, source: source) }
                try await models.create(on: tx)
                try await SyncLog.record(.weight, models.compactMap(\.id), op: .upsert, owner: ownerID, on: tx, now: now)
            }
        }
        return fresh.count
    }

    func deleteWeight(_ id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await WeightEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else { return false }
            try await model.delete(on: tx)
            try await SyncLog.record(.weight, [id], op: .delete, owner: ownerID, on: tx, now: now)
            return true
        }
    }

    /// The goals in force: manual ones, computed ones from the profile, or seed 001's defaults.
    func goals(today: CalendarDate) async throws -> (goals: Goals, calculation: GoalCalculation?) {
        let setting = try await GoalSettingModel.query(on: db).filter(\.$ownerID == ownerID).first()
        if setting?.source == "computed", let profile = try await profile() {
            let calculation = GoalCalculation(profile: profile, today: today)
            return (calculation.goals, calculation)
        }
        guard let setting, setting.source == "manual" else { return (.defaults, nil) }
        return (Goals(energyKcal: Decimal(shortest: setting.energyKcal), protein: Decimal(shortest: setting.protein),
                      carbohydrates: Decimal(shortest: setting.carbohydrates), fat: Decimal(shortest: setting.fat)), nil)
    }

    /// The goals as stored (nil when the person never set any: the defaults apply).
    func storedGoals() async throws -> Goals? {
        guard let setting = try await GoalSettingModel.query(on: db).filter(\.$ownerID == ownerID).first() else { return nil }
        return Goals(energyKcal: Decimal(shortest: setting.energyKcal), protein: Decimal(shortest: setting.protein),
                     carbohydrates: Decimal(shortest: setting.carbohydrates), fat: Decimal(shortest: setting.fat),
                     source: Goals.Source(rawValue: setting.source) ?? .manual)
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
        model.updatedAt = now
        try await db.write { tx in
            try await model.save(on: tx)
            try await SyncLog.record(.goals, [ownerID], op: .upsert, owner: ownerID, on: tx, now: now)
        }
    }
}

