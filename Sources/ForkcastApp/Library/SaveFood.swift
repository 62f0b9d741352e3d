import ForkcastCore
import Foundation

/// Saving a food: the one way a food is added or changed, from the API, the Foods page, a synced
/// device, an Open Food Facts import and an account import. It validates with ForkcastCore's
/// ``FoodDraft``, keeps a barcode on one of the person's foods (a ``Refusal/conflict(_:)`` naming
/// the other), and writes the food in one transaction. A food's `createdAt` is when it was first
/// stored; every later save keeps it and moves `updatedAt` to the request's time.
public struct SaveFood: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// A new food (the API's POST, the Add food form, an Open Food Facts import).
    public func add(_ draft: FoodDraft, id: UUID) async throws -> Food {
        try await save(draft, id: id, mode: .add)!
    }

    /// A change to one of the person's foods; nil when they have none with that id.
    public func change(_ draft: FoodDraft, id: UUID) async throws -> Food? {
        try await save(draft, id: id, mode: .change)
    }

    /// A synced device's food: changed when the person has it, added when not.
    @discardableResult
    public func addOrChange(_ draft: FoodDraft, id: UUID) async throws -> Food {
        try await save(draft, id: id, mode: .addOrChange)!
    }

    /// A food from an account archive, with the times it was created and last changed there.
    public func restore(_ draft: FoodDraft, id: UUID, createdAt: Date, updatedAt: Date) async throws -> Food {
        try await save(draft, id: id, mode: .add, times: (createdAt, updatedAt))!
    }

    private enum Mode { case add, change, addOrChange }

    /// Throws ``ValidationError`` naming each bad field, or a conflict when another food has the barcode.
    private func save(_ draft: FoodDraft, id: UUID, mode: Mode, times: (created: Date, updated: Date)? = nil) async throws -> Food? {
        let now = times?.updated ?? now
        // Checked before any read, so bad input is a 422 whatever is stored.
        // A catalogue food's values are the catalogue's, as published; values a person changed are
        // held to every rule.
        let published = draft.source == .usda && draft.catalogId != nil
        let checked = try draft.validated(id: id, createdAt: times?.created ?? now, now: now, asPublished: published)
        return try await library.write { tx in
            let stored = mode == .add ? nil : try await tx.foods.find(id)
            if mode == .change, stored == nil { return nil }
            if published, let stored, stored.per100 != checked.per100 { _ = try draft.validated(id: id, now: now) }
            var food = checked
            if let stored {
                food.createdAt = stored.createdAt
                food.catalogId = food.catalogId ?? stored.catalogId
            }
            if let barcode = food.barcode, let other = try await tx.foods.holder(of: barcode, except: id) {
                throw Refusal.conflict("Your food “\(other.name)” already has barcode \(barcode.digits).")
            }
            if stored == nil { try await tx.foods.insert(food) } else { _ = try await tx.foods.replace(food) }
            return food
        }
    }
}
