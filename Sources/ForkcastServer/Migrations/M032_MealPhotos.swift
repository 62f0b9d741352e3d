import Fluent
import SQLKit

/// A recipe's photo: `meals.photo_id` names it, `meal_photos` holds its bytes on both engines
/// (one photo a meal; it goes with its meal).
struct M032_MealPhotos: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MealModel.schema).field("photo_id", .uuid).update()
        try await database.schema(MealPhotoModel.schema)
            .id()
            .field("meal_id", .uuid, .required, .references(MealModel.schema, "id", onDelete: .cascade))
            .field("format", .string, .required)
            .field("width", .int, .required)
            .field("height", .int, .required)
            .field("byte_size", .int, .required)
            .field("data", .data, .required)
            .unique(on: "meal_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MealPhotoModel.schema).delete()
        try await database.schema(MealModel.schema).deleteField("photo_id").update()
    }
}
