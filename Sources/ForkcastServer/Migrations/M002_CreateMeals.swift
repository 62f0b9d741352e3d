import Fluent
import SQLKit

/// The meal library: meals and their other components.
struct M002_CreateMeals: AsyncMigration {
    var name: String { "002_create_meals" }

    func prepare(on database: any Database) async throws {
        try await database.schema(MealModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("description", .string, .required)
            .field("description_key", .string, .required)
            .field("primary_protein", .string)
            .field("protein_key", .string)
            .field("primary_carb", .string)
            .field("carb_key", .string)
            .field("search_text", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(MealComponentModel.schema)
            .id()
            .field("meal_id", .uuid, .required, .references(MealModel.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("name", .string, .required)
            .field("name_key", .string, .required)
            .create()
        let sql = database as! any SQLDatabase
        // The list orders by description within an owner; filters look up by key.
        try await sql.create(index: "meals_owner_description").on(MealModel.schema).column("user_id").column("description_key").column("id").run()
        try await sql.create(index: "meals_owner_protein").on(MealModel.schema).column("user_id").column("protein_key").run()
        try await sql.create(index: "meals_owner_carb").on(MealModel.schema).column("user_id").column("carb_key").run()
        try await sql.create(index: "meal_components_meal").on(MealComponentModel.schema).column("meal_id").column("name_key").run()
        try await sql.create(index: "meal_components_owner_key").on(MealComponentModel.schema).column("user_id").column("name_key").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MealComponentModel.schema).delete()
        try await database.schema(MealModel.schema).delete()
    }
}
