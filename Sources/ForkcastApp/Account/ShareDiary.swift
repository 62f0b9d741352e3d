import ForkcastCore
import Foundation

/// Sharing one's diary read-only with a coach: making a link (the caller makes the token and shows
/// it once; `tokenHash` is what is stored), listing and revoking one's links, and opening one.
public struct ShareDiary: Sendable {
    let accounts: any Accounts
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    public static let tooMany = "You have \(DiaryLink.openLimit) diary links open already; revoke one first."

    /// Throws ``ValidationError`` for a bad range, expiry or parts, ``Refusal/conflict(_:)`` past
    /// ``DiaryLink/openLimit``.
    public func make(by person: UUID, tokenHash: String, from: CalendarDate, to: CalendarDate, expiresAt: Date?,
                     shows: [String]?) async throws -> DiaryLink {
        let now = now
        let checked = try DiaryLink.validated(from: from, to: to, expiresAt: expiresAt, shows: shows, now: now)
        return try await accounts.write { records in
            try await records.lockOwner(person)
            guard try await records.diaryLinks(of: person, now: now).count < DiaryLink.openLimit else { throw Refusal.conflict(Self.tooMany) }
            let link = DiaryLink(id: UUID.timeOrdered(), tokenHash: tokenHash, from: checked.from, to: checked.to,
                                 expiresAt: checked.expiresAt, shows: checked.shows, createdAt: now)
            try await records.insert(link, owner: person)
            return link
        }
    }

    /// The person's open links, newest first.
    public func links(of person: UUID) async throws -> [DiaryLink] {
        let now = now
        return try await accounts.read { try await $0.diaryLinks(of: person, now: now) }
    }

    /// False when the person has no link with this id.
    public func revoke(_ id: UUID, by person: UUID) async throws -> Bool {
        try await accounts.write { try await $0.deleteDiaryLink(id, owner: person) }
    }

    /// The open link with this token hash and whose diary it shows; nil once revoked or expired.
    public func open(tokenHash: String) async throws -> (link: DiaryLink, owner: UUID)? {
        let now = now
        return try await accounts.read { try await $0.diaryLink(tokenHash: tokenHash, now: now) }
    }
}
