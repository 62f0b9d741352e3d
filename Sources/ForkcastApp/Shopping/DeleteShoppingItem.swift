import ForkcastCore
import Foundation

/// Taking one item off a list.
public struct DeleteShoppingItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The item removed; nil when the person has no such item (on `listID`, when given).
    public func callAsFunction(_ id: UUID, on listID: UUID? = nil) async throws -> ShoppingItem? {
        let now = now
        return try await library.write { tx in
            guard let item = try await tx.shopping.item(id), listID == nil || item.listId == listID else { return nil }
            try await tx.shopping.delete(items: [id], now: now)
            return item
        }
    }
}
