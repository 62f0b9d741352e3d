import Fluent
import SQLKit

/// Diary links: read-only links to part of a person's diary for a coach. Only a SHA-256 of the
/// link's token is kept (`token_hash`, unique).
struct M022_DiaryLinks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DiaryLinkModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("from_date", .string, .required)
            .field("to_date", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("shows", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await (database as! any SQLDatabase).create(index: "diary_links_owner").on(DiaryLinkModel.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(DiaryLinkModel.schema).delete()
    }
}
