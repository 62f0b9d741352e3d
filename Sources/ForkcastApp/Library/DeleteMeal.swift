import ForkcastCore
import Foundation

/// Deleting a meal (the API, the Meals page and a synced device's delete): the meal and every day it
/// was planned on, in one write. Diary entries logged from it keep the values they were logged with.
public struct DeleteMeal: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The meal deleted; nil when the person has none with that id.
    @discardableResult
    public func callAsFunction(_ id: UUID) async throws -> Meal? {
        let now = now
        return try await library.write { tx in
            guard let meal = try await tx.meals.find(id) else { return nil }
            // A plan day cannot outlive its meal: its days go first, each in the change feed.
            _ = try await tx.plan.deleteAll(of: id, now: now)
            _ = try await tx.meals.delete(id, now: now)
            return meal
        }
    }
}
