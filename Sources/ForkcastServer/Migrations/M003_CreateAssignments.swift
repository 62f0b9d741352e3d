import Fluent
import SQLKit

/// The plan: meals on calendar days. Deleting a meal deletes its assignments.
struct M003_CreateAssignments: AsyncMigration {
    var name: String { "003_create_assignments" }

    func prepare(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("meal_id", .uuid, .required, .references(MealModel.schema, "id", onDelete: .cascade))
            .field("date", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "assignments_owner_date").on(AssignmentModel.schema).column("user_id").column("date").run()
        try await sql.create(index: "assignments_meal_date").on(AssignmentModel.schema).column("meal_id").column("date").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).delete()
    }
}
