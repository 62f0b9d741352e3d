import Fluent

/// Sign in with Apple and OpenID Connect: linked identities and used nonces.
struct M012_ExternalIdentities: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ExternalIdentityModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("subject", .string, .required)
            .field("email", .string)
            .field("created_at", .datetime)
            .unique(on: "provider", "subject")
            .unique(on: "user_id", "provider")
            .create()
        try await database.schema(UsedNonceModel.schema)
            .field("nonce_hash", .string, .identifier(auto: false))
            .field("expires_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UsedNonceModel.schema).delete()
        try await database.schema(ExternalIdentityModel.schema).delete()
    }
}
