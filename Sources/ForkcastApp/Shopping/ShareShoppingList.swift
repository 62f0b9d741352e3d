import ForkcastCore
import Foundation

/// Sharing a list with whoever shops: a link that reads and checks off that list only, until revoked.
public struct ShareShoppingList: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The list's link token: the one it has, or `newToken` when it is not shared yet (so sharing
    /// twice gives the same link). Nil when the person has no such list.
    public func share(_ id: UUID, newToken: String) async throws -> String? {
        precondition(newToken.count >= 32, "a sharing token is long and random")
        let now = now
        return try await library.write { tx in
            guard let list = try await tx.shopping.find(id) else { return nil }
            if let token = list.shareToken { return token }
            try await tx.shopping.setShareToken(newToken, of: id, now: now)
            return newToken
        }
    }

    /// Stops the link working. False when the person has no such list.
    public func revoke(_ id: UUID) async throws -> Bool {
        let now = now
        return try await library.write { tx in
            guard try await tx.shopping.find(id) != nil else { return false }
            try await tx.shopping.setShareToken(nil, of: id, now: now)
            return true
        }
    }
}
