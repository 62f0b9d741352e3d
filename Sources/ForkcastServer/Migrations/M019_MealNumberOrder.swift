import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// Meals sort with their numbers in order of value ("Soup #36" before "Soup #106"): every stored
/// sort key is made again with ForkcastCore's ``MealOrdering/sortKey(description:)``, a page at a
/// time, keyed by id.
struct M019_MealNumberOrder: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await rekey(database) { MealOrdering.sortKey(description: $0) }
    }

    /// Back to the keys before (the description ignoring case).
    func revert(on database: any Database) async throws {
        try await rekey(database) { $0.matchKey }
    }

    private func rekey(_ database: any Database, _ key: @escaping (String) -> String) async throws {
        let sql = database as! any SQLDatabase
        var after: UUID?
        while true {
            var query = sql.select().columns("id", "description", "description_key").from(MealModel.schema)
            if let after { query = query.where("id", .greaterThan, after) }
            let rows = try await query.orderBy("id").limit(500).all()
            guard !rows.isEmpty else { return }
            for row in rows {
                let id = try row.decode(column: "id", as: UUID.self)
                let wanted = key(try row.decode(column: "description", as: String.self))
                if try row.decode(column: "description_key", as: String.self) != wanted {
                    try await sql.update(MealModel.schema).set("description_key", to: wanted).where("id", .equal, id).run()
                }
                after = id
            }
        }
    }
}
