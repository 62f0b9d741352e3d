import Fluent
import SQLKit

/// Week templates (``PlanTemplate``): a household's named weeks of the plan.
struct M031_PlanTemplates: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlanTemplateModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("weeks", .int, .required)
            .field("entries", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await (database as! any SQLDatabase).create(index: "plan_templates_owner").on(PlanTemplateModel.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlanTemplateModel.schema).delete()
    }
}
