import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// ``ShareDiary`` on the in-memory accounts: links are the person's own, at most twenty open, and
/// stop opening once revoked or expired.
@Suite("Sharing a diary with a coach, alone on the in-memory store")
struct ShareDiaryTests {
    let libraries = InMemoryLibraries()
    let now = Date(timeIntervalSince1970: 1_795_392_000)
    let day = CalendarDate(iso: "2026-11-20")!

    func person(_ email: String) async throws -> UUID {
        let account = Account(id: UUID(), email: email, passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
        try await CreateAccount(accounts: libraries.accounts, now: now)(account)
        return account.id
    }

    @Test func aLinkOpensItsPersonsDiaryUntilRevokedOrExpired() async throws {
        let (ana, ben) = (try await person("ana@example.com"), try await person("ben@example.com"))
        let share = ShareDiary(accounts: libraries.accounts, now: now)
        let link = try await share.make(by: ana, tokenHash: "hash-1", from: day, to: day.adding(days: 6), expiresAt: now.addingTimeInterval(3600), shows: ["weights"])
        #expect(link.shows == [.weights])
        #expect(try await share.links(of: ana).map(\.id) == [link.id])
        #expect(try await share.links(of: ben).isEmpty)
        #expect(try await share.open(tokenHash: "hash-1")?.owner == ana)
        #expect(try await share.open(tokenHash: "hash-2") == nil)
        // Only its person revokes it.
        #expect(try await !share.revoke(link.id, by: ben))
        #expect(try await share.open(tokenHash: "hash-1") != nil)
        // An hour later it has expired: neither opened nor listed.
        let later = ShareDiary(accounts: libraries.accounts, now: now.addingTimeInterval(3600))
        #expect(try await later.open(tokenHash: "hash-1") == nil)
        #expect(try await later.links(of: ana).isEmpty)
        #expect(try await share.revoke(link.id, by: ana))
        #expect(try await share.open(tokenHash: "hash-1") == nil)
    }

    @Test func badLinksAndTheTwentyFirstStoreNothing() async throws {
        let ana = try await person("ana@example.com")
        let share = ShareDiary(accounts: libraries.accounts, now: now)
        await #expect(throws: ValidationError.self) { _ = try await share.make(by: ana, tokenHash: "x", from: day, to: day.adding(days: -1), expiresAt: nil, shows: nil) }
        for i in 0..<DiaryLink.openLimit { _ = try await share.make(by: ana, tokenHash: "h\(i)", from: day, to: day, expiresAt: nil, shows: nil) }
        let refused = await #expect(throws: Refusal.self) { _ = try await share.make(by: ana, tokenHash: "one more", from: day, to: day, expiresAt: nil, shows: nil) }
        #expect(refused == .conflict(ShareDiary.tooMany))
        #expect(libraries.contents.diaryLinks.count == DiaryLink.openLimit)
        // Deleting the account deletes its links.
        _ = try await libraries.accounts.write { try await $0.delete(ana) }
        #expect(libraries.contents.diaryLinks.isEmpty)
    }
}
