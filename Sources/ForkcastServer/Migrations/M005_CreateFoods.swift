import Fluent
import SQLKit

/// Foods, meal ingredients, meal servings and hand-typed nutrition, and the Open Food Facts cache.
struct M005_CreateFoods: AsyncMigration {
    var name: String { "005_create_foods" }

    func prepare(on database: any Database) async throws {
        try await database.schema(FoodModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("search_key", .string, .required)
            .field("brand", .string)
            .field("barcode", .string)
            .field("basis", .string, .required)
            .field("energy_kcal", .double).field("protein", .double).field("carbohydrates", .double).field("fat", .double)
            .field("fiber", .double).field("sugars", .double).field("saturated_fat", .double).field("salt", .double)
            .field("serving_size", .double).field("serving_label", .string).field("portion", .string)
            .field("price_amount", .double).field("price_per", .string).field("price_package_size", .double)
            .field("icon", .string, .required)
            .field("source", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "barcode")
            .create()
        // Word prefixes for search as you type: one row per word of a food's name and brand.
        // PostgreSQL compares them byte by byte (COLLATE "C") like SQLite, so prefix ranges work.
        let termType: DatabaseSchema.DataType = database is any SQLDatabase && (database as! any SQLDatabase).dialect.name == "postgresql"
            ? .custom(SQLRaw("TEXT COLLATE \"C\"")) : .string
        try await database.schema(FoodTermModel.schema)
            .id()
            .field("food_id", .uuid, .required, .references(FoodModel.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("term", termType, .required)
            .create()
        try await database.schema(MealIngredientModel.schema)
            .id()
            .field("meal_id", .uuid, .required, .references(MealModel.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("food_id", .uuid, .required, .references(FoodModel.schema, "id", onDelete: .restrict))
            .field("position", .int, .required)
            .field("quantity", .double, .required)
            .field("unit", .string, .required)
            .create()
        try await database.schema(UserModel.schema).field("currency", .string, .required, .sql(.default("EUR"))).update()
        // One column per ALTER TABLE: SQLite adds a single column per statement.
        try await database.schema(MealModel.schema).field("servings", .int, .required, .sql(.default(1))).update()
        for column in ["manual_energy_kcal", "manual_protein", "manual_carbohydrates", "manual_fat"] {
            try await database.schema(MealModel.schema).field(.definition(name: .key(.string(column)), dataType: .double, constraints: [])).update()
        }
        try await database.schema(OpenFoodFactsCacheModel.schema)
            .id()
            .field("barcode", .string, .required)
            .field("found", .bool, .required)
            .field("body", .string)
            .field("fetched_at", .datetime, .required)
            .unique(on: "barcode")
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "foods_owner_search").on(FoodModel.schema).column("user_id").column("search_key").run()
        try await sql.create(index: "food_terms_owner_term").on(FoodTermModel.schema).column("user_id").column("term").column("food_id").run()
        try await sql.create(index: "food_terms_food").on(FoodTermModel.schema).column("food_id").run()
        try await sql.create(index: "meal_ingredients_meal").on(MealIngredientModel.schema).column("meal_id").column("position").run()
        try await sql.create(index: "meal_ingredients_food").on(MealIngredientModel.schema).column("food_id").run()
    }

    func revert(on database: any Database) async throws {
        // The reverse of prepare: what it created is dropped (food_terms was created here again).
        try await database.schema(OpenFoodFactsCacheModel.schema).delete()
        try await database.schema(MealIngredientModel.schema).delete()
        try await database.schema(FoodTermModel.schema).delete()
        try await database.schema(FoodModel.schema).delete()
        // One column per ALTER TABLE, as in prepare (SQLite drops a single column per statement).
        for column in ["servings", "manual_energy_kcal", "manual_protein", "manual_carbohydrates", "manual_fat"] {
            try await database.schema(MealModel.schema).deleteField(.key(.string(column))).update()
        }
        try await database.schema(UserModel.schema).deleteField("currency").update()
    }
}
