import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

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
    private var foods: FoodRepository { FoodRepository(db: db, kitchen: Kitchen(user: ownerID)) }

    // MARK: What an entry is drafted from

    /// One of the person's foods: kept while none of their foods changes (logging reads one per
    /// entry), read afresh inside a write.
    func food(_ id: UUID) async throws -> Food? {
        // Inside a write, the write's own changes are not in the feed yet: always read.
        guard let kept, !(db is WriteTransaction) else { return try await foods.find(id) }
        return try await kept.cache.value("food \(id)", owner: ownerID, version: kept.versions.foods, now: now) { try await foods.find(id) }
    }

    func foods(ids: [UUID]) async throws -> [UUID: Food] { try await foods.find(ids: ids) }

    func meal(_ id: UUID) async throws -> Meal? { try await MealRepository(db: db, kitchen: Kitchen(user: ownerID)).find(id) }

    /// The person's meal types: kept while none of them changes (logging reads them on every entry).
    func mealTypes(now: Date) async throws -> MealTypeCatalog {
        let types = MealTypeRepository(db: db, kitchen: Kitchen(user: ownerID))
        guard let kept, !(db is WriteTransaction) else { return try await types.catalog(now: now) }
        return try await kept.cache.value("mealTypes", owner: ownerID, version: kept.versions.mealTypes, now: now) { try await types.catalog(now: now) }
    }

    func assignment(_ id: UUID) async throws -> Assignment? { try await PlanRepository(db: db, kitchen: Kitchen(user: ownerID)).find(id) }
    func entry(_ id: UUID) async throws -> DiaryEntry? { try await entries.find(id) }
    func entries(on date: CalendarDate) async throws -> [DiaryEntry] { try await entries.entries(on: date) }
    func hasPhoto(_ id: UUID) async throws -> Bool { try await photos.find(id) != nil }
    func entry(showingPhoto id: UUID) async throws -> UUID? { try await entries.entry(showingPhoto: id) }

    // MARK: Writes (each one transaction, with its change-feed rows)

    /// Where an entry is written, whichever door it came through: its row and its change in the
    /// feed, in one write (``Database/write(timeout:_:)``).
    func insert(_ new: [DiaryEntry], now: Date) async throws { try await Self.insert(new, owner: ownerID, on: db, now: now) }

    /// The same for any owner, as part of the write `db` is in, if any (an import's).
    static func insert(_ new: [DiaryEntry], owner: UUID, on db: any Database, now: Date) async throws {
        guard !new.isEmpty else { return }
        let models = new.map { DiaryEntryModel($0, ownerID: owner, now: now) }
        try await db.write { tx in
            try await models.insert(on: tx)
            try await SyncLog.record(.diaryEntry, new.map(\.id), op: .upsert, owner: owner, on: tx, now: now)
        }
    }

    func insert(_ entry: DiaryEntry, showing photo: NewPhoto, now: Date) async throws -> Photo {
        let diary = self
        return try await db.write { tx in
            let stored = try await PhotoRepository(db: tx, ownerID: diary.ownerID, store: diary.photoStore, quotaBytes: diary.photoQuotaBytes)
                .create(photo.data, thumbnail: photo.thumbnail, capturedAt: photo.capturedAt, id: photo.id, now: now)
            try await Self.insert([entry], owner: diary.ownerID, on: tx, now: now)
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

/// Plain `INSERT INTO t (columns) VALUES (?, …), …` statements for new models, with the columns and
/// values each model gives through Fluent's own input.
///
/// What Fluent's `create` does too, minus building its query tree and escaping every identifier
/// through SQLKit's serializer, which was the largest single cost of logging an entry (docs/performance.md).
/// Fluent's model middleware is not run (this project has none), nor `@Timestamp`: models that have
/// one use `create`.
enum PlainInsert {
    /// The rows one statement takes (21 columns each stay well within SQLite's 32,766 variables).
    static let rowsPerStatement = 500

    /// One statement per ``rowsPerStatement`` rows; nil when a model's input is not plain values (a database
    /// default, an enum case, a nested dictionary) or the models do not all give the same columns.
    static func statements<M: Model>(_ models: [M]) -> [SQLQueryString]? {
        guard !models.isEmpty else { return [] }
        let rows = models.map { model in
            let input = Input()
            model.input(to: input)
            return input
        }
        let columns = rows[0].keys
        guard rows.allSatisfy({ $0.plain && $0.keys == columns }),
              columns.allSatisfy({ $0.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 } }) else {
            return nil
        }
        let head = "INSERT INTO \"\(M.schema)\" (" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ") VALUES "
        return stride(from: 0, to: rows.count, by: rowsPerStatement).map { start in
            "\(unsafeRaw: head)\(SQLList(rows[start..<min(start + rowsPerStatement, rows.count)].map { SQLGroupExpression($0.values) }))"
        }
    }

    /// Collects a model's columns and values, as Fluent's query would bind them.
    private final class Input: DatabaseInput {
        var keys: [String] = []
        var values: [any SQLExpression] = []
        /// false once a value was not a plain one.
        var plain = true
        let wantsUnmodifiedKeys = false

        func set(_ value: DatabaseQuery.Value, at key: FieldKey) {
            keys.append(key.description)
            switch value {
            case .bind(let encodable):
                values.append((encodable as? any OptionalValue)?.isNone == true ? SQLLiteral.null : SQLBind(encodable))
            case .null:
                values.append(SQLLiteral.null)
            default:
                plain = false
            }
        }
    }
}

extension Collection where Element: Model, Self: Sendable {
    /// Inserts these new models with ``PlainInsert`` statements (Fluent's `create` when they are
    /// not plain values, or the database is not an SQL one).
    func insert(on db: any Database) async throws {
        guard let sql = db as? any SQLDatabase, let statements = PlainInsert.statements(Array(self)) else {
            return try await create(on: db)
        }
        for statement in statements { try await sql.raw(statement).run() }
        for model in self { model._$idExists = true }
    }
}

private protocol OptionalValue { var isNone: Bool { get } }
extension Optional: OptionalValue { var isNone: Bool { self == nil } }
