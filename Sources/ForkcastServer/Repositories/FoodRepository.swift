import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// The foods of one owner; every query is scoped to `ownerID`.
struct FoodRepository {
    let db: any Database
    let ownerID: UUID

    /// Search as you type: foods whose name or brand contains the text, by name.
    func list(query: String?, page: Paging) async throws -> (items: [Food], total: Int) {
        var q = FoodModel.query(on: db).filter(\.$ownerID == ownerID)
        if let text = query?.trimmed.lowercased(), !text.isEmpty {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            q = q.filter(.sql(raw: "search_key LIKE \(Self.literal("%" + escaped + "%")) ESCAPE '\\'"))
        }
        let total = try await q.count()
        let models = try await q.sort(\.$searchKey).sort(\.$id).range(page.offset..<(page.offset + page.per)).all()
        return (models.map(\.domain), total)
    }

    /// A quoted SQL string literal (single quotes doubled), for the LIKE pattern.
    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    func find(_ id: UUID) async throws -> Food? {
        try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == id).first()?.domain
    }

    func find(ids: [UUID]) async throws -> [UUID: Food] {
        guard !ids.isEmpty else { return [:] }
        let models = try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id ~~ Set(ids)).all()
        return Dictionary(uniqueKeysWithValues: models.map { ($0.id!, $0.domain) })
    }

    func find(barcode: Barcode) async throws -> Food? {
        try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$barcode == barcode.digits).first()?.domain
    }

    func create(_ food: Food) async throws -> Food {
        try await ensureBarcodeFree(food.barcode, except: nil)
        try await FoodModel(food, ownerID: ownerID).create(on: db)
        return food
    }

    /// Replaces a food's fields; nil when the owner has no such food.
    func update(_ food: Food) async throws -> Food? {
        guard let model = try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == food.id).first() else {
            return nil
        }
        try await ensureBarcodeFree(food.barcode, except: food.id)
        var updated = food
        updated.createdAt = model.createdAt
        model.apply(updated)
        try await model.update(on: db)
        return updated
    }

    enum DeleteResult { case deleted, notFound, usedIn([String]) }

    /// Deletes a food unless a meal uses it (deleting would change those meals' nutrition).
    func delete(_ id: UUID) async throws -> DeleteResult {
        guard let model = try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else {
            return .notFound
        }
        let uses = try await MealIngredientModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$food.$id == id)
            .with(\.$meal).all()
        if !uses.isEmpty { return .usedIn(Array(Set(uses.map(\.meal.description))).sorted()) }
        try await model.delete(on: db)
        return .deleted
    }

    func count() async throws -> Int {
        try await FoodModel.query(on: db).filter(\.$ownerID == ownerID).count()
    }

    private func ensureBarcodeFree(_ barcode: Barcode?, except id: UUID?) async throws {
        guard let barcode else { return }
        var q = FoodModel.query(on: db).filter(\.$ownerID == ownerID).filter(\.$barcode == barcode.digits)
        if let id { q = q.filter(\.$id != id) }
        if let other = try await q.first() {
            throw AppError.conflict("Your food “\(other.name)” already has barcode \(barcode.digits).")
        }
    }
}
