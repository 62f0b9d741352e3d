import Fluent
import SQLKit

/// Meal slots on the plan (an assignment may carry a meal type), and the food word index gains
/// the endings of words so search matches inside words ("gurt" finds yogurt).
struct M009_PlanSlots: AsyncMigration {
    var name: String { "009_plan_slots" }

    func prepare(on database: any Database) async throws {
        try await database.schema(AssignmentModel.schema).field("meal_type", .string).update()
        // Rebuild the word index in batches of foods (all users), in one transaction.
        try await database.transaction { tx in
            try await FoodTermModel.query(on: tx).delete()
            var offset = 0
            while true {
                let foods = try await FoodModel.query(on: tx).sort(\.$id).range(offset..<(offset + 500)).all()
                if foods.isEmpty { break }
                let rows = foods.flatMap { FoodTermModel.rows(for: $0.domain, ownerID: $0.ownerID) }
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
