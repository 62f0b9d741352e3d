import ForkcastCore
import Foundation

/// Checking an item off (or back on), or changing its name, amount or aisle — from the list's
/// page, the API, a synced device or a shared link (which may only check).
public struct ChangeShoppingItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The item as stored now; nil when the person has no such item (on `listID`, when given).
    public func callAsFunction(_ id: UUID, on listID: UUID? = nil, _ change: ShoppingItemChange) async throws -> ShoppingItem? {
        let checked = try ShoppingItemRules.validated(name: change.name, quantity: change.quantity, unit: change.unit,
                                                      category: change.category, requireName: false)
        let now = now
        return try await library.write { tx in
            guard var item = try await tx.shopping.item(id), listID == nil || item.listId == listID else { return nil }
            let wasChecked = item.checked
            if let name = checked.name { item.name = name }
            if let quantity = checked.quantity { item.quantity = quantity }
            if let unit = checked.unit { item.unit = unit }
            // A form sends the aisle shown; only a different one is the person's choice.
            if let category = checked.category, category != item.category { item.category = category; item.categoryChosen = true }
            if let done = change.checked { item.checked = done }
            item.updatedAt = now
            _ = try await tx.shopping.replace(item, now: now)
            if item.checked != wasChecked { try await PantryBooking.book(item, in: tx, now: now) }
            return item
        }
    }
}
