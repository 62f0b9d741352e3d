import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// Households on the in-memory accounts: every account gets one of its own, only its owner renames
/// it, and it goes with its last member.
@Suite("Households, alone on the in-memory store")
struct HouseholdUseCasesTests {
    let libraries = InMemoryLibraries()
    let now = Date(timeIntervalSince1970: 1_795_392_000)

    func account(_ email: String, _ name: String?) -> Account {
        Account(id: UUID(), email: email, passwordHash: "", displayName: name, timeZone: "UTC", currency: "EUR")
    }

    func household(of person: UUID) async throws -> HouseholdMembers? {
        try await libraries.accounts.read { try await $0.household(of: person) }
    }

    @Test func eachNewAccountOwnsAHouseholdOfItsOwn() async throws {
        let (ana, ben) = (account("ana@example.com", "Ana"), account("ben@example.com", nil))
        let create = CreateAccount(accounts: libraries.accounts, now: now)
        try await create(ana)
        try await create(ben)
        let anas = try #require(try await household(of: ana.id)), bens = try #require(try await household(of: ben.id))
        #expect(anas.household.name == "Ana's household" && bens.household.name == "My household")
        #expect(anas.household.id != bens.household.id)
        #expect(anas.members == [Household.Member(id: ana.id, displayName: "Ana", role: .owner)])
        #expect(anas.household.createdAt == now && anas.role(of: ben.id) == nil)
    }

    @Test func theOwnerRenamesItAndABadNameChangesNothing() async throws {
        let ana = account("ana@example.com", "Ana")
        try await CreateAccount(accounts: libraries.accounts, now: now)(ana)
        let later = now.addingTimeInterval(60)
        let rename = RenameHousehold(accounts: libraries.accounts, now: later)
        let renamed = try await rename(by: ana.id, to: "  The Smiths \u{202E}  ")
        #expect(renamed.household.name == "The Smiths \u{202E}" && renamed.household.updatedAt == later)
        #expect(try await household(of: ana.id)?.household.name == "The Smiths \u{202E}")
        for bad in ["", "   ", String(repeating: "é", count: Household.maximumNameLength + 1)] {
            let refused = await #expect(throws: ValidationError.self) { try await rename(by: ana.id, to: bad) }
            #expect(refused?.fields.map(\.field) == ["name"])
        }
        #expect(try await household(of: ana.id)?.household.name == "The Smiths \u{202E}")
        // Someone in no household (no account here) is refused, not answered with another's.
        let refused = await #expect(throws: Refusal.self) { try await rename(by: UUID(), to: "Mine") }
        #expect(refused == .notAllowed(RenameHousehold.ownerOnly))
    }

    @Test func deletingTheLastMemberDeletesTheHousehold() async throws {
        let (ana, ben) = (account("ana@example.com", "Ana"), account("ben@example.com", "Ben"))
        let create = CreateAccount(accounts: libraries.accounts, now: now)
        try await create(ana)
        try await create(ben)
        _ = try await libraries.accounts.write { try await $0.delete(ana.id) }
        #expect(try await household(of: ana.id) == nil)
        #expect(libraries.contents.households.count == 1 && libraries.contents.memberships.keys.elementsEqual([ben.id]))
    }
}
