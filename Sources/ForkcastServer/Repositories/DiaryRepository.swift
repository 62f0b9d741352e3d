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

    /// The owner's entries among `ids` (others' and missing ones are absent).
    func find(ids: [UUID]) async throws -> [DiaryEntry] {
        guard !ids.isEmpty else { return [] }
        return try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ Set(ids)).all().map(\.domain)
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

    /// Deletes an entry and the photo it shows; the entry deleted, nil when there was none.
    func delete(_ id: UUID, now: Date) async throws -> DiaryEntry? {
        try await db.write { tx in
            guard let model = try await DiaryEntryModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else {
                return nil
            }
            try await model.delete(on: tx)
            try await SyncLog.record(.diaryEntry, [id], op: .delete, owner: ownerID, on: tx, now: now)
            if let photo = model.photoID { try await PhotoRepository(db: tx, ownerID: ownerID, store: photoStore).delete([photo], on: tx, now: now) }
            return model.domain
        }
    }

    /// The foods logged lately, for the plate's meal type, ranked by ForkcastCore's ``UsualFoods``:
    /// this only counts each food's logging per meal type in the window.
    func usualFoods(for mealType: String, now: Date, limit: Int) async throws -> [UUID] {
        let sql = db as! any SQLDatabase
        let rows = try await sql.raw("""
            SELECT food_id, meal_type, COUNT(*) AS n, MAX(logged_at) AS last FROM diary_entries
            WHERE user_id = \(bind: ownerID) AND kind = 'food' AND food_id IS NOT NULL AND logged_at >= \(bind: now.addingTimeInterval(-UsualFoods.window))
            GROUP BY food_id, meal_type
            """).all()
        let uses = rows.compactMap { row -> UsualFoods.Use? in
            guard let id = try? row.decode(column: "food_id", as: UUID.self), let n = try? row.decode(column: "n", as: Int.self) else { return nil }
            // MAX() of a timestamp comes back as a date on PostgreSQL and as a number on SQLite.
            let last = (try? row.decode(column: "last", as: Date.self)) ?? Date(timeIntervalSince1970: (try? row.decode(column: "last", as: Double.self)) ?? 0)
            return UsualFoods.Use(foodID: id, count: n, last: last, mealType: try? row.decode(column: "meal_type", as: String.self))
        }
        return UsualFoods.rank(uses, for: mealType, limit: limit)
    }

    /// The amount each of `ids` was last logged in (within ``UsualFoods/window``): the chips put
    /// what the person last ate, not the food's serving.
    func lastPortions(of ids: [UUID], now: Date) async throws -> [UUID: (quantity: Decimal, unit: QuantityUnit)] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$kind == "food")
            .filter(\.$foodID ~~ Set(ids)).filter(\.$loggedAt >= now.addingTimeInterval(-UsualFoods.window))
            .sort(\.$loggedAt, .descending).field(\.$foodID).field(\.$quantity).field(\.$unit).field(\.$loggedAt).all()
        var last: [UUID: (quantity: Decimal, unit: QuantityUnit)] = [:]
        for row in rows {
            guard let id = row.foodID, last[id] == nil, let q = row.quantity, let unit = row.unit.flatMap(QuantityUnit.init(rawValue:)) else { continue }
            last[id] = (Decimal(q).rounded(2), unit)
        }
        return last
    }

    struct DayTotals: Sendable {
        var date: CalendarDate
        var nutrients: Nutrients
        var cost: Decimal?
        var entries: Int
        /// Per nutrient, the counted entries that do not know it.
        var missing: [Nutrient: Int] = [:]
    }

    /// Totals per day over a range (for charts), added up by ForkcastCore's rule like a day's
    /// totals, so a chart and the day it stands for always agree.
    func dailyTotals(from: CalendarDate, to: CalendarDate) async throws -> [DayTotals] {
        Self.dailyTotals(of: try await entries(from: from, to: to))
    }

    /// Totals per day of `entries`.
    static func dailyTotals(of entries: [DiaryEntry]) -> [DayTotals] {
        Dictionary(grouping: entries, by: \.date).map { date, entries in
            DayTotals(date: date, nutrients: DiaryDay.total(of: entries), cost: DiaryDay.cost(of: entries), entries: entries.count,
                      missing: NutrientTotals.of(entries.filter(\.isCounted).map(\.nutrients)).unknown)
        }.sorted { $0.date < $1.date }
    }
}
