import ForkcastCore
import Foundation

/// The plan in a calendar app: making a feed's secret address (the caller makes the token and
/// shows it once; `tokenHash` is what is stored), listing, renewing and removing one's feeds, and
/// opening one.
public struct ShareCalendar: Sendable {
    let accounts: any Accounts
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    public static let tooMany = "You have \(CalendarFeed.openLimit) calendar addresses already; remove one first."

    /// Throws ``Refusal/conflict(_:)`` past ``CalendarFeed/openLimit``. `replacing`: a feed of the
    /// person's that stops in the same write (renewing: the old address stops at once).
    public func make(by person: UUID, tokenHash: String, scope: CalendarFeed.Scope, replacing: UUID? = nil) async throws -> CalendarFeed {
        let now = now
        return try await accounts.write { records in
            try await records.lockOwner(person)
            if let replacing, try await !records.deleteCalendarFeed(replacing, owner: person) {
                throw Refusal.missingReference(field: "id", detail: "No calendar address with id \(replacing) is yours.")
            }
            guard try await records.calendarFeeds(of: person).count < CalendarFeed.openLimit else { throw Refusal.conflict(Self.tooMany) }
            let feed = CalendarFeed(id: UUID.timeOrdered(), tokenHash: tokenHash, scope: scope, createdAt: now)
            try await records.insert(feed, owner: person)
            return feed
        }
    }

    /// The person's feeds, newest first.
    public func feeds(of person: UUID) async throws -> [CalendarFeed] {
        try await accounts.read { try await $0.calendarFeeds(of: person) }
    }

    /// False when the person has no feed with this id.
    public func revoke(_ id: UUID, by person: UUID) async throws -> Bool {
        try await accounts.write { try await $0.deleteCalendarFeed(id, owner: person) }
    }

    /// The feed with this token hash and whose plan it shows; nil once removed or renewed.
    public func open(tokenHash: String) async throws -> (feed: CalendarFeed, owner: UUID)? {
        try await accounts.read { try await $0.calendarFeed(tokenHash: tokenHash) }
    }
}
