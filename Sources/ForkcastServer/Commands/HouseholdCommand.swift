import ConsoleKit
import Fluent
import Foundation
import SQLKit
import Vapor

/// `forkcast household list`: the server's households and who is in each, for its administrator.
struct HouseholdCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "action", help: "list")
        var action: String
    }

    var help: String { "The server's households: `household list` (each with its members' emails and roles)" }

    func run(using context: CommandContext, signature: Signature) async throws {
        guard signature.action == "list" else {
            context.console.error("Unknown action \(signature.action); use: household list")
            throw ExitCode(2)
        }
        let app = context.application
        try await app.prepareStorage()
        let sql = app.db as! any SQLDatabase
        let rows = try await sql.raw("""
            SELECT h.id, h.name, u.email, u.display_name, m.role FROM \(ident: HouseholdModel.schema) h
            JOIN \(ident: HouseholdMemberModel.schema) m ON m.household_id = h.id JOIN \(ident: UserModel.schema) u ON u.id = m.user_id
            ORDER BY h.created_at, h.id, CASE m.role WHEN 'owner' THEN 0 ELSE 1 END, m.joined_at, u.email
            """).all()
        var current: UUID?
        for row in rows {
            let id = try row.decode(column: "id", as: UUID.self)
            if id != current {
                current = id
                context.console.output("\(try row.decode(column: "name", as: String.self)) (\(id.uuidString))".consoleText())
            }
            let name = try row.decode(column: "display_name", as: String?.self).map { " \($0)" } ?? ""
            context.console.output("  \(try row.decode(column: "role", as: String.self))\t\(try row.decode(column: "email", as: String.self))\(name)".consoleText())
        }
        if rows.isEmpty { context.console.output("No households yet: the first account makes one.") }
    }
}
