import ForkcastCore
import Foundation

/// Libraries kept in memory, for many people: the fake the use cases are tested with alone (no
/// database, no server), held to the same contract as the server's SQLite and PostgreSQL ones.
///
/// Writers take turns (one transaction at a time, like SQLite's writer and PostgreSQL's per-person
/// lock), each works on a copy, and the copy replaces the records only when the transaction
/// returns: a transaction that throws leaves nothing behind.
public final class InMemoryLibraries: @unchecked Sendable {
    private let lock = NSLock()
    private var records = Records()
    private var writing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// One person's library.
    public func library(of owner: UUID) -> InMemoryLibrary { InMemoryLibrary(libraries: self, owner: owner) }

    /// One person's body profile, goals and weights.
    public func body(of owner: UUID) -> InMemoryBodyStore { InMemoryBodyStore(libraries: self, owner: owner) }

    /// The accounts (see ``InMemoryAccounts``).
    public var accounts: InMemoryAccounts { InMemoryAccounts(libraries: self) }

    /// One person's account as an import fills it (see ``InMemoryAccountImports``).
    public func imports(of owner: UUID, settings: InMemorySettingsStore, now: Date,
                        recipePhotoBytes: @escaping @Sendable (AccountArchive.RecipePhotoRecord) async throws -> Data = { _ in throw ValidationError(field: "file", "No such file.") },
                        photoBytes: @escaping @Sendable (AccountArchive.PhotoRecord) async throws -> Data) -> InMemoryAccountImports {
        InMemoryAccountImports(libraries: self, owner: owner, settings: settings, now: now, recipePhotoBytes: recipePhotoBytes, photoBytes: photoBytes)
    }

    /// One person's diary, in their time zone.
    public func diary(of owner: UUID, zone: TimeZone) -> InMemoryDiary { InMemoryDiary(libraries: self, owner: owner, zone: zone) }

    /// Everything stored, for tests to look at.
    public var contents: Records { lock.withLock { records } }

    /// What is stored: every person's records, each row with its owner, and the change feed.
    public struct Records: Sendable {
        public internal(set) var foods: [UUID: Owned<Food>] = [:]
        public internal(set) var meals: [UUID: Owned<Meal>] = [:]
        /// The read-only link token of each shared meal.
        public internal(set) var recipeLinks: [UUID: String] = [:]
        /// Recipes' photos by photo id.
        public internal(set) var mealPhotos: [UUID: MealPhoto] = [:]
        public internal(set) var assignments: [UUID: Owned<Assignment>] = [:]
        public internal(set) var templates: [UUID: Owned<PlanTemplate>] = [:]
        public internal(set) var mealTypes: [UUID: Owned<MealType>] = [:]
        public internal(set) var profiles: [UUID: BodyProfile] = [:]
        public internal(set) var goals: [UUID: Goals] = [:]
        public internal(set) var weights: [UUID: Owned<WeightEntry>] = [:]
        public internal(set) var entries: [UUID: Owned<DiaryEntry>] = [:]
        public internal(set) var photos: [UUID: Owned<Photo>] = [:]
        public internal(set) var shoppingLists: [UUID: Owned<ShoppingList>] = [:]
        public internal(set) var shoppingItems: [UUID: Owned<ShoppingItem>] = [:]
        public internal(set) var pantryItems: [UUID: Owned<PantryItem>] = [:]
        public internal(set) var pantryUses: [Owned<PantryUse>] = []
        /// Plan entries whose ingredients were taken out of the pantry.
        public internal(set) var cookedEntries: Set<UUID> = []
        public internal(set) var accounts: [UUID: Account] = [:]
        /// Account ids in the order they were created (the first is the owner).
        public internal(set) var accountOrder: [UUID] = []
        public internal(set) var invitations: [UUID: Invitation] = [:]
        public internal(set) var households: [UUID: Household] = [:]
        public internal(set) var diaryLinks: [UUID: Owned<DiaryLink>] = [:]
        public internal(set) var calendarFeeds: [UUID: Owned<CalendarFeed>] = [:]
        public internal(set) var apiKeys: [UUID: Owned<APIKey>] = [:]
        /// Each account's household, role and when it joined.
        public internal(set) var memberships: [UUID: (household: UUID, role: Household.Role, joinedAt: Date)] = [:]
        /// Each used invitation, with the account it created.
        public internal(set) var usedInvitations: [UUID: UUID] = [:]
        /// Each linked sign-in, with the account it signs in to.
        public internal(set) var identities: [LinkedIdentity: UUID] = [:]
        /// One row per record stored or deleted, in order: what a synced device would be sent.
        public internal(set) var changes: [Change] = []

        /// Whether a shared record `holder` added (a food, meal, meal type, plan entry or shopping
        /// list) is `person`'s kitchen's: theirs or a member's of their household, as the server's
        /// ``Kitchen`` reads it. Nil, no record: false.
        public func shares(_ holder: UUID?, with person: UUID) -> Bool {
            guard let holder else { return false }
            if holder == person { return true }
            guard let household = memberships[person]?.household else { return false }
            return memberships[holder]?.household == household
        }
    }

    public struct Owned<Value: Sendable>: Sendable {
        public let owner: UUID
        public var value: Value
    }

    public struct Change: Sendable, Equatable {
        public typealias Kind = SyncKind
        public let kind: Kind
        public let id: UUID
        public let deleted: Bool
        public let at: Date

        public init(kind: Kind, id: UUID, deleted: Bool, at: Date) {
            self.kind = kind
            self.id = id
            self.deleted = deleted
            self.at = at
        }
    }

    /// An id stored twice: what a database's primary key refuses.
    public struct DuplicateID: Error, Sendable { public let id: UUID }

    /// A second weighing of one person at one instant: what the database's unique index refuses.
    public struct SameInstant: Error, Sendable { public let at: Date }

    /// A photo shown by a second entry: what the database's unique index refuses.
    public struct PhotoShownTwice: Error, Sendable { public let photo: UUID }

    /// Runs `body` as one of `owner`'s transactions: on its turn, on a copy that replaces the
    /// records only when `body` returns.
    func transaction<T: Sendable>(owner: UUID, _ body: (InMemoryLibrary.Transaction) async throws -> T) async rethrows -> T {
        await turn()
        defer { done() }
        let tx = InMemoryLibrary.Transaction(owner: owner, records: contents)
        let result = try await body(tx)
        let committed = tx.records
        lock.withLock { records = committed }
        return result
    }

    private func turn() async {
        await withCheckedContinuation { (next: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if writing { waiting.append(next); return false }
                writing = true
                return true
            }
            if now { next.resume() }
        }
    }

    private func done() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiting.isEmpty { writing = false; return nil }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
