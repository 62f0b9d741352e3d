import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// Seed 004: editable meal types (every existing person gets the defaults), each diary entry's
/// occasion id (filled in for existing entries) and photo, and photos with their bytes.
struct M010_MealOccasions: AsyncMigration {
    var name: String { "010_meal_occasions" }

    func prepare(on database: any Database) async throws {
        try await database.schema(MealTypeModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("key", .string)
            .field("display_name", .string, .required)
            .field("name_key", .string, .required)
            .field("window_start", .int)
            .field("window_end", .int)
            .field("position", .int, .required)
            .field("hidden", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "name_key")
            .create()
        try await database.schema(PhotoModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("format", .string, .required)
            .field("width", .int, .required)
            .field("height", .int, .required)
            .field("byte_size", .int, .required)
            .field("thumbnail_size", .int, .required)
            .field("captured_at", .datetime, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(PhotoBlobModel.schema)
            .id()
            .field("photo_id", .uuid, .required, .references(PhotoModel.schema, "id", onDelete: .cascade))
            .field("variant", .string, .required)
            .field("data", .data, .required)
            .unique(on: "photo_id", "variant")
            .create()
        try await database.schema(DiaryEntryModel.schema).field("occasion_id", .uuid).update()
        try await database.schema(DiaryEntryModel.schema).field("photo_id", .uuid).update()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "diary_owner_occasion").on(DiaryEntryModel.schema).column("user_id").column("occasion_id").run()
        try await sql.create(index: "photos_owner").on(PhotoModel.schema).column("user_id").run()

        try await database.transaction { tx in
            let now = Date()
            for user in try await UserModel.query(on: tx).all() {
                let id = try user.requireID()
                try await MealTypeCatalog.defaults(owner: id, now: now).all.map { MealTypeModel($0, ownerID: id) }.create(on: tx)
                // Recorded in the feed as the feed was kept when this migration was written
                // (numbered after the owner's head; M018's row per owner comes later and is
                // filled from these), not through today's SyncLog, whose tables may not exist yet.
                let changes = MealTypeCatalog.defaults(owner: id, now: now).all.enumerated().map { offset, type in
                    SQLGroupExpression([SQLBind(id), SQLBind(SyncKind.mealType.rawValue), SQLBind(type.id), SQLBind(Int64(offset + 1)),
                                        SQLBind(SyncOp.upsert.rawValue), SQLBind(now.timeIntervalSince1970), SQLBind(SyncMerge.serverDeviceId),
                                        SQLBind(""), SQLBind(now.timeIntervalSince1970)])
                }
                try await (tx as! any SQLDatabase).raw("""
                    INSERT INTO sync_records (owner_id, kind, record_id, seq, op, updated_at, device_id, mutation_id, changed_at)
                    SELECT v.owner_id, v.kind, v.record_id, h.seq + v.n, v.op, v.updated_at, v.device_id, v.mutation_id, v.changed_at
                    FROM (VALUES \(SQLList(changes))) AS v (owner_id, kind, record_id, n, op, updated_at, device_id, mutation_id, changed_at),
                      (SELECT COALESCE(MAX(heads.seq), 0) AS seq FROM (
                        SELECT MAX(seq) AS seq FROM sync_records WHERE owner_id = \(bind: id)
                        UNION ALL SELECT MAX(pruned_seq) FROM sync_horizons WHERE owner_id = \(bind: id)) heads) AS h
                    WHERE true
                    """).run()
            }
            // Every existing entry's occasion, in batches (the columns by name: the model has grown
            // columns that later migrations add).
            let sql = tx as! any SQLDatabase
            var offset = 0
            while true {
                let rows = try await sql.raw("SELECT id, user_id, local_date, meal_type FROM diary_entries ORDER BY id LIMIT 500 OFFSET \(bind: offset)").all()
                if rows.isEmpty { break }
                for row in rows {
                    let owner = try row.decode(column: "user_id", as: UUID.self)
                    let occasion = Occasion.id(owner: owner, date: CalendarDate(stored: try row.decode(column: "local_date", as: String.self)),
                                               mealType: try row.decode(column: "meal_type", as: String.self))
                    try await sql.raw("UPDATE diary_entries SET occasion_id = \(bind: occasion) WHERE id = \(bind: try row.decode(column: "id", as: UUID.self))").run()
                }
                offset += rows.count
            }
        }
    }

    func revert(on database: any Database) async throws {
        // SQLite drops no column an index still names.
        try await (database as! any SQLDatabase).drop(index: "diary_owner_occasion").run()
        try await database.schema(DiaryEntryModel.schema).deleteField("occasion_id").update()
        try await database.schema(DiaryEntryModel.schema).deleteField("photo_id").update()
        try await database.schema(PhotoBlobModel.schema).delete()
        try await database.schema(PhotoModel.schema).delete()
        try await database.schema(MealTypeModel.schema).delete()
    }
}
