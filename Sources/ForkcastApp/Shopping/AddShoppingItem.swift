import ForkcastCore
import Foundation

/// Adding something that is in no meal ("dish soap") to a list.
public struct AddShoppingItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// Nil when the person has no such list; throws ``ValidationError`` for a bad name, quantity,
    /// unit or category, or a full list.
    public func callAsFunction(to listID: UUID, name: String, quantity: Decimal?, unit: String?, category: String?, id: UUID) async throws -> ShoppingItem? {
        let checked = try ShoppingItemRules.validated(name: name, quantity: quantity, unit: unit, category: category, requireName: true)
        let now = now
        return try await library.write { tx in
            guard try await tx.shopping.find(listID) != nil else { return nil }
            if try await tx.shopping.items(of: listID).count >= ShoppingList.maximumItems {
                throw ValidationError(field: "name", "A list holds at most \(ShoppingList.maximumItems) items; this one is full.")
            }
            let item = ShoppingItem(id: id, listId: listID, name: checked.name ?? name, quantity: checked.quantity, unit: checked.unit,
                                    category: checked.category ?? ShoppingCategory.other, categoryChosen: checked.category != nil,
                                    source: .manual, updatedAt: now)
            try await tx.shopping.insert([item], now: now)
            return item
        }
    }
}
