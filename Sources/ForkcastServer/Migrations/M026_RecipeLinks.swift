import Fluent
import SQLKit

/// `meals.share_token`: the token of a recipe's read-only link (unique; null when not shared).
struct M026_RecipeLinks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MealModel.schema).field("share_token", .string).update()
        // SQLite cannot add a constraint to a table; a unique index does the same on both engines.
        try await (database as! any SQLDatabase).create(index: "meals_share_token").unique().on(MealModel.schema).column("share_token").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).drop(index: "meals_share_token").run()
        try await database.schema(MealModel.schema).deleteField("share_token").update()
    }
}
