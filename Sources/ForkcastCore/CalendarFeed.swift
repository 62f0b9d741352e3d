import Foundation

/// A secret address a calendar app subscribes to: the household's plan, or only the meals one
/// person eats. Only a hash of its token is stored; renewing is revoking and making a new one.
public struct CalendarFeed: Identifiable, Hashable, Sendable {
    public enum Scope: String, Sendable, Codable, CaseIterable {
        /// Every planned meal of the household.
        case household
        /// The meals the person eats (plan entries without eaters are everyone's).
        case me

        /// Whether a feed of this scope, made by `person`, shows the plan entry.
        public func shows(_ assignment: Assignment, to person: UUID) -> Bool {
            self == .household || assignment.isEaten(by: person)
        }
    }

    public let id: UUID
    public var tokenHash: String
    public var scope: Scope
    public var createdAt: Date

    public init(id: UUID, tokenHash: String, scope: Scope, createdAt: Date) {
        self.id = id
        self.tokenHash = tokenHash
        self.scope = scope
        self.createdAt = createdAt
    }

    /// Feeds open at once, per person.
    public static let openLimit = 10
    /// The days a feed holds: from two weeks back to three months ahead (next month's dinners).
    public static let daysBack = 14, daysAhead = 92
    public static let gone = "This calendar address was renewed or removed; subscribe to the new one."

    /// When a planned meal of `type` is in a calendar, in local minutes of the day, and for how
    /// long. The built-in types have a usual time (their suggestion windows begin at midnight or
    /// run until it: breakfast's is 00:00-10:59); a type of one's own starts where its window
    /// does, but not before 06:00; a type without a window at noon. Never at midnight.
    public static func slot(of type: MealType?) -> (start: Int, minutes: Int) {
        switch type?.key {
        case "breakfast": return (8 * 60, 30)
        case "lunch": return (12 * 60 + 30, 45)
        case "dinner": return (18 * 60, 60)
        case "afternoon-snack": return (16 * 60, 15)
        case "snack": return (10 * 60 + 30, 15)
        case "workout-fuel": return (17 * 60, 15)
        case "protein-shake": return (19 * 60 + 30, 10)
        default:
            guard let window = type?.window else { return (12 * 60, 30) }
            return (min(max(window.start, 6 * 60), 22 * 60), 30)
        }
    }
}
