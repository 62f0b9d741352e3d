import Fluent
import SQLKit

/// Calendar feeds: secret addresses a calendar app subscribes to. Only a SHA-256 of the token is
/// kept (`token_hash`, unique).
struct M028_CalendarFeeds: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CalendarFeedModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("scope", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await (database as! any SQLDatabase).create(index: "calendar_feeds_owner").on(CalendarFeedModel.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CalendarFeedModel.schema).delete()
    }
}
