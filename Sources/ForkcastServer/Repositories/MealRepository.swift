import Fluent
import FluentSQL
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// The meals of one owner. Every query is scoped to `ownerID`: there is no way to reach another
/// user's rows through this type.
struct MealRepository: MealRecords {
    let db: any Database
    let kitchen: Kitchen

    struct Listed: Sendable {
        let meal: Meal
        let isPlanned: Bool
    }

    /// One page of the library, filtered, with planned meals (in `window`) last (seed 002 Req 2.5).
    func list(filter: MealFilter, page: Paging, plannedIn window: WeekWindow) async throws -> (items: [Listed], total: Int) {
        let sql = db as! any SQLDatabase
        let conditions = whereClause(filter)
        let countRow = try await sql.raw("SELECT COUNT(*) AS n FROM meals m WHERE \(conditions)").first()
        let total = try countRow?.decode(column: "n", as: Int.self) ?? 0
        let rows = try await sql.raw("""
            SELECT m.*, CASE WHEN EXISTS (SELECT 1 FROM assignments a WHERE a.meal_id = m.id
                AND a.date >= \(bind: window.start.iso) AND a.date <= \(bind: window.end.iso)) THEN 1 ELSE 0 END AS is_planned
            FROM meals m WHERE \(conditions)
            ORDER BY is_planned, m.description_key, m.id
            LIMIT \(bind: page.per) OFFSET \(bind: page.offset)
            """).all()
        var models: [(MealModel, Bool)] = []
        for row in rows {
            models.append((try row.decode(fluentModel: MealModel.self), try row.decode(column: "is_planned", as: Int.self) == 1))
        }
        let meals = try await hydrate(models.map(\.0))
        return (zip(meals, models).map { Listed(meal: $0, isPlanned: $1.1) }, total)
    }

    private func whereClause(_ filter: MealFilter) -> SQLQueryString {
        var clause = kitchen.holds("m.user_id")
        if let key = filter.proteinKey { clause = clause + " AND m.protein_key = \(bind: key)" }
        if let key = filter.carbKey { clause = clause + " AND m.carb_key = \(bind: key)" }
        let keys = filter.componentKeys.sorted()
        if !keys.isEmpty {
            // Subset test: the meal must have every requested component.
            clause = clause + " AND (SELECT COUNT(DISTINCT c.name_key) FROM meal_components c WHERE c.meal_id = m.id AND c.name_key IN (\(binds: keys))) = \(bind: keys.count)"
        }
        if let text = filter.text {
            let escaped = text.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            clause = clause + " AND m.search_text LIKE \(bind: "%" + escaped + "%") ESCAPE '\\'"
        }
        return clause
    }

    /// Every meal of the owner, for facets and exports.
    func all() async throws -> [Meal] {
        try await hydrate(try await MealModel.query(on: db).filter(kitchen).sort(\.$descriptionKey).all())
    }

    func find(_ id: UUID) async throws -> Meal? {
        guard let model = try await model(id) else { return nil }
        return try await hydrate([model]).first
    }

    /// The meals with these ids that belong to the owner, by id.
    func find(ids: [UUID]) async throws -> [UUID: Meal] {
        guard !ids.isEmpty else { return [:] }
        let models = try await kitchen.rows(of: MealModel.self, where: "id", in: ids, on: db)
        return Dictionary(uniqueKeysWithValues: try await hydrate(models).map { ($0.id, $0) })
    }

    /// Stores a new meal with its components, ingredients and change-feed row. The rules (every
    /// ingredient is one of the owner's foods, in a unit it can be measured in) are ``SaveMeal``'s.
    func insert(_ content: MealContent, id: UUID, now: Date) async throws -> Meal {
        try await db.write { tx in
            let model = MealModel(id: id, ownerID: kitchen.user, content: content, now: now)
            try await model.create(on: tx)
            try await Self.writeComponents(content.otherComponents, mealID: id, ownerID: kitchen.user, on: tx)
            try await Self.writeIngredients(content.ingredients, mealID: id, ownerID: kitchen.user, on: tx)
            try await kitchen.record(.meal, [id], op: .upsert, on: tx, now: now)
            return model.domain(components: content.otherComponents, ingredients: content.ingredients)
        }
    }

