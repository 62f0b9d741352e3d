import Fluent
import SQLKit

/// The household's pantry.
///
/// - `shopping_items.in_pantry`: what the pantry held of a plan item's food at the last refresh.
/// - `pantry_items`: its lots; `amount` an exact decimal as text in `unit` (the food's g or ml),
///   `best_before` an ISO date. A food is deleted with its lots (the use case removes them first,
///   each in the change feed).
/// - `pantry_uses`: amounts used by hand (eaten or discarded), for the month's waste.
/// - `pantry_cooked`: the plan entries (by id) whose ingredients were taken out, once each.
struct M027_Pantry: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ShoppingItemModel.schema).field("in_pantry", .string).update()
        try await database.schema(PantryItemModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("food_id", .uuid, .required, .references(FoodModel.schema, "id", onDelete: .cascade))
            .field("amount", .string, .required)
            .field("unit", .string, .required)
            .field("location", .string, .required)
            .field("best_before", .string)
            .field("opened", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(PantryUseModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("food_id", .uuid, .required)
            .field("amount", .string, .required)
            .field("unit", .string, .required)
            .field("reason", .string, .required)
            .field("cost", .string)
            .field("used_at", .datetime, .required)
            .create()
        try await database.schema("pantry_cooked")
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("cooked_at", .datetime, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "pantry_items_owner_food").on(PantryItemModel.schema).column("user_id").column("food_id").run()
        try await sql.create(index: "pantry_uses_owner_time").on(PantryUseModel.schema).column("user_id").column("used_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("pantry_cooked").delete()
        try await database.schema(PantryUseModel.schema).delete()
        try await database.schema(PantryItemModel.schema).delete()
        try await database.schema(ShoppingItemModel.schema).deleteField("in_pantry").update()
    }
}
