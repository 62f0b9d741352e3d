import Fluent

/// Who eats a planned meal (``Assignment/eaters``), as JSON; nil for every member, one portion each.
struct M024_PlanEaters: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).field("eaters", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).deleteField("eaters").update()
    }
}
