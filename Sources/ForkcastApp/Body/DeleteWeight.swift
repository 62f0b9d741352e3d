import ForkcastCore
import Foundation

/// Deleting a weighing (the API and a synced device's delete): the weight and its change-feed row,
/// at the request's time, in one write.
public struct DeleteWeight: Sendable {
    let store: any BodyStore
    let now: Date

    public init(store: any BodyStore, now: Date) {
        self.store = store
        self.now = now
    }

    /// The weighing deleted; nil when the person has none with that id.
    @discardableResult
    public func callAsFunction(_ id: UUID) async throws -> WeightEntry? {
        let now = now
        return try await store.write { body in
            guard let weight = try await body.weight(id), try await body.deleteWeight(id, now: now) else { return nil }
            return weight
        }
    }
}
