import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// One person's meal types: read, store, replace and reorder. ``SaveMealType`` decides what may be
/// stored.
struct MealTypeRepository: MealTypeRecords {
    let db: any Database
    let kitchen: Kitchen

    /// The person's types; the defaults when none are stored yet.
    func catalog(now: Date) async throws -> MealTypeCatalog {
        let rows = try await kitchen.rows(of: MealTypeModel.self, on: db)
        return rows.isEmpty ? .defaults(owner: kitchen.user, now: now) : MealTypeCatalog(rows.map(\.domain))
    }

    /// Stores the defaults for a new person (inside the transaction that creates the account).
    func createDefaults(now: Date, on tx: any Database) async throws {
        try await MealTypeRepository(db: tx, kitchen: kitchen).insert(all: MealTypeCatalog.defaults(owner: kitchen.user, now: now).all, now: now)
    }

    /// Stores types with their change-feed rows, in one statement (call inside a write).
    func insert(all types: [MealType], now: Date) async throws {
        try await types.map { MealTypeModel($0, ownerID: kitchen.user) }.create(on: db)
        try await kitchen.record(.mealType, types.map(\.id), op: .upsert, on: db, now: now)
    }

    /// Stores a new type with its change-feed row. The rules are ``SaveMealType``'s.
    func insert(_ type: MealType, now: Date) async throws {
        try await db.write { tx in
            try await MealTypeModel(type, ownerID: kitchen.user).create(on: tx)
            try await kitchen.record(.mealType, [type.id], op: .upsert, on: tx, now: now)
        }
    }

    /// Replaces a stored type's fields with its change-feed row; false when the owner has no such type.
    func replace(_ type: MealType, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await MealTypeModel.query(on: tx).filter(kitchen).filter(\.$id == type.id).first() else {
                return false
            }
            model.apply(type)
            try await model.update(on: tx)
            try await kitchen.record(.mealType, [type.id], op: .upsert, on: tx, now: now)
            return true
        }
    }

    /// One stored type; nil when the owner has none with that id.
    func find(_ id: UUID) async throws -> MealType? {
        try await MealTypeModel.query(on: db).filter(kitchen).filter(\.$id == id).first()?.domain
    }

    /// Puts a type at `position` (0 = first) and numbers the others after it in their order.
    func move(_ id: UUID, to position: Int, in catalog: MealTypeCatalog, now: Date) async throws {
        let kitchen = kitchen
        var order = catalog.all.map(\.id).filter { $0 != id }
        order.insert(id, at: max(0, min(position, order.count)))
        let newOrder = order
        try await db.write { tx in
            let models = try await MealTypeModel.query(on: tx).filter(kitchen).all()
            var changed: [UUID] = []
            for model in models {
                guard let index = newOrder.firstIndex(of: model.id!), model.position != index else { continue }
                model.position = index
                model.updatedAt = now
                try await model.update(on: tx)
                changed.append(model.id!)
            }
            try await kitchen.record(.mealType, changed, op: .upsert, on: tx, now: now)
        }
    }

    /// The stored types, under the household's turn (call inside a library write), storing the defaults first
    /// when there are none.
    func stored(now: Date) async throws -> MealTypeCatalog {
        let tx = db
        let rows = try await MealTypeModel.query(on: tx).filter(kitchen).all()
        if !rows.isEmpty { return MealTypeCatalog(rows.map(\.domain)) }
        try await createDefaults(now: now, on: tx)
        return MealTypeCatalog.defaults(owner: kitchen.user, now: now)
    }
}
