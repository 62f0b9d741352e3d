import Foundation

/// The people who share one kitchen: its library (meals, foods, meal types), its plan and its
/// shopping lists. Every account belongs to exactly one; each keeps a diary of its own.
public struct Household: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public var name: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, name: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public enum Role: String, Sendable, Codable, CaseIterable {
        /// Renames the household, invites and removes members, hands ownership over.
        case owner
        /// Uses and changes everything the household shares.
        case member
    }

    /// A person of the household, as the others see them: no email, nothing of their diary.
    public struct Member: Identifiable, Hashable, Sendable, Codable {
        public let id: UUID
        public var displayName: String?
        public var role: Role

        public init(id: UUID, displayName: String?, role: Role) {
            self.id = id
            self.displayName = displayName
            self.role = role
        }
    }

    public static let maximumNameLength = 100

    /// What pages call `member` of `members`: their display name; without one, "You" for the
    /// person reading and "Member n" (their place, the owner first) for the others, so two people
    /// without a name stay two (their emails are not the others' to see).
    public static func name(of member: Member, among members: [Member], me: UUID?) -> String {
        if let name = member.displayName?.trimmed, !name.isEmpty { return name }
        if member.id == me { return "You" }
        return "Member \((members.firstIndex { $0.id == member.id } ?? members.count) + 1)"
    }

    /// The name a new account's household gets: "Ana's household", or "My household" for a person
    /// without a display name.
    public static func defaultName(for displayName: String?) -> String {
        guard let name = displayName?.trimmed, !name.isEmpty else { return "My household" }
        return String("\(name)'s household".prefix(maximumNameLength))
    }

    /// The trimmed name; throws ``ValidationError`` naming `name` for an empty or too long one.
    public static func validated(name: String) throws(ValidationError) -> String {
        let trimmed = name.trimmed
        if trimmed.isEmpty { throw ValidationError(field: "name", "Give the household a name.") }
        if trimmed.count > maximumNameLength {
            throw ValidationError(field: "name", "A household's name is at most \(maximumNameLength) characters; this one has \(trimmed.count).")
        }
        return trimmed
    }
}

/// A household and the people in it.
public struct HouseholdMembers: Sendable, Hashable {
    public var household: Household
    /// The owner first, then the others in the order they joined.
    public var members: [Household.Member]

    /// `members` in the order they joined; the owner is put first.
    public init(household: Household, members: [Household.Member]) {
        self.household = household
        self.members = members.filter { $0.role == .owner } + members.filter { $0.role != .owner }
    }

    /// The role of `person` in it; nil for someone outside it.
    public func role(of person: UUID) -> Household.Role? { members.first { $0.id == person }?.role }
}
