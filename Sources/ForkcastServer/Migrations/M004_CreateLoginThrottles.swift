import Fluent

/// Failed sign-in counts per email.
struct M004_CreateLoginThrottles: AsyncMigration {
    var name: String { "004_create_login_throttles" }

    func prepare(on database: any Database) async throws {
        try await database.schema("login_throttles")
            .id()
            .field("email_key", .string, .required)
            .field("failures", .int, .required)
            .field("last_failure_at", .datetime, .required)
            .unique(on: "email_key")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("login_throttles").delete()
    }
}
