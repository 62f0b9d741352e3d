import Fluent

/// A meal's recipe (``Recipe``: steps, times, source, notes, text lines) as JSON; nil for none.
struct M025_Recipes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MealModel.schema).field("recipe", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MealModel.schema).deleteField("recipe").update()
    }
}
