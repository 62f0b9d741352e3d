import ForkcastCore
import Foundation

/// The server's accounts as ``CreateAccount`` sees them: not one person's records, so handed out by
/// the composition root, not a signed-in context.
public protocol Accounts: Sendable {
    /// Runs `body` as one transaction: all of it is stored, or none of it when it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T
    /// Runs `body` to read only, outside any write transaction (it waits behind no writer). Only
    /// the records' reads may be called in it.
    func read<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T
}

/// The accounts inside one ``Accounts/write(_:)``. Writes store records with their change-feed rows;
/// they decide no rule.
public protocol AccountRecords: Sendable {
    /// Waits until no other transaction is creating an account, and keeps them waiting until this
    /// one ends: what is counted and looked up below stays true until the insert.
    func lockAccounts() async throws
    func accountCount() async throws -> Int
    /// Whether an account signs in with this email (compared as ``Account/emailKey``).
    func hasAccount(emailKey: String) async throws -> Bool
    /// Stores the account, with its settings' change-feed row.
    func insert(_ account: Account, now: Date) async throws
    /// Stores the account's first meal types, with their change-feed rows.
    func insertMealTypes(_ types: [MealType], owner: UUID, now: Date) async throws
    /// Links a sign-in from another provider to the account.
    func link(_ identity: LinkedIdentity, to owner: UUID) async throws
    /// Waits until no other transaction changes this person's records, and keeps them waiting until
    /// this one ends.
    func lockOwner(_ owner: UUID) async throws
    /// Deletes the account and everything of it: every record, its change feed, its tokens,
    /// sessions and linked sign-ins, and its photos' files. False when there is no such account.
    func delete(_ owner: UUID) async throws -> Bool
    /// The account created first: the server's owner (who may invite people).
    func firstAccountID() async throws -> UUID?
    func insert(_ invitation: Invitation) async throws
    /// The invitations open at `now`: neither used nor expired (the one place this rule is written).
    /// Only the one with `tokenHash` when it is given (of any kind); else those into `household`,
    /// or the server owner's (nil).
    func openInvitations(now: Date, tokenHash: String?, household: UUID?) async throws -> [Invitation]
    /// Marks the invitation used by `account`; false when it was used already.
    func markInvitationUsed(_ id: UUID, by account: UUID, at date: Date) async throws -> Bool
    func deleteInvitation(_ id: UUID) async throws -> Bool
    /// Stores a household with `owner` in it as its owner (an account is in exactly one).
    func insert(_ household: Household, owner: UUID, now: Date) async throws
    /// The household `member` is in, with its members: the owner first, then by when they joined.
    func household(of member: UUID) async throws -> HouseholdMembers?
    /// Stores the household's changed name.
    func replace(_ household: Household) async throws
    /// The household with this id and its members.
    func members(of household: UUID) async throws -> HouseholdMembers?
    /// What `member`'s household shares: what would join another household with them.
    func share(of member: UUID) async throws -> HouseholdShare
    /// Moves `member` into `household` as a member, out of the household they are alone in (which
    /// ends), or as a new account. Their meals, foods, meal types, plan and lists become the
    /// household's, ids kept; meal types of a name the household has become its type.
    func join(_ member: UUID, household: UUID, now: Date) async throws
    /// Takes `member` out of their household into `new`, a household of their own with them as its
    /// owner. What they added stays, held by `keeper`; they take a copy of the library (meals,
    /// foods, meal types), not the plan or lists.
    func separate(_ member: UUID, keeper: UUID, into new: Household, now: Date) async throws
    func setRole(_ member: UUID, _ role: Household.Role) async throws
    func insert(_ link: DiaryLink, owner: UUID) async throws
    /// The person's links open at `now` (not expired), newest first.
    func diaryLinks(of owner: UUID, now: Date) async throws -> [DiaryLink]
    /// The link open at `now` with this token hash, and whose diary it shows.
    func diaryLink(tokenHash: String, now: Date) async throws -> (link: DiaryLink, owner: UUID)?
    /// Deletes the person's link; false when they have none with this id.
    func deleteDiaryLink(_ id: UUID, owner: UUID) async throws -> Bool
    func insert(_ feed: CalendarFeed, owner: UUID) async throws
    /// The person's calendar feeds, newest first.
    func calendarFeeds(of owner: UUID) async throws -> [CalendarFeed]
    /// The feed with this token hash, and whose plan it shows.
    func calendarFeed(tokenHash: String) async throws -> (feed: CalendarFeed, owner: UUID)?
    /// Deletes the person's feed; false when they have none with this id.
    func deleteCalendarFeed(_ id: UUID, owner: UUID) async throws -> Bool
    func insert(_ key: APIKey, owner: UUID) async throws
    /// The person's keys open at `now`, newest first.
    func apiKeys(of owner: UUID, now: Date) async throws -> [APIKey]
    /// The key open at `now` with this token hash, and whose it is.
    func apiKey(tokenHash: String, now: Date) async throws -> (key: APIKey, owner: UUID)?
    func touchAPIKey(_ id: UUID, at: Date) async throws
    /// Deletes the person's key; false when they have none with this id.
    func deleteAPIKey(_ id: UUID, owner: UUID) async throws -> Bool
}

/// An account as it is created.
public struct Account: Sendable, Equatable {
    public var id: UUID
    public var email: String
    /// Empty for an account that signs in only with another provider.
    public var passwordHash: String
    public var displayName: String?
    public var timeZone: String
    public var currency: String

    public init(id: UUID, email: String, passwordHash: String, displayName: String?, timeZone: String, currency: String) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.timeZone = timeZone
        self.currency = currency
    }

    /// What makes two accounts' emails the same: the email, lower-cased.
    public var emailKey: String { Self.emailKey(email) }

    public static func emailKey(_ email: String) -> String { email.lowercased() }
}

/// A sign-in from Apple or an OpenID Connect provider, linked to an account.
public struct LinkedIdentity: Sendable, Hashable {
    public var provider: String
    public var subject: String
    /// The email the provider gave, if any.
    public var email: String?

    public init(provider: String, subject: String, email: String?) {
        self.provider = provider
        self.subject = subject
        self.email = email
    }
}
