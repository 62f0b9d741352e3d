import ForkcastCore
import Foundation

/// Taking a meal off the plan (the API, the planner page and a synced device's delete): the
/// assignment in one write. The meal itself stays in the library.
public struct UnplanMeal: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The assignment removed; nil when the person has none with that id.
    @discardableResult
    public func callAsFunction(_ id: UUID) async throws -> Assignment? {
        let now = now
        return try await library.write { tx in try await tx.plan.delete(id, now: now) }
    }
}
