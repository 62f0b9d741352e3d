import Fluent

/// The unit a cook wrote an ingredient in ("⅓ cup"), kept beside its grams (``WrittenUnit``).
struct M033_WrittenUnits: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column a statement: SQLite adds one at a time.
        try await database.schema(MealIngredientModel.schema).field("written_unit", .string).update()
        try await database.schema(MealIngredientModel.schema).field("written_size", .double).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MealIngredientModel.schema).deleteField("written_size").update()
        try await database.schema(MealIngredientModel.schema).deleteField("written_unit").update()
    }
}
