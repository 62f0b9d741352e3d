import ForkcastCore
import Foundation

/// Deleting a list with its items (and its sharing link).
public struct DeleteShoppingList: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// False when the person has no such list.
    public func callAsFunction(_ id: UUID) async throws -> Bool {
        let now = now
        return try await library.write { tx in try await tx.shopping.delete(list: id, now: now) }
    }
}
