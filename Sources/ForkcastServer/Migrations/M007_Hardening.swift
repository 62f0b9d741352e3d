import Fluent
import SQLKit

/// Sessions that expire, token buckets for sign-in, known clients; drops the old per-email counter
/// and Fluent's never-expiring session table.
struct M007_Hardening: AsyncMigration {
    var name: String { "007_hardening" }

    func prepare(on database: any Database) async throws {
        try await database.schema(WebSessionModel.schema)
            .id()
            .field("key_hash", .string, .required)
            .field("data", .string, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "key_hash")
            .create()
        try await database.schema("login_buckets")
            .field("key", .string, .required)
            .field("tokens", .double, .required)
            .field("updated_at", .double, .required)
            .unique(on: "key")
            .create()
        try await database.schema(KnownClientModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("key_hash", .string, .required)
            .field("last_seen_at", .datetime, .required)
            .unique(on: "user_id", "key_hash")
            .create()
        try await database.schema("health_probe")
            .field("id", .int, .identifier(auto: false))
            .field("checked_at", .double, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.raw("CREATE INDEX IF NOT EXISTS web_sessions_expires ON web_sessions (expires_at)").run()
        try await sql.raw("CREATE INDEX IF NOT EXISTS api_tokens_expires ON api_tokens (expires_at)").run()
        try await database.schema("login_throttles").delete()
        try await database.schema("_fluent_sessions").delete()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("health_probe").delete()
        try await database.schema(KnownClientModel.schema).delete()
        try await database.schema("login_buckets").delete()
        try await database.schema(WebSessionModel.schema).delete()
        // What prepare dropped comes back, so the earlier migrations revert too.
        try await M004_CreateLoginThrottles().prepare(on: database)
        try await SessionRecord.migration.prepare(on: database).get()
    }
}
