import Fluent
import SQLKit

/// Keys for other programs: only a SHA-256 of each key is kept (`token_hash`, unique).
struct M029_APIKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(APIKeyModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("name", .string, .required)
            .field("access", .string, .required)
            .field("areas", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await (database as! any SQLDatabase).create(index: "api_keys_owner").on(APIKeyModel.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(APIKeyModel.schema).delete()
    }
}