    /// Replaces a meal's fields, components and ingredients; nil when the owner has no such meal.
    func replace(_ id: UUID, with content: MealContent, now: Date) async throws -> Meal? {
        try await db.write { tx in
            guard let model = try await MealModel.query(on: tx).filter(kitchen).filter(\.$id == id).first() else {
                return nil
            }
            model.apply(content, now: now)
            try await model.update(on: tx)
            try await MealComponentModel.query(on: tx).filter(\.$meal.$id == id).delete()
            try await Self.writeComponents(content.otherComponents, mealID: id, ownerID: kitchen.user, on: tx)
            try await MealIngredientModel.query(on: tx).filter(\.$meal.$id == id).delete()
            try await Self.writeIngredients(content.ingredients, mealID: id, ownerID: kitchen.user, on: tx)
            try await kitchen.record(.meal, [id], op: .upsert, on: tx, now: now)
            return model.domain(components: content.otherComponents, ingredients: content.ingredients)
        }
    }

    /// Deletes a meal with its components and ingredients, in the change feed; false when there was
    /// none. A meal still planned is refused (``StillReferenced``): ``DeleteMeal`` removes its plan
    /// days first, each in the feed, where the database's cascade would leave no trace.
    func delete(_ id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await MealModel.query(on: tx).filter(kitchen).filter(\.$id == id).first() else {
                return false
            }
            guard try await AssignmentModel.query(on: tx).filter(\.$meal.$id == id).count() == 0 else { throw StillReferenced(id: id) }
            try await kitchen.record(.meal, [id], op: .delete, on: tx, now: now)
            try await MealComponentModel.query(on: tx).filter(\.$meal.$id == id).delete()
            try await MealIngredientModel.query(on: tx).filter(\.$meal.$id == id).delete()
            try await MealPhotoModel.query(on: tx).filter(\.$mealID == id).delete()
            try await model.delete(on: tx)
            return true
        }
    }

    func shareToken(of id: UUID) async throws -> String? {
        try await MealModel.query(on: db).filter(kitchen).filter(\.$id == id).field(\.$id).field(\.$shareToken).first()?.shareToken
    }

    func setShareToken(_ token: String?, of id: UUID) async throws -> Bool {
        guard try await MealModel.query(on: db).filter(kitchen).filter(\.$id == id).count() == 1 else { return false }
        try await MealModel.query(on: db).filter(kitchen).filter(\.$id == id).set(\.$shareToken, to: token).update()
        return true
    }

    func setPhoto(_ photo: MealPhoto?, of id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await MealModel.query(on: tx).filter(kitchen).filter(\.$id == id).first() else { return false }
            // Taking off a photo that is not there changes nothing (a synced edit is not superseded).
            if photo == nil, model.photoID == nil { return true }
            // The meal's row first: on PostgreSQL its lock puts two photos sent at once one after the other.
            model.photoID = photo?.id
            model.updatedAt = now
            try await model.update(on: tx)
            try await MealPhotoModel.query(on: tx).filter(\.$mealID == id).delete()
            if let photo { try await MealPhotoModel(photo, mealID: id).create(on: tx) }
            try await kitchen.record(.meal, [id], op: .upsert, on: tx, now: now)
            return true
        }
    }

    func photoBytes(except id: UUID) async throws -> Int64 {
        let row = try await (db as! any SQLDatabase).raw("""
            SELECT CAST(COALESCE(SUM(p.byte_size), 0) AS BIGINT) AS used FROM meal_photos p JOIN meals m ON m.id = p.meal_id
            WHERE \(kitchen.holds("m.user_id")) AND m.id <> \(bind: id)
            """).first()
        return try row?.decode(column: "used", as: Int64.self) ?? 0
    }

    /// The id of the meal's photo, when the household has the meal and it has a photo.
    func photoID(of id: UUID) async throws -> UUID? {
        try await MealModel.query(on: db).filter(kitchen).filter(\.$id == id).field(\.$id).field(\.$photoID).first()?.photoID
    }

    static func photo(of mealID: UUID, on db: any Database) async throws -> MealPhoto? {
        guard let m = try await MealPhotoModel.query(on: db).filter(\.$mealID == mealID).first(), let id = m.id,
              let format = ImageFormat(rawValue: m.format) else { return nil }
        return MealPhoto(id: id, format: format, width: m.width, height: m.height, data: m.data)
    }

    func facets() async throws -> MealFacets {
        let sql = db as! any SQLDatabase
        let meals = try await sql.raw("SELECT primary_protein, primary_carb FROM meals WHERE \(kitchen.holds("user_id")) ORDER BY created_at, id").all()
        let proteins = try meals.compactMap { try $0.decodeNil(column: "primary_protein") ? nil : $0.decode(column: "primary_protein", as: String.self) }
        let carbs = try meals.compactMap { try $0.decodeNil(column: "primary_carb") ? nil : $0.decode(column: "primary_carb", as: String.self) }
        let components = try await sql.raw("SELECT name FROM meal_components WHERE \(kitchen.holds("user_id")) ORDER BY position").all()
            .map { try $0.decode(column: "name", as: String.self) }
        return MealFacets(proteins: MealFacets.distinct(proteins), carbs: MealFacets.distinct(carbs),
                          components: MealFacets.distinct(components))
    }

    func count() async throws -> Int {
        try await MealModel.query(on: db).filter(kitchen).count()
    }

    private func model(_ id: UUID) async throws -> MealModel? {
        try await MealModel.query(on: db).filter(kitchen).filter(\.$id == id).first()
    }

    /// Meals with their components and ingredients, loaded in one query each (no N+1).
    private func hydrate(_ models: [MealModel]) async throws -> [Meal] {
        let ids = models.map { $0.id! }
        let components = try await components(of: ids)
        let ingredients = try await ingredients(of: ids)
        return models.map { $0.domain(components: components[$0.id!] ?? [], ingredients: ingredients[$0.id!] ?? []) }
    }

    /// The foods the meals' ingredients use, by id.
    func foods(for meals: [Meal]) async throws -> [UUID: Food] {
        try await FoodRepository(db: db, kitchen: kitchen).find(ids: Array(Set(meals.flatMap { $0.ingredients.map(\.foodId) })))
    }

    /// Totals per meal id, from the meals' ingredients or hand-typed nutrition.
    func totals(for meals: [Meal]) async throws -> [UUID: MealTotals] {
        Self.totals(of: meals, foods: try await foods(for: meals))
    }

    /// Totals per meal id from foods already loaded (a meal whose units no longer fit is unknown).
    static func totals(of meals: [Meal], foods: [UUID: Food]) -> [UUID: MealTotals] {
        Dictionary(meals.map { ($0.id, (try? MealTotals.of($0, foods: foods)) ?? .unknown) }, uniquingKeysWith: { a, _ in a })
    }

    private func ingredients(of mealIDs: [UUID]) async throws -> [UUID: [Ingredient]] {
        var result: [UUID: [Ingredient]] = [:]
        for row in try await kitchen.rows(of: MealIngredientModel.self, where: "meal_id", in: mealIDs, order: "position", on: db) {
            result[row.$meal.id, default: []].append(row.domain)
        }
        return result
    }

    private static func writeIngredients(_ ingredients: [Ingredient], mealID: UUID, ownerID: UUID, on db: any Database) async throws {
        guard !ingredients.isEmpty else { return }
        try await ingredients.enumerated()
            .map { MealIngredientModel(mealID: mealID, ownerID: ownerID, position: $0.offset, ingredient: $0.element) }
            .create(on: db)
    }

    private func components(of mealIDs: [UUID]) async throws -> [UUID: [String]] {
        var result: [UUID: [String]] = [:]
        for row in try await kitchen.rows(of: MealComponentModel.self, where: "meal_id", in: mealIDs, order: "position", on: db) {
            result[row.$meal.id, default: []].append(row.name)
        }
        return result
    }

    private static func writeComponents(_ names: [String], mealID: UUID, ownerID: UUID, on db: any Database) async throws {
        guard !names.isEmpty else { return }
        try await names.enumerated()
            .map { MealComponentModel(mealID: mealID, ownerID: ownerID, position: $0.offset, name: $0.element) }
            .create(on: db)
    }
}
