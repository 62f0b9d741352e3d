import Fluent

/// Invitations into a household: the household a link leads into (nil for the server owner's
/// invitation to create an account). A household's links go with it.
struct M023_HouseholdInvitations: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(InvitationModel.schema)
            .field("household_id", .uuid, .references(HouseholdModel.schema, "id", onDelete: .cascade))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(InvitationModel.schema).deleteField("household_id").update()
    }
}
