import Fluent
import ForkcastCore
import Foundation

/// Taking a meal off the plan (the API, the planner page and a synced device's delete): the
/// assignment and its change-feed row in one write. The meal itself stays in the library.
struct UnplanMeal {
    let plan: PlanRepository
    let now: Date

    /// The assignment removed; nil when the person has none with that id.
    @discardableResult
    func callAsFunction(_ id: UUID) async throws -> Assignment? {
        try await plan.delete(id, now: now)
    }
}
