import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// ``ManageAPIKeys`` on the in-memory accounts, and what a key permits.
@Suite("Keys for other programs, alone on the in-memory store")
struct ManageAPIKeysTests {
    let libraries = InMemoryLibraries()
    let now = Date(timeIntervalSince1970: 1_795_392_000)

    func person(_ email: String) async throws -> UUID {
        let account = Account(id: UUID(), email: email, passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
        try await CreateAccount(accounts: libraries.accounts, now: now)(account)
        return account.id
    }

    @Test func aKeyOpensUntilRevokedOrExpiredAndNotesItsUseEachMinute() async throws {
        let (ana, ben) = (try await person("ana@example.com"), try await person("ben@example.com"))
        let keys = ManageAPIKeys(accounts: libraries.accounts, now: now)
        let key = try await keys.make(by: ana, tokenHash: "h1", name: "  Home Assistant ", access: .read, areas: ["plan", "pantry"], expiresAt: nil)
        #expect(key.name == "Home Assistant" && key.areas == [.plan, .pantry] && key.expiresAt == now.addingTimeInterval(90 * 86_400))
        #expect(try await keys.open(tokenHash: "h1")?.owner == ana)
        #expect(libraries.contents.apiKeys[key.id]?.value.lastUsedAt == now)
        let later = ManageAPIKeys(accounts: libraries.accounts, now: now.addingTimeInterval(30))
        _ = try await later.open(tokenHash: "h1")
        #expect(libraries.contents.apiKeys[key.id]?.value.lastUsedAt == now, "not written again within the minute")
        _ = try await ManageAPIKeys(accounts: libraries.accounts, now: now.addingTimeInterval(61)).open(tokenHash: "h1")
        #expect(libraries.contents.apiKeys[key.id]?.value.lastUsedAt == now.addingTimeInterval(61))
        #expect(try await !keys.revoke(key.id, by: ben))
        #expect(try await ManageAPIKeys(accounts: libraries.accounts, now: now.addingTimeInterval(91 * 86_400)).open(tokenHash: "h1") == nil, "expired")
        #expect(try await keys.revoke(key.id, by: ana))
        #expect(try await keys.open(tokenHash: "h1") == nil)
    }

    @Test func whatAKeyPermitsAndWhatIsRefused() async throws {
        let key = APIKey(id: UUID(), tokenHash: "", name: "k", access: .read, areas: [.plan], expiresAt: now, createdAt: now)
        #expect(key.permits([.plan], writes: false) && !key.permits([.plan], writes: true))
        #expect(!key.permits([.diary], writes: false) && !key.permits(nil, writes: false) && !key.permits([], writes: false))
        var writer = key
        writer.access = .write
        #expect(writer.permits([.plan], writes: true) && !writer.permits(nil, writes: false))
        #expect(!writer.permits([.plan, .diary], writes: true), "an operation reaching the diary too needs both")
        let ana = try await person("ana@example.com")
        let keys = ManageAPIKeys(accounts: libraries.accounts, now: now)
        let refused = await #expect(throws: ValidationError.self) {
            _ = try await keys.make(by: ana, tokenHash: "x", name: "", access: .read, areas: ["plan", "everything"], expiresAt: now.addingTimeInterval(400 * 86_400))
        }
        #expect(Set(refused?.fields.map(\.field) ?? []) == ["name", "areas", "expiresAt"])
        for i in 0..<APIKey.openLimit { _ = try await keys.make(by: ana, tokenHash: "h\(i)", name: "k\(i)", access: .read, areas: ["diary"], expiresAt: nil) }
        await #expect(throws: Refusal.conflict(ManageAPIKeys.tooMany)) {
            _ = try await keys.make(by: ana, tokenHash: "one more", name: "k", access: .read, areas: ["diary"], expiresAt: nil)
        }
        _ = try await libraries.accounts.write { try await $0.delete(ana) }
        #expect(libraries.contents.apiKeys.isEmpty, "deleting the account deletes its keys")
    }
}
