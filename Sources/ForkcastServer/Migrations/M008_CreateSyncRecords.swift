import Fluent
import SQLKit

/// The change feed (one row per synced record: its version and last change number), idempotent
/// push results, and the records that existed before sync, entered as changes 1…n of each user.
struct M008_CreateSyncRecords: AsyncMigration {
    var name: String { "008_create_sync_records" }

    func prepare(on database: any Database) async throws {
        try await database.schema(SyncLog.table)
            .field("owner_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("record_id", .uuid, .required)
            .field("seq", .int64, .required)
            .field("op", .string, .required)
            .field("updated_at", .double, .required)
            .field("device_id", .string, .required)
            .field("mutation_id", .string, .required)
            .field("changed_at", .double, .required)
            .unique(on: "owner_id", "kind", "record_id")
            .create()
        try await database.schema("sync_mutations")
            .field("owner_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("device_id", .string, .required)
            .field("mutation_id", .string, .required)
            .field("result", .string, .required)
            .field("created_at", .double, .required)
            .unique(on: "owner_id", "device_id", "mutation_id")
            .create()
        try await database.schema("sync_horizons")
            .field("owner_id", .uuid, .identifier(auto: false), .references(UserModel.schema, "id", onDelete: .cascade))
            .field("pruned_seq", .int64, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.raw("CREATE INDEX sync_records_feed ON sync_records (owner_id, seq)").run()
        try await sql.raw("""
            INSERT INTO sync_records (owner_id, kind, record_id, seq, op, updated_at, device_id, mutation_id, changed_at)
            SELECT owner_id, kind, record_id, ROW_NUMBER() OVER (PARTITION BY owner_id ORDER BY kind, record_id), 'upsert', 0, 'server', '', 0
            FROM (
              SELECT user_id AS owner_id, 'meal' AS kind, id AS record_id FROM meals
              UNION ALL SELECT user_id, 'assignment', id FROM assignments
              UNION ALL SELECT user_id, 'food', id FROM foods
              UNION ALL SELECT user_id, 'diaryEntry', id FROM diary_entries
              UNION ALL SELECT user_id, 'weight', id FROM weight_entries
              UNION ALL SELECT user_id, 'goals', user_id FROM goal_settings
              UNION ALL SELECT user_id, 'bodyProfile', user_id FROM body_profiles
              UNION ALL SELECT id, 'settings', id FROM users
            ) AS existing
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("sync_horizons").delete()
        try await database.schema("sync_mutations").delete()
        try await database.schema(SyncLog.table).delete()
    }
}
