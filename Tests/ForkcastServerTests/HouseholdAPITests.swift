import Fluent
import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `/api/v1/household` through the Swift client, against a running server and a real database:
/// each account has a household of its own, its owner renames it, a bad name is a 422 that changes
/// nothing, and deleting the account deletes its household.
@Suite("Households over the API")
struct HouseholdAPITests {
    @Test func eachAccountHasItsOwnHouseholdThatItsOwnerRenames() async throws {
        try await withServer(allowSignup: true) { app, url in
            let anaSession = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "ana@example.com", password: "correct horse", displayName: "Ana")
            let ana = ForkcastAPI(baseURL: url, token: anaSession.token, transport: .patient)
            let ben = ForkcastAPI(baseURL: url, token: try await ForkcastAPI(baseURL: url).register(email: "ben@example.com", password: "correct horse").token, transport: .patient)

            let anas = try await ana.household()
            #expect(anas.name == "Ana's household")
            #expect(anas.members.map(\.id) == [anaSession.user.id] && anas.members.map(\.role) == ["owner"])
            #expect(anas.members.first?.displayName == "Ana")
            let bens = try await ben.household()
            #expect(bens.name == "My household" && bens.id != anas.id)

            let renamed = try await ana.renameHousehold("  Casa <b>\"Ana\"</b> \u{05E9}\u{05DC}\u{05D5}\u{05DD}  ")
            #expect(renamed.name == "Casa <b>\"Ana\"</b> \u{05E9}\u{05DC}\u{05D5}\u{05DD}" && renamed.id == anas.id)
            #expect(try await ana.household().name == renamed.name)
            #expect(try await ben.household().name == "My household", "another household is untouched")

            for bad in ["", "  ", String(repeating: "x", count: Household.maximumNameLength + 1)] {
                #expect(await problemStatus { _ = try await ana.renameHousehold(bad) } == 422)
            }
            #expect(try await ana.household().name == renamed.name, "a refused name changes nothing")

            // Deleting the account deletes the household it was alone in.
            try await ana.deleteAccount(password: "correct horse")
            let sql = app.db as! any SQLDatabase
            let left = try await sql.select().column("id").from(HouseholdModel.schema).all().map { try $0.decode(column: "id", as: UUID.self) }
            #expect(left == [bens.id])
        }
    }
}
