import Fluent
import SQLKit

/// The diary, body profiles, goals and weight entries.
struct M006_CreateDiary: AsyncMigration {
    var name: String { "006_create_diary" }

    func prepare(on database: any Database) async throws {
        try await database.schema(DiaryEntryModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("logged_at", .datetime, .required)
            .field("local_date", .string, .required)
            .field("meal_type", .string, .required)
            .field("note", .string)
            .field("kind", .string, .required)
            // No foreign keys to foods or meals: entries keep their copied values when those are deleted.
            .field("food_id", .uuid).field("meal_id", .uuid)
            .field("quantity", .double).field("unit", .string)
            .field("name", .string, .required)
            .field("energy_kcal", .double).field("protein", .double).field("carbohydrates", .double).field("fat", .double)
            .field("cost", .double)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(BodyProfileModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("sex", .string, .required).field("birth_date", .string, .required)
            .field("height_cm", .double, .required).field("weight_kg", .double, .required)
            .field("activity_level", .string, .required).field("aim", .string, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
        try await database.schema(GoalSettingModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("source", .string, .required)
            .field("energy_kcal", .double, .required).field("protein", .double, .required)
            .field("carbohydrates", .double, .required).field("fat", .double, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
        try await database.schema(WeightEntryModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, "id", onDelete: .cascade))
            .field("measured_at", .datetime, .required)
            .field("weight_kg", .double, .required)
            .field("source", .string, .required)
            .unique(on: "user_id", "measured_at")
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "diary_owner_date").on(DiaryEntryModel.schema).column("user_id").column("local_date").column("logged_at").run()
        try await sql.create(index: "weights_owner_time").on(WeightEntryModel.schema).column("user_id").column("measured_at").run()
    }

    func revert(on database: any Database) async throws {
        for schema in [WeightEntryModel.schema, GoalSettingModel.schema, BodyProfileModel.schema, DiaryEntryModel.schema] {
            try await database.schema(schema).delete()
        }
    }
}
