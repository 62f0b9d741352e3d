import ForkcastCore
import Foundation

/// Putting a lot in the pantry, or changing one (its amount, place, date or whether it is opened),
/// from the pantry page, the API or a synced device.
public struct StockPantry: Sendable {
    let library: any Library
    let now: Date
    let today: CalendarDate

    public init(library: any Library, now: Date, today: CalendarDate) {
        self.library = library
        self.now = now
        self.today = today
    }

    /// The lot stored; throws ``ValidationError`` or ``Refusal/missingReference(field:detail:)``
    /// for a food the household does not have.
    public func add(_ input: PantryInput, id: UUID) async throws -> PantryItem {
        let (now, today) = (now, today)
        return try await library.write { tx in
            let lot = try await tx.pantryLot(input, id: id, createdAt: now, now: now, today: today)
            if try await tx.pantry.count() >= PantryItem.maximumItems {
                throw ValidationError(field: "foodId", "A pantry holds at most \(PantryItem.maximumItems) lots; use or remove some first.")
            }
            try await tx.pantry.insert(lot, now: now)
            return lot
        }
    }

    /// The lot as changed; nil when the household has no such lot.
    public func change(_ id: UUID, to input: PantryInput) async throws -> PantryItem? {
        let (now, today) = (now, today)
        return try await library.write { tx in
            guard let stored = try await tx.pantry.item(id) else { return nil }
            let lot = try await tx.pantryLot(input, id: id, createdAt: stored.createdAt, now: now, today: today)
            _ = try await tx.pantry.replace(lot, now: now)
            return lot
        }
    }

    /// The lot removed (nothing counted as used or wasted); nil when there is no such lot.
    public func remove(_ id: UUID) async throws -> PantryItem? {
        let now = now
        return try await library.write { tx in
            guard let stored = try await tx.pantry.item(id) else { return nil }
            try await tx.pantry.delete([id], now: now)
            return stored
        }
    }
}
