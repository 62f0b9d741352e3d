import ForkcastCore
import Foundation

/// An invitation: a one-time link by which the server's owner lets one person create an
/// account while sign-up is closed. Only a hash of its token is stored; the link is shown once.
public struct Invitation: Sendable, Equatable {
    public var id: UUID
    public var tokenHash: String
    public var createdBy: UUID
    public var createdAt: Date
    public var expiresAt: Date
    /// The household the link leads into (``HouseholdMembership``); nil for the server owner's
    /// invitation to create an account.
    public var household: UUID?

    public init(id: UUID, tokenHash: String, createdBy: UUID, createdAt: Date, expiresAt: Date, household: UUID? = nil) {
        self.id = id
        self.tokenHash = tokenHash
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.household = household
    }

    /// How long a link stays good (ForkcastCore's ``InvitationRules``).
    public static var lifetime: TimeInterval { InvitationRules.lifetime }
    /// At most this many links waiting at once.
    public static var openLimit: Int { InvitationRules.openLimit }

    public static let onlyTheOwner = "Only this server's owner (the account created first) can invite people."
    public static let tooMany = "There are \(openLimit) invitations waiting already; revoke one or wait until one is used."
    public static let notGood = "This invitation link has been used, revoked or has expired. Ask for a new one."
}

/// Inviting someone: the owner only, at most ``Invitation/openLimit`` waiting. The caller makes the
/// token and keeps it to show once; `tokenHash` is what is stored.
public struct InviteMember: Sendable {
    let accounts: any Accounts
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    public func callAsFunction(by person: UUID, tokenHash: String) async throws -> Invitation {
        let now = now
        return try await accounts.write { records in
            try await records.lockAccounts()
            guard try await records.firstAccountID() == person else { throw Refusal.notAllowed(Invitation.onlyTheOwner) }
            guard try await records.openInvitations(now: now, tokenHash: nil, household: nil).count < Invitation.openLimit else { throw Refusal.conflict(Invitation.tooMany) }
            let invitation = Invitation(id: UUID.timeOrdered(), tokenHash: tokenHash, createdBy: person, createdAt: now, expiresAt: now.addingTimeInterval(Invitation.lifetime))
            try await records.insert(invitation)
            return invitation
        }
    }

    /// What the Invite someone page shows `person`: whether they are the owner (who alone may
    /// invite), and the links waiting, newest first (only the owner has any). One read.
    public func waiting(for person: UUID) async throws -> (isOwner: Bool, open: [Invitation]) {
        let now = now
        return try await accounts.read { records in
            guard try await records.firstAccountID() == person else { return (false, []) }
            let open = try await records.openInvitations(now: now, tokenHash: nil, household: nil)
            return (true, open.sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) })
        }
    }

    /// Whether the link with this token hash is still open (the sign-up page asks before showing a
    /// form that cannot work; ``CreateAccount`` checks again when it creates the account).
    public func isOpen(tokenHash: String) async throws -> Bool {
        let now = now
        return try await accounts.read { try await !$0.openInvitations(now: now, tokenHash: tokenHash, household: nil).isEmpty }
    }

    /// Revokes a waiting link; false when there is none of the owner's with this id.
    public func revoke(_ id: UUID, by person: UUID) async throws -> Bool {
        try await accounts.write { records in
            guard try await records.firstAccountID() == person else { throw Refusal.notAllowed(Invitation.onlyTheOwner) }
            return try await records.deleteInvitation(id)
        }
    }
}
