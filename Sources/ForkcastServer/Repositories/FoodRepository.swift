import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// The foods of one owner; every query is scoped to `ownerID`.
struct FoodRepository: FoodRecords {
    let db: any Database
    let kitchen: Kitchen

    /// Search as you type: foods with a word (of name or brand) starting with each typed word,
    /// ordered by name. Served from the word index, so it stays fast with 100,000 foods.
    func list(query: String?, page: Paging) async throws -> (items: [Food], total: Int) {
        let sql = db as! any SQLDatabase
        let words = Array(FoodTermModel.terms(of: query ?? "").prefix(5))
        guard !words.isEmpty else {
            let q = FoodModel.query(on: db).filter(kitchen)
            let total = try await q.count()
            return (try await q.sort(\.$searchKey).sort(\.$id).range(page.offset..<(page.offset + page.per)).all().map(\.domain), total)
        }
        // The foods having a word that starts with each typed word, straight from the word index.
        var matches: SQLQueryString = ""
        for (index, word) in words.enumerated() {
            if index > 0 { matches = matches + " INTERSECT " }
            matches = matches + "SELECT food_id FROM food_terms WHERE \(kitchen.holds("user_id")) AND term >= \(bind: word) AND term < \(bind: word + "\u{10FFFF}")"
        }
        let total = try await sql.raw("SELECT COUNT(*) AS n FROM (\(matches)) m").first()?.decode(column: "n", as: Int.self) ?? 0
        guard total > page.offset else { return ([], total) }
        // Few matches: fetch and sort just those. Many (a few letters typed): walk foods in name order,
        // asking each whether it has a word starting with every typed word (one index seek per
        // word), and stop at the page — sorting thousands of matches to show 20 was the slow part.
        let rows: [any SQLRow]
        if total <= 2000 {
            rows = try await sql.raw("""
                SELECT f.* FROM foods f JOIN (\(matches)) m ON m.food_id = f.id
                ORDER BY f.search_key, f.id LIMIT \(bind: page.per) OFFSET \(bind: page.offset)
                """).all()
        } else {
            var walk: SQLQueryString = "SELECT f.* FROM foods f WHERE \(kitchen.holds("f.user_id"))"
            for word in words {
                walk = walk + " AND EXISTS (SELECT 1 FROM food_terms t WHERE t.food_id = f.id AND t.term >= \(bind: word) AND t.term < \(bind: word + "\u{10FFFF}"))"
            }
            rows = try await sql.raw(walk + " ORDER BY f.search_key, f.id LIMIT \(bind: page.per) OFFSET \(bind: page.offset)").all()
        }
        return (try rows.map { try $0.decode(fluentModel: FoodModel.self).domain }, total)
    }

    /// One food (logging reads one per entry: a plain query, without Fluent's aliased column list).
    func find(_ id: UUID) async throws -> Food? {
        let sql = db as! any SQLDatabase
        return try await sql.raw("SELECT * FROM foods WHERE id = \(bind: id) AND \(kitchen.holds("user_id"))").first()?
            .decode(fluentModel: FoodModel.self).domain
    }

    func find(ids: [UUID]) async throws -> [UUID: Food] {
        let models = try await kitchen.rows(of: FoodModel.self, where: "id", in: ids, on: db)
        return Dictionary(uniqueKeysWithValues: models.map { ($0.id!, $0.domain) })
    }

    func adopted(_ catalogId: String) async throws -> Food? {
        try await FoodModel.query(on: db).filter(kitchen).filter(\.$catalogID == catalogId).first()?.domain
    }

    /// The person's foods adopted from these catalogue foods: food id by catalogue id.
    func adopted(among catalogIds: [String]) async throws -> [String: UUID] {
        guard !catalogIds.isEmpty else { return [:] }
        let sql = db as! any SQLDatabase
        let rows = try await sql.select().column("id").column("catalog_id").from(FoodModel.schema)
            .where(kitchen.holds("user_id")).where("catalog_id", .in, SQLBind.group(catalogIds)).all()
        var result: [String: UUID] = [:]
        for row in rows { result[try row.decode(column: "catalog_id", as: String.self)] = try row.decode(column: "id", as: UUID.self) }
        return result
    }

    func find(barcode: Barcode) async throws -> Food? {
        try await FoodModel.query(on: db).filter(kitchen).filter(\.$barcode == barcode.digits).first()?.domain
    }

    /// Stores a new food with its search words and change-feed row. The rules are ``SaveFood``'s.
    func insert(_ food: Food) async throws {
        try await db.write { tx in
            try await FoodModel(food, ownerID: kitchen.user).create(on: tx)
            try await Self.writeTerms(food, ownerID: kitchen.user, on: tx)
            try await kitchen.record(.food, [food.id], op: .upsert, on: tx, now: food.updatedAt)
        }
    }

    /// Replaces a stored food's fields, search words and change-feed row; false when the owner has
    /// no food with its id.
    func replace(_ food: Food) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await FoodModel.query(on: tx).filter(kitchen).filter(\.$id == food.id).first() else {
                return false
            }
            model.apply(food)
            try await model.update(on: tx)
            try await FoodTermModel.query(on: tx).filter(\.$foodID == food.id).delete()
            try await Self.writeTerms(food, ownerID: model.ownerID, on: tx)
            try await kitchen.record(.food, [food.id], op: .upsert, on: tx, now: food.updatedAt)
            return true
        }
    }

    /// Deletes a food with its search words and change-feed row; false when there was none.
    func delete(_ id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await FoodModel.query(on: tx).filter(kitchen).filter(\.$id == id).first() else {
                return false
            }
            try await FoodTermModel.query(on: tx).filter(\.$foodID == id).delete()
            try await model.delete(on: tx)
            try await kitchen.record(.food, [id], op: .delete, on: tx, now: now)
            return true
        }
    }

    /// The names of the owner's meals that use a food as an ingredient, sorted.
    func meals(using id: UUID) async throws -> [String] {
        let uses = try await MealIngredientModel.query(on: db).filter(kitchen).filter(\.$food.$id == id).with(\.$meal).all()
        return Array(Set(uses.map(\.meal.description))).sorted()
    }

    /// Another of the owner's foods with this barcode, if any.
    func holder(of barcode: Barcode, except id: UUID) async throws -> Food? {
        try await FoodModel.query(on: db).filter(kitchen).filter(\.$barcode == barcode.digits).filter(\.$id != id).first()?.domain
    }

    func count() async throws -> Int {
        try await FoodModel.query(on: db).filter(kitchen).count()
    }

    static func writeTerms(_ food: Food, ownerID: UUID, on db: any Database) async throws {
        let rows = FoodTermModel.rows(for: food, ownerID: ownerID)
        guard !rows.isEmpty else { return }
        try await rows.create(on: db)
    }
}
