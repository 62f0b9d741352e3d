import ForkcastCore
import Foundation

/// Creating an account: the one place an account is stored, whether it comes from sign-up (API or
/// web), `forkcast user create`, or a first sign-in with Apple or OpenID Connect. Password rules and
/// hashing stay with the server's sign-up (a sign-in brings no password); what is decided here is
/// decided inside the write that inserts, so two requests at once cannot both pass a check.
public struct CreateAccount: Sendable {
    let accounts: any Accounts
    /// The request's time: the time of every change.
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    public static let signupClosed = "Sign-up is closed on this server. Ask its owner to create your account (forkcast user create) or to set FORKCAST_ALLOW_SIGNUP=true."
    /// What the web's sign-up page says when it is closed: a person there has no command line.
    public static let signupClosedForPeople = "Sign-up is closed on this server. Ask its owner for an invitation link (Settings › Invite someone)."
    public static let emailTaken = "An account with that email already exists; sign in instead."

    /// Stores `account` with what every account starts with (its settings in the change feed, a
    /// household of its own, the default meal types) and, for a first sign-in, the `identity` it signed in with.
    /// `onlyIfFirst`: refused (``Refusal/notAllowed(_:)``, sign-up closed) unless no account exists
    /// yet. An email another account has (in any case) is a ``Refusal/conflict(_:)``.
    /// `invitation`: the hash of an invitation's token, used up in the same write; while sign-up is
    /// closed the account is created only if it is open (on an open server a stale link is no bar).
    public func callAsFunction(_ account: Account, onlyIfFirst: Bool = false, identity: LinkedIdentity? = nil, invitation: String? = nil) async throws {
        let now = now
        try await accounts.write { records in
            try await records.lockAccounts()
            let closed = onlyIfFirst ? try await records.accountCount() > 0 : false
            if closed, invitation == nil { throw Refusal.notAllowed(Self.signupClosed) }
            if try await records.hasAccount(emailKey: account.emailKey) { throw Refusal.conflict(Self.emailTaken) }
            try await records.insert(account, now: now)
            // A link used up, expired or unknown matters only where sign-up is closed.
            var redeemed: Invitation?
            if let invitation, let open = try await records.openInvitations(now: now, tokenHash: invitation, household: nil).first {
                // Two sign-ups with one link take turns (``AccountRecords/lockAccounts()``): the
                // second finds it used.
                if try await records.markInvitationUsed(open.id, by: account.id, at: now) { redeemed = open }
            }
            if invitation != nil, redeemed == nil, closed { throw Refusal.notAllowed(Invitation.notGood) }
            if let household = redeemed?.household, let target = try await records.members(of: household),
               target.members.count < HouseholdMembers.memberLimit {
                // A household's link: the account lands in it, with its library.
                try await records.lockOwner(household)
                try await records.join(account.id, household: household, now: now)
            } else {
                let household = Household(id: UUID.timeOrdered(), name: Household.defaultName(for: account.displayName), createdAt: now, updatedAt: now)
                try await records.insert(household, owner: account.id, now: now)
                try await records.insertMealTypes(MealTypeCatalog.defaults(owner: account.id, now: now).all, owner: account.id, now: now)
            }
            if let identity { try await records.link(identity, to: account.id) }
        }
    }
}
