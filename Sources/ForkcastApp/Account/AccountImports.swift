import ForkcastCore
import Foundation

/// Another transaction stored a record under one of the archive's ids after
/// ``AccountImports/heldIDs(_:)`` found it free (the same export imported into two accounts at
/// once): the store's refusal, `underlying` (the server's: a primary key's constraint).
public struct IDTakenMeanwhile: Error {
    public let underlying: any Error
    public init(_ underlying: any Error) { self.underlying = underlying }
}

/// The signed-in person's whole account, as an import fills it and, when it fails, empties it again.
public protocol AccountImports: Sendable {
    /// The archive's record ids that some account on this server holds already.
    func heldIDs(_ archive: AccountArchive) async throws -> Set<UUID>
    /// Runs `body` as one transaction over the person's account: all of it is stored, or none of it
    /// when it throws. A record the store refuses because its id is stored already is
    /// ``IDTakenMeanwhile``; any other refusal is thrown as it is.
    func write<T: Sendable>(_ body: @escaping @Sendable (any AccountImportRecords) async throws -> T) async throws -> T
    /// What an import changes besides creating records, as it is now.
    func snapshot() async throws -> AccountSnapshot
    /// Takes back a failed import: every record of `archive` the person holds goes (with a deletion
    /// in the change feed, so a device that saw part of it forgets it too), and the settings, meal
    /// types, goals and body profile are put back as `snapshot` holds them.
    func takeBack(_ archive: AccountArchive, restoring snapshot: AccountSnapshot) async throws
    /// Removes the stored files of these photos where no photo record holds them (written by a
    /// transaction that did not commit).
    func forgetPhotoFiles(_ ids: [UUID]) async
    /// An empty copy of the person's account (their settings, the built-in meal types) where a dry
    /// run writes: nothing it does reaches this store or waits for its other writers.
    func rehearsal() async throws -> any AccountImports
}

/// The person's account inside one ``AccountImports/write(_:)``. The stores it hands out write in
/// this same transaction.
public protocol AccountImportRecords: Sendable {
    /// Waits until no other transaction changes the person's records, and keeps them waiting until
    /// this one ends.
    func lockOwner() async throws
    /// What the person holds that an import would have to merge with, named for them ("foods",
    /// "meal types of your own"); empty when the account is empty (built-in meal types aside).
    func heldRecords() async throws -> [String]
    var library: any Library { get }
    var settings: any SettingsStore { get }
    var body: any BodyStore { get }
    /// Stores diary entries as they are, with their change-feed rows.
    func insertDiary(_ entries: [DiaryEntry], now: Date) async throws
    /// Stores the photo: its bytes read from the archive and checked as an upload's are (a
    /// ``ValidationError`` when they are not an image). Returns the bytes stored.
    func storePhoto(_ record: AccountArchive.PhotoRecord, index: Int) async throws -> Int
    /// A recipe's photo, its bytes read from the archive and checked as an upload's are
    /// (``MealPhoto/init(importing:)``), with an id of its own.
    func recipePhoto(_ record: AccountArchive.RecipePhotoRecord) async throws -> MealPhoto
}

/// What an import may change besides the records it creates, kept to put back if it fails.
public struct AccountSnapshot: Sendable {
    public var settings: AccountSettings
    public var mealTypes: [MealType]
    public var goals: Goals?
    public var profile: BodyProfile?

    public init(settings: AccountSettings, mealTypes: [MealType], goals: Goals?, profile: BodyProfile?) {
        self.settings = settings
        self.mealTypes = mealTypes
        self.goals = goals
        self.profile = profile
    }
}
