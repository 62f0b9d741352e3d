import Fluent
import ForkcastCore
import Foundation

/// A household: the people who share a library, a plan and shopping lists.
final class HouseholdModel: Model, @unchecked Sendable {
    static let schema = "households"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    var properties: [any AnyProperty] { [$id, $name, $createdAt, $updatedAt] }

    init() {}

    init(_ household: Household) {
        id = household.id
        name = household.name
        createdAt = household.createdAt
        updatedAt = household.updatedAt
    }

    var domain: Household { Household(id: id!, name: name, createdAt: createdAt, updatedAt: updatedAt) }
}

/// An account's place in its household: one row per account (its id is the account's).
final class HouseholdMemberModel: Model, @unchecked Sendable {
    static let schema = "household_members"

    @ID(custom: "user_id", generatedBy: .user) var id: UUID?
    @Field(key: "household_id") var householdID: UUID
    @Field(key: "role") var role: String
    @Field(key: "joined_at") var joinedAt: Date
    var properties: [any AnyProperty] { [$id, $householdID, $role, $joinedAt] }

    init() {}

    init(user: UUID, household: UUID, role: Household.Role, joinedAt: Date) {
        id = user
        householdID = household
        self.role = role.rawValue
        self.joinedAt = joinedAt
    }
}
