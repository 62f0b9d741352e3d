import Fluent

/// Invitations: one-time links by which the owner lets one person create an account
/// while sign-up is closed. Only a SHA-256 of the link's token is kept (`token_hash`, unique);
/// `used_by` is the account it created (null while it waits).
struct M017_Invitations: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(InvitationModel.schema)
            .id()
            .field("token_hash", .string, .required)
            .field("created_by", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("used_by", .uuid)
            .field("used_at", .datetime)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(InvitationModel.schema).delete()
    }
}
