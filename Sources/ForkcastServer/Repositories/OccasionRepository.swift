import Fluent
import ForkcastContract
import ForkcastCore
import Foundation
import SQLKit

/// Meal-first history (seed 004 §7): occasions are derived from the diary, never stored apart, so
/// one is created with its first entry and gone with its last.
struct OccasionRepository {
    let db: any Database
    let ownerID: UUID

    static let maximumLimit = OccasionQuery.maximumLimit

    /// Newest first, on days before `before` (or up to and including `through`).
    func list(before: CalendarDate? = nil, through: CalendarDate? = nil, limit: Int) async throws -> [OccasionSummary] {
        let sql = db as! any SQLDatabase
        var query = sql.select().distinct().column("local_date").from(DiaryEntryModel.schema).where("user_id", .equal, ownerID)
        if let before { query = query.where("local_date", .lessThan, before.iso) }
        if let through { query = query.where("local_date", .lessThanOrEqual, through.iso) }
        let days = try await query.orderBy("local_date", .descending).limit(limit).all().compactMap { try? $0.decode(column: "local_date", as: String.self) }
        guard let oldest = days.last, let newest = days.first else { return [] }
        let entries = try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID)
            .filter(\.$localDate >= oldest).filter(\.$localDate <= newest).all().map(\.domain)
        return OccasionSummary.page(OccasionSummary.group(entries, owner: ownerID), limit: limit)
    }

    func find(_ id: UUID) async throws -> OccasionSummary? {
        let entries = try await DiaryEntryModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$occasionID == id).all().map(\.domain)
        return OccasionSummary.group(entries, owner: ownerID).first
    }
}
