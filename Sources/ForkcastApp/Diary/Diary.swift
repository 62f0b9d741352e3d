import ForkcastCore
import Foundation

/// One person's diary as the use cases see it: what an entry is drafted from (their foods, meals,
/// plan, meal types and photos) and the entries themselves.
///
/// Like ``Library``, an implementation is made for one person and reaches only their records. Reads
/// of foods and meal types may be answered from a cache kept between requests (logging reads them
/// on every entry); each write is one transaction that stores the entries with their change-feed
/// rows, all of them or none. The server's is Fluent's (SQLite or PostgreSQL); ``InMemoryDiary`` is
/// the fake, and the same contract tests run against all three.
public protocol Diary: Sendable {
    /// The person's id: it names their occasions.
    var owner: UUID { get }
    /// The person's time zone: which day an entry is on.
    var zone: TimeZone { get }

    func food(_ id: UUID) async throws -> Food?
    /// The person's foods among `ids`, by id.
    func foods(ids: [UUID]) async throws -> [UUID: Food]
    func meal(_ id: UUID) async throws -> Meal?
    /// The person's meal types; the defaults when they have none stored.
    func mealTypes(now: Date) async throws -> MealTypeCatalog
    func assignment(_ id: UUID) async throws -> Assignment?
    func entry(_ id: UUID) async throws -> DiaryEntry?
    func entries(on date: CalendarDate) async throws -> [DiaryEntry]
    /// Whether the person has this photo.
    func hasPhoto(_ id: UUID) async throws -> Bool
    /// The entry showing a photo, if any.
    func entry(showingPhoto id: UUID) async throws -> UUID?

    /// Stores new entries, all or none (a plate is one change).
    func insert(_ entries: [DiaryEntry], now: Date) async throws
    /// Stores a captured photo and the entry showing it in one transaction; the photo as stored.
    /// Throws when the photo is not an image the server takes or does not fit the person's quota.
    func insert(_ entry: DiaryEntry, showing photo: NewPhoto, now: Date) async throws -> Photo
    /// Stores a photo on its own (an upload its entry will show), as ``insert(_:showing:now:)`` checks it.
    func store(_ photo: NewPhoto, now: Date) async throws -> Photo
    /// Replaces an entry, deleting `deletingPhoto` (the photo it showed) in the same transaction;
    /// false when the person has no entry with its id.
    func replace(_ entry: DiaryEntry, deletingPhoto: UUID?, now: Date) async throws -> Bool
    /// Deletes an entry with the photo it shows; the entry deleted, nil when there was none.
    func delete(_ id: UUID, now: Date) async throws -> DiaryEntry?
}

extension Diary {
    /// The person's today at `now`.
    func today(now: Date) -> CalendarDate { CalendarDate(now, in: zone) }
}
