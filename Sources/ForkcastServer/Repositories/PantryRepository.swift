import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// The household's pantry on the server's database. Writes store each lot with its change-feed
/// row; the rules are ForkcastApp's pantry use cases'.
struct PantryRepository: PantryRecords {
    let db: any Database
    let kitchen: Kitchen

    func items() async throws -> [PantryItem] {
        try await PantryItemModel.query(on: db).filter(kitchen).all().map(\.domain)
    }

    func count() async throws -> Int {
        try await PantryItemModel.query(on: db).filter(kitchen).count()
    }

    func item(_ id: UUID) async throws -> PantryItem? {
        try await PantryItemModel.query(on: db).filter(kitchen).filter(\.$id == id).first()?.domain
    }

    func items(of foodIDs: [UUID]) async throws -> [PantryItem] {
        guard !foodIDs.isEmpty else { return [] }
        return try await PantryItemModel.query(on: db).filter(kitchen).filter(\.$foodID ~~ foodIDs).all().map(\.domain)
    }

    func items(ids: [UUID]) async throws -> [PantryItem] {
        guard !ids.isEmpty else { return [] }
        return try await PantryItemModel.query(on: db).filter(kitchen).filter(\.$id ~~ ids).all().map(\.domain)
    }

    func insert(_ item: PantryItem, now: Date) async throws {
        try await db.write { tx in
            try await PantryItemModel(item, ownerID: kitchen.user).create(on: tx)
            try await kitchen.record(.pantryItem, [item.id], op: .upsert, on: tx, now: now)
        }
    }

    func replace(_ item: PantryItem, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await PantryItemModel.query(on: tx).filter(kitchen).filter(\.$id == item.id).first() else { return false }
            model.apply(item)
            try await model.save(on: tx)
            try await kitchen.record(.pantryItem, [item.id], op: .upsert, on: tx, now: now)
            return true
        }
    }

    func delete(_ ids: [UUID], now: Date) async throws {
        guard !ids.isEmpty else { return }
        try await db.write { tx in
            let mine = try await PantryItemModel.query(on: tx).filter(kitchen).filter(\.$id ~~ ids).field(\.$id).all().compactMap(\.id)
            guard !mine.isEmpty else { return }
            try await PantryItemModel.query(on: tx).filter(\.$id ~~ mine).delete()
            try await kitchen.record(.pantryItem, mine, op: .delete, on: tx, now: now)
        }
    }

    func record(_ use: PantryUse) async throws {
        try await PantryUseModel(use, id: UUID(), ownerID: kitchen.user).create(on: db)
    }

    func markCooked(_ assignmentID: UUID, now: Date) async throws -> Bool {
        let sql = db as! any SQLDatabase
        // One row per entry: a second cook finds it and takes nothing (on either engine).
        let rows = try await sql.raw("""
            INSERT INTO pantry_cooked (id, user_id, cooked_at) VALUES (\(bind: assignmentID), \(bind: kitchen.user), \(bind: now))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """).all()
        return !rows.isEmpty
    }

    func uses(since: Date) async throws -> [PantryUse] {
        try await PantryUseModel.query(on: db).filter(kitchen).filter(\.$usedAt >= since).sort(\.$usedAt).all().map(\.domain)
    }
}
