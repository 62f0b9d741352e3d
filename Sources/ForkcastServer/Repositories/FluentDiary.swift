import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

/// One person's diary on the server's database (SQLite or PostgreSQL), for the diary's use cases in
/// ForkcastApp (``LogEntry``, ``EditEntry``, ``DeleteEntry``), and the reads the diary's pages and
/// answers are made from. Made only by ``Owner`` from the signed-in person, so every record it
/// reaches is theirs.
struct FluentDiary: Diary {
    let user: UserModel
    let db: any Database
    /// The time of the request.
    let now: Date
    let photoStore: any PhotoStore
    /// What all of the person's photos may take.
    var photoQuotaBytes: Int64 = .max
    /// Where the person's meal types and foods may be kept between requests: the read cache and
    /// their versions, read when the request was signed in (nil: read them afresh).
    var kept: (cache: ReadCache, versions: KeptVersions)? = nil

    var owner: UUID { user.id! }
    var ownerID: UUID { owner }
    var zone: TimeZone { user.zone }
    var entries: DiaryRepository { DiaryRepository(db: db, ownerID: ownerID, photoStore: photoStore) }
    var photos: PhotoRepository { PhotoRepository(db: db, ownerID: ownerID, store: photoStore, quotaBytes: photoQuotaBytes) }
    private var foods: FoodRepository { FoodRepository(db: db, ownerID: ownerID) }

    // MARK: What an entry is drafted from

    /// One of the person's foods: kept while none of their foods changes (logging reads one per
    /// entry), read afresh inside a write.
    func food(_ id: UUID) async throws -> Food? {
        // Inside a write, the write's own changes are not in the feed yet: always read.
        guard let kept, !(db is WriteTransaction) else { return try await foods.find(id) }
        return try await kept.cache.value("food \(id)", owner: ownerID, version: kept.versions.foods, now: now) { try await foods.find(id) }
    }

    func foods(ids: [UUID]) async throws -> [UUID: Food] { try await foods.find(ids: ids) }

    func meal(_ id: UUID) async throws -> Meal? { try await MealRepository(db: db, ownerID: ownerID).find(id) }

    /// The person's meal types: kept while none of them changes (logging reads them on every entry).
    func mealTypes(now: Date) async throws -> MealTypeCatalog {
        let types = MealTypeRepository(db: db, ownerID: ownerID)
        guard let kept, !(db is WriteTransaction) else { return try await types.catalog(now: now) }
        return try await kept.cache.value("mealTypes", owner: ownerID, version: kept.versions.mealTypes, now: now) { try await types.catalog(now: now) }
    }

    func assignment(_ id: UUID) async throws -> Assignment? { try await PlanRepository(db: db, ownerID: ownerID).find(id) }
    func entry(_ id: UUID) async throws -> DiaryEntry? { try await entries.find(id) }
    func entries(on date: CalendarDate) async throws -> [DiaryEntry] { try await entries.entries(on: date) }
    func hasPhoto(_ id: UUID) async throws -> Bool { try await photos.find(id) != nil }
    func entry(showingPhoto id: UUID) async throws -> UUID? { try await entries.entry(showingPhoto: id) }

    // MARK: Writes (each one transaction, with its change-feed rows)

    func insert(_ new: [DiaryEntry], now: Date) async throws { try await entries.create(new, now: now) }

    func insert(_ entry: DiaryEntry, showing photo: NewPhoto, now: Date) async throws -> Photo {
        let diary = self
        return try await db.write { tx in
            let stored = try await PhotoRepository(db: tx, ownerID: diary.ownerID, store: diary.photoStore, quotaBytes: diary.photoQuotaBytes)
                .create(photo.data, thumbnail: photo.thumbnail, capturedAt: photo.capturedAt, id: photo.id, now: now)
            try await DiaryRepository(db: tx, ownerID: diary.ownerID, photoStore: diary.photoStore).create([entry], now: now)
            return stored
        }
    }

    func store(_ photo: NewPhoto, now: Date) async throws -> Photo {
        try await photos.create(photo.data, thumbnail: photo.thumbnail, capturedAt: photo.capturedAt, id: photo.id, now: now)
    }

    func replace(_ entry: DiaryEntry, deletingPhoto: UUID?, now: Date) async throws -> Bool {
        try await entries.update(entry, now: now, deletingPhoto: deletingPhoto)
    }

    func delete(_ id: UUID, now: Date) async throws -> DiaryEntry? { try await entries.delete(id, now: now) }

    // MARK: Reads for the diary's pages and answers

    func types() async throws -> MealTypeCatalog { try await mealTypes(now: now) }

    func goals() async throws -> (goals: Goals, calculation: GoalCalculation?) {
        try await BodyRepository(db: db, ownerID: ownerID).goals(today: user.today(now: now))
    }

    func day(_ date: CalendarDate) async throws -> DiaryDay {
        DiaryDay(date: date, entries: try await entries.entries(on: date), goals: try await goals().goals, types: try await types())
    }
}
