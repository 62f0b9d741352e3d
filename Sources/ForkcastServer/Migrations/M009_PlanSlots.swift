import Fluent
import Foundation
import SQLKit

/// Meal slots on the plan (an assignment may carry a meal type), and the food word index gains
/// the endings of words so search matches inside words ("gurt" finds yogurt).
struct M009_PlanSlots: AsyncMigration {
    var name: String { "009_plan_slots" }

    func prepare(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).field("meal_type", .string).update()
        // Rebuild the word index in batches of foods (all users), in one transaction.
        // The columns it needs, by name: the model has grown columns that later migrations add.
        try await database.transaction { tx in
            try await FoodTermModel.query(on: tx).delete()
            let sql = tx as! any SQLDatabase
            var offset = 0
            while true {
                let foods = try await sql.raw("SELECT id, user_id, name, brand FROM foods ORDER BY id LIMIT 500 OFFSET \(bind: offset)").all()
                if foods.isEmpty { break }
                let rows = try foods.flatMap { row in
                    let id = try row.decode(column: "id", as: UUID.self), owner = try row.decode(column: "user_id", as: UUID.self)
                    let text = try row.decode(column: "name", as: String.self) + " " + (try row.decode(column: "brand", as: String?.self) ?? "")
                    return FoodTermModel.indexTerms(of: text).map { FoodTermModel(foodID: id, ownerID: owner, term: $0) }
                }
                for chunk in stride(from: 0, to: rows.count, by: 500) {
                    try await Array(rows[chunk..<min(chunk + 500, rows.count)]).create(on: tx)
                }
                offset += foods.count
            }
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).deleteField("meal_type").update()
    }
}
