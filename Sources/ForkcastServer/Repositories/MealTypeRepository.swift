import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// One person's meal types (seed 004 §5, M5): list, suggest, add, rename, change windows, reorder
/// and hide. The API, the Settings page and sync all change them through here.
struct MealTypeRepository {
    let db: any Database
    let ownerID: UUID

    /// The person's types; the defaults when none are stored yet.
    func catalog(now: Date) async throws -> MealTypeCatalog {
        let rows = try await MealTypeModel.query(on: db).filter(\.$ownerID == ownerID).all()
        return rows.isEmpty ? .defaults(owner: ownerID, now: now) : MealTypeCatalog(rows.map(\.domain))
    }

    /// Stores the defaults for a new person (inside the transaction that creates the account).
    func createDefaults(now: Date, on tx: any Database) async throws {
        let defaults = MealTypeCatalog.defaults(owner: ownerID, now: now).all
        try await defaults.map { MealTypeModel($0, ownerID: ownerID) }.create(on: tx)
        try await SyncLog.record(.mealType, defaults.map(\.id), op: .upsert, owner: ownerID, on: tx, now: now)
    }

    struct Change: Sendable {
        var name: String?
        /// nil: unchanged; .some(nil): no window; .some(window): that window ("HH:MM" texts).
        var window: (start: String, end: String)??
        var position: Int?
        var hidden: Bool?
    }

    /// Adds a custom type (at the end, or at `position`).
    func create(_ change: Change, id: UUID, now: Date) async throws -> MealType {
        try await db.write { tx in
            var catalog = try await stored(on: tx, now: now)
            let name = (change.name ?? "").trimmed
            let problems = catalog.problems(id: nil, name: name, window: change.window) + Self.positionProblems(change.position)
            guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
            let type = MealType(id: id, key: nil, name: name, window: Self.window(change.window) ?? nil, position: catalog.all.count,
                                hidden: change.hidden ?? false, createdAt: now, updatedAt: now)
            try await MealTypeModel(type, ownerID: ownerID).create(on: tx)
            try await SyncLog.record(.mealType, [id], op: .upsert, owner: ownerID, on: tx, now: now)
            catalog = MealTypeCatalog(catalog.all + [type])
            if let position = change.position { try await move(id, to: position, in: catalog, on: tx, now: now) }
            return try await MealTypeModel.find(id, on: tx)!.domain
        }
    }

    /// Renames, re-windows, hides or moves a type; nil when the person has no such type.
    func update(_ id: UUID, with change: Change, now: Date) async throws -> MealType? {
        try await db.write { tx in
            let catalog = try await stored(on: tx, now: now)
            guard var type = catalog.all.first(where: { $0.id == id }),
                  let model = try await MealTypeModel.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$id == id).first() else { return nil }
            let problems = catalog.problems(id: id, name: change.name ?? type.name, window: change.window) + Self.positionProblems(change.position)
            guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
            if let name = change.name { type.name = name.trimmed }
            if let window = Self.window(change.window) { type.window = window }
            if let hidden = change.hidden { type.hidden = hidden }
            if type.hidden, type.key == MealType.snackKey {
                throw AppError.validation(ValidationError(field: "hidden", "Snack is the catch-all and is always offered; rename it instead of hiding it."))
            }
            type.updatedAt = now
            model.apply(type)
            try await model.update(on: tx)
            try await SyncLog.record(.mealType, [id], op: .upsert, owner: ownerID, on: tx, now: now)
            if let position = change.position { try await move(id, to: position, in: catalog, on: tx, now: now) }
            return try await MealTypeModel.find(id, on: tx)!.domain
        }
    }

    /// Puts a type at `position` (0 = first) and numbers the others after it in their order.
    private func move(_ id: UUID, to position: Int, in catalog: MealTypeCatalog, on tx: any Database, now: Date) async throws {
        var order = catalog.all.map(\.id).filter { $0 != id }
        order.insert(id, at: max(0, min(position, order.count)))
        let models = try await MealTypeModel.query(on: tx).filter(\.$ownerID == ownerID).all()
        var changed: [UUID] = []
        for model in models {
            guard let index = order.firstIndex(of: model.id!), model.position != index else { continue }
            model.position = index
            model.updatedAt = now
            try await model.update(on: tx)
            changed.append(model.id!)
        }
        try await SyncLog.record(.mealType, changed, op: .upsert, owner: ownerID, on: tx, now: now)
    }

    /// The stored types, storing the defaults first when there are none.
    private func stored(on tx: any Database, now: Date) async throws -> MealTypeCatalog {
        try await SyncLog.lockOwner(ownerID, on: tx as! any SQLDatabase)
        let rows = try await MealTypeModel.query(on: tx).filter(\.$ownerID == ownerID).all()
        if !rows.isEmpty { return MealTypeCatalog(rows.map(\.domain)) }
        try await createDefaults(now: now, on: tx)
        return MealTypeCatalog.defaults(owner: ownerID, now: now)
    }

    private static func positionProblems(_ position: Int?) -> [ValidationError.Field] {
        guard let position, !(0...1000).contains(position) else { return [] }
        return [.init(field: "position", message: "position is where the type goes in your list: 0 (first) to 1000.")]
    }

    private static func window(_ change: (start: String, end: String)??) -> SuggestionWindow?? {
        switch change {
        case .none: nil
        case .some(.none): .some(nil)
        case .some(.some(let w)): SuggestionWindow(start: w.start, end: w.end).map { .some($0) }
        }
    }
}
