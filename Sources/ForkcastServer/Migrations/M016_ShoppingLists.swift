import Fluent
import SQLKit

/// Portions per plan entry and shopping lists.
///
/// - `assignments.servings`: how many portions a planned meal makes that day (null: the meal's own).
/// - `shopping_lists`: a person's lists, each for a range of the plan; `share_token` is the link
///   that opens one list without an account (unique; null when not shared).
/// - `shopping_items`: a list's lines; amounts and prices are exact decimals as text, `meals` the
///   planned meals that need the item, one per line.
struct M016_ShoppingLists: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).field("servings", .int).update()
        try await database.schema(ShoppingListModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("from_date", .string, .required)
            .field("to_date", .string, .required)
            .field("share_token", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "share_token")
            .create()
        try await database.schema(ShoppingItemModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("list_id", .uuid, .required, .references(ShoppingListModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("food_id", .uuid)
            .field("quantity", .string)
            .field("unit", .string)
            .field("category", .string, .required)
            .field("category_chosen", .bool, .required)
            .field("estimated_price", .string)
            .field("checked", .bool, .required)
            .field("source", .string, .required)
            .field("meals", .string, .required)
            .field("updated_at", .datetime, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "shopping_lists_owner").on(ShoppingListModel.schema).column("user_id").run()
        try await sql.create(index: "shopping_items_list").on(ShoppingItemModel.schema).column("list_id").run()
        try await sql.create(index: "shopping_items_food").on(ShoppingItemModel.schema).column("user_id").column("food_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ShoppingItemModel.schema).delete()
        try await database.schema(ShoppingListModel.schema).delete()
        try await database.schema(AssignmentModel.schema).deleteField("servings").update()
    }
}
