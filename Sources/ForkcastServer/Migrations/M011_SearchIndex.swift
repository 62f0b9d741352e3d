import Fluent
import SQLKit

/// Food search with many matches walks foods in name order and asks, food by food, whether one of
/// its words starts with what was typed: one index seek on (food_id, term) each (docs/performance.md). The
/// old index on food_id alone is a prefix of the new one.
struct M011_SearchIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.create(index: "food_terms_food_term").on(FoodTermModel.schema).column("food_id").column("term").run()
        try await sql.drop(index: "food_terms_food").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.create(index: "food_terms_food").on(FoodTermModel.schema).column("food_id").run()
        try await sql.drop(index: "food_terms_food_term").run()
    }
}
