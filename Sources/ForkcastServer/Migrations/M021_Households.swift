import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// Households: every account is in exactly one (`household_members`, keyed by the account). Each
/// existing account gets a household of its own, named as a new account's is, with it as owner.
struct M021_Households: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // All or nothing: a failure part way leaves no tables behind to stop the next start.
        try await database.transaction { try await fill($0) }
    }

    private func fill(_ database: any Database) async throws {
        try await database.schema(HouseholdModel.schema)
            .id()
            .field("name", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(HouseholdMemberModel.schema)
            .field("user_id", .uuid, .identifier(auto: false), .references(UserModel.schema, "id", onDelete: .cascade))
            .field("household_id", .uuid, .required, .references(HouseholdModel.schema, "id", onDelete: .cascade))
            .field("role", .string, .required)
            .field("joined_at", .datetime, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "household_members_household").on(HouseholdMemberModel.schema).column("household_id").run()
        let now = Date()
        for row in try await sql.select().columns("id", "display_name", "created_at").from(UserModel.schema).all() {
            let user = try row.decode(column: "id", as: UUID.self)
            let since = try row.decodeNil(column: "created_at") ? now : try row.decode(column: "created_at", as: Date.self)
            let name = Household.defaultName(for: try row.decode(column: "display_name", as: String?.self))
            let household = HouseholdModel(Household(id: UUID.timeOrdered(), name: name, createdAt: since, updatedAt: since))
            try await household.create(on: database)
            try await HouseholdMemberModel(user: user, household: household.id!, role: .owner, joinedAt: since).create(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(HouseholdMemberModel.schema).delete()
        try await database.schema(HouseholdModel.schema).delete()
    }
}
