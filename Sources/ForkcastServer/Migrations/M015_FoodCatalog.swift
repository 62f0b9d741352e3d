import Fluent
import SQLKit

/// The shared food catalogue (USDA FoodData Central) and micronutrients.
///
/// - `catalog_foods`: one row per catalogue food, the same for every account; `nutrients` and
///   `portions` are text (see ``NutrientText`` and ``CatalogFoodModel``).
/// - `catalog_parts`: which version of each part (the shipped generic foods, an imported branded
///   file) is loaded, and how far a branded import got, so it resumes.
/// - `foods.catalog_id`: the catalogue food a person's food was adopted from, once per person
///   (a unique index, so two adoptions at once make one food).
/// - `foods.micros` and `diary_entries.micros`: the nutrients beyond each table's own columns.
/// - `goal_settings.targets`: daily targets a person changed from the daily values.
struct M015_FoodCatalog: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CatalogFoodModel.schema)
            .field("id", .string, .identifier(auto: false))
            .field("name", .string, .required)
            .field("category", .string)
            .field("source", .string, .required)
            .field("nutrients", .string, .required)
            .field("portions", .string, .required)
            .create()
        try await database.schema(CatalogPartModel.schema)
            .id()
            .field("part", .string, .required)
            .field("version", .string, .required)
            .field("rows", .int, .required)
            .field("position", .int64, .required)
            .field("complete", .bool, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "part")
            .create()
        try await database.schema(FoodModel.schema).field("catalog_id", .string).update()
        try await database.schema(FoodModel.schema).field("micros", .string).update()
        try await database.schema(DiaryEntryModel.schema).field("micros", .string).update()
        try await database.schema(GoalSettingModel.schema).field("targets", .string).update()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "foods_catalog").unique().on(FoodModel.schema).column("user_id").column("catalog_id").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.drop(index: "foods_catalog").run()
        try await database.schema(GoalSettingModel.schema).deleteField("targets").update()
        try await database.schema(DiaryEntryModel.schema).deleteField("micros").update()
        try await database.schema(FoodModel.schema).deleteField("micros").update()
        try await database.schema(FoodModel.schema).deleteField("catalog_id").update()
        try await database.schema(CatalogPartModel.schema).delete()
        try await database.schema(CatalogFoodModel.schema).delete()
    }
}
