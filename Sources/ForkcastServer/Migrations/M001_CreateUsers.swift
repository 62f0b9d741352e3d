import Fluent

/// Accounts and their bearer tokens.
struct M001_CreateUsers: AsyncMigration {
    var name: String { "001_create_users" }

    func prepare(on database: any Database) async throws {
        try await database.schema(UserModel.schema)
            .id()
            .field("email", .string, .required)
            .field("email_key", .string, .required)
            .field("password_hash", .string, .required)
            .field("display_name", .string)
            .field("time_zone", .string, .required)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "email_key")
            .create()
        try await database.schema(TokenModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("created_at", .datetime)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TokenModel.schema).delete()
        try await database.schema(UserModel.schema).delete()
    }
}
