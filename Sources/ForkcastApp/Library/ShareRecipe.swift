import ForkcastCore
import Foundation

/// Sharing a recipe read-only: a link that shows that one meal as a recipe (and as schema.org
/// JSON-LD, so another Forkcast, Mealie or Tandoor imports it), signed out, until revoked.
public struct ShareRecipe: Sendable {
    let library: any Library

    public init(library: any Library) {
        self.library = library
    }

    /// The meal's link token: the one it has, or `newToken` when it is not shared yet (sharing twice
    /// gives the same link). Nil when the household has no such meal.
    public func share(_ id: UUID, newToken: String) async throws -> (token: String, isNew: Bool)? {
        precondition(newToken.count >= 32, "a sharing token is long and random")
        return try await library.write { tx in
            if let token = try await tx.meals.shareToken(of: id) { return (token, false) }
            guard try await tx.meals.setShareToken(newToken, of: id) else { return nil }
            return (newToken, true)
        }
    }

    /// Stops the link working at once. False when the household has no such meal.
    public func revoke(_ id: UUID) async throws -> Bool {
        try await library.write { tx in try await tx.meals.setShareToken(nil, of: id) }
    }
}
