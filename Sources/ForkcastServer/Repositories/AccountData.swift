import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor
import ZIPFoundation

/// A person's whole account (seed 003's "delete all stored data"): export it as one archive
/// (docs/export-format.md), import such an archive into an empty account, delete it. The API, the
/// Settings pages and the `forkcast import` command all call these.
struct AccountData {
    let user: UserModel
    let db: any Database
    let photoStore: any PhotoStore
    let now: Date

    var ownerID: UUID { user.id! }

    // MARK: Export

    /// Every record of the account, as stored.
    func archive() async throws -> AccountArchive {
        let owner = ownerID
        let types = try await MealTypeModel.query(on: db).filter(\.$ownerID == owner).sort(\.$position).all().map(\.domain)
        let foods = try await FoodModel.query(on: db).filter(\.$ownerID == owner).sort(\.$createdAt).sort(\.$id).all().map(\.domain)
        let meals = try await MealRepository(db: db, ownerID: owner).all()
        let plan = try await AssignmentModel.query(on: db).filter(\.$ownerID == owner).sort(\.$date).sort(\.$id).all().map(\.domain)
        let diary = try await DiaryEntryModel.query(on: db).filter(\.$ownerID == owner).sort(\.$loggedAt).sort(\.$id).all().map(\.domain)
        let photos = try await PhotoModel.query(on: db).filter(\.$ownerID == owner).sort(\.$capturedAt).sort(\.$id).all()
        let body = BodyRepository(db: db, ownerID: owner)
        let weights = try await body.weights().map {
            AccountArchive.WeightRecord(id: $0.id, measuredAt: $0.measuredAt, weightKg: $0.weightKg, source: $0.source)
        }
        var records: [AccountArchive.PhotoRecord] = []
        for photo in photos {
            let format = ImageFormat(rawValue: photo.format) ?? .jpeg
            let thumbnail = photo.thumbnailSize > 0 ? try await photoStore.load(photo.id!, variant: .thumbnail, on: db) : nil
            let paths = AccountArchive.PhotoRecord.paths(photo.id!, format: format, thumbnail: thumbnail.map { (try? ImageFile.inspect($0).format) ?? .jpeg })
            records.append(.init(id: photo.id!, format: format, width: photo.width, height: photo.height, capturedAt: photo.capturedAt,
                                 createdAt: photo.createdAt, file: paths.file, thumbnail: paths.thumbnail))
        }
        return AccountArchive(
            exportedAt: now,
            account: .init(email: user.email, displayName: user.displayName, timeZone: user.timeZone, currency: user.currency, createdAt: user.createdAt),
            mealTypes: types, foods: foods, meals: meals, plan: plan, diary: diary, photos: records, weights: weights,
            goals: try await body.storedGoals(), bodyProfile: try await body.profile(), owner: owner)
    }

    /// Writes the export zip to `url`: forkcast.json, the photos, the diary as CSV and a README.
    @discardableResult
    func writeArchive(to url: URL) async throws -> AccountArchive {
        let document = try await archive()
        let zip = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ data: Data) throws {
            try zip.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: now, compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        // forkcast.json goes through a temporary file a record at a time: years of a diary never sit
        // in memory as one JSON document.
        let json = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).json")
        defer { try? FileManager.default.removeItem(at: json) }
        guard FileManager.default.createFile(atPath: json.path, contents: nil) else { throw AppError.storageUnavailable }
        let handle = try FileHandle(forWritingTo: json)
        do {
            try document.writeJSON(encoder: AccountArchive.encoder) { try handle.write(contentsOf: $0) }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        try zip.addEntry(with: AccountArchive.documentPath, fileURL: json, compressionMethod: .deflate)
        try add("diary.csv", Data(DiaryExport.csv(document.diary).utf8))
        try add("README.txt", Data(Self.readme.utf8))
        for photo in document.photos {
            if let data = try await photoStore.load(photo.id, variant: .full, on: db) { try add(photo.file, data) }
            if let path = photo.thumbnail, let data = try await photoStore.load(photo.id, variant: .thumbnail, on: db) { try add(path, data) }
        }
        return document
    }

    static let readme = """
    A Forkcast export: everything one account held when it was made.

    forkcast.json   every record as stored: account settings, meal types, foods, meals, the plan,
                    the diary, photos (their facts), weights, goals, body profile, and the
                    occasions derived from the diary. Ids are kept; instants are ISO 8601 in UTC.
    photos/         each photo and its thumbnail, named by the photo's id.
    diary.csv       the diary as a spreadsheet (the same columns as the diary's CSV export).

    The format is described in docs/export-format.md of Forkcast. Import it into an empty account
    with Settings › Your data › Import, POST /api/v1/import, or `forkcast import FILE --email ADDRESS`.

    """

    // MARK: Import

    /// What an import did (or, in a dry run, would do).
    struct ImportReport: Content, Equatable {
        var dryRun: Bool
        /// Records created, by the archive's field names (mealTypes counts the updated built-in ones).
        var created: [String: Int]
        var photoBytes: Int
    }

    /// A photo's bytes, read from the archive when its turn comes.
    typealias PhotoFiles = @Sendable (AccountArchive.PhotoRecord) throws -> (full: Data, thumbnail: Data?)

    /// Creates every record of `archive` in this account, keeping ids: all of it or, at the first
    /// problem, nothing. Only an empty account takes an import (one with nothing but its built-in
    /// meal types). It is written in short writes (the records, then each photo, then the diary 500
    /// entries at a time, then the body), so other people's writes go on between them (one
    /// long transaction would hold SQLite's writer for the whole run); a failure part-way takes back what
    /// was written (``undo(_:before:)``). Photos are read from the archive on the thread pool. A dry
    /// run does it all in one transaction and rolls back.
    func importArchive(_ archive: AccountArchive, photos: @escaping PhotoFiles, dryRun: Bool,
                       progress: (@Sendable (_ done: Int, _ total: Int) async -> Void)? = nil) async throws -> ImportReport {
        let problems = archive.problems()
        guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
        try checkBody(archive)
        let archive = try await withFreshIDs(archive)
        struct DryRun: Error { let report: ImportReport }
        let written = WrittenPhotos()
        if dryRun {
            do {
                return try await db.write { tx in
                    try await self.writeRecords(archive, on: tx)
                    let bytes = try await self.writePhotos(archive, photos: photos, written: written, on: tx)
                    try await self.writeDiary(archive.diary, on: tx)
                    try await self.writeBody(archive, on: tx)
                    throw DryRun(report: ImportReport(dryRun: true, created: archive.counts, photoBytes: bytes))
                }
            } catch let dry as DryRun {
                await forgetFiles(written.ids)
                return dry.report
            } catch {
                await forgetFiles(written.ids)
                throw error
            }
        }
        let before = try await Snapshot(of: self)
        let total = 2 + archive.photos.count + (archive.diary.count + 499) / 500
        var done = 0
        func step() async { done += 1; await progress?(done, total) }
        // The first step checks the account is empty and the ids free: refused there, nothing was
        // written and there is nothing to take back (an undo would remove the records that made the
        // account not empty).
        try await db.write { tx in try await self.writeRecords(archive, on: tx) }
        do {
            await step()
            var bytes = 0
            for index in archive.photos.indices {
                bytes += try await writePhotos(archive, photos: photos, written: written, only: index, on: db)
                await step()
            }
            for chunk in stride(from: 0, to: archive.diary.count, by: 500).map({ Array(archive.diary[$0..<min($0 + 500, archive.diary.count)]) }) {
                try await db.write { tx in try await self.writeDiary(chunk, on: tx) }
                await step()
            }
            try await db.write { tx in try await self.writeBody(archive, on: tx) }
            await step()
            return ImportReport(dryRun: false, created: archive.counts, photoBytes: bytes)
        } catch {
            try? await undo(archive, before: before)
            await forgetFiles(written.ids)
            throw error
        }
    }

    /// What an import changes besides creating records, as it was before (to put back on failure).
    private struct Snapshot: Sendable {
        var displayName: String?, timeZone: String, currency: String
        var mealTypes: [MealType]
        var goals: Goals?
        var profile: BodyProfile?

        init(of data: AccountData) async throws {
            displayName = data.user.displayName
            timeZone = data.user.timeZone
            currency = data.user.currency
            mealTypes = try await MealTypeModel.query(on: data.db).filter(\.$ownerID == data.ownerID).all().map(\.domain)
            let body = BodyRepository(db: data.db, ownerID: data.ownerID)
            goals = try await body.storedGoals()
            profile = try await BodyProfileModel.query(on: data.db).filter(\.$ownerID == data.ownerID).first()?.domain
        }
    }

    /// Takes back a failed import: every record it created goes (with a deletion in the change
    /// feed, so a device that saw part of it forgets it too), and settings, meal types, goals and
    /// the body profile are as they were.
    private func undo(_ archive: AccountArchive, before: Snapshot) async throws {
        let owner = ownerID, now = now
        try await db.write { tx in
            let sql = tx as! any SQLDatabase
            try await SyncLog.lockOwner(owner, on: sql)
            func remove<M: Model>(_ model: M.Type, _ ids: [UUID], kind: SyncKind) async throws where M.IDValue == UUID {
                for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                    let present = try await M.query(on: tx).filter(\._$id ~~ chunk).all().compactMap(\.id)
                    guard !present.isEmpty else { continue }
                    try await M.query(on: tx).filter(\._$id ~~ present).delete()
                    try await SyncLog.record(kind, present, op: .delete, owner: owner, on: tx, now: now)
                }
            }
            // Only this owner's rows: the ids were free when the import began.
            try await remove(DiaryEntryModel.self, archive.diary.map(\.id), kind: .diaryEntry)
            let photoIDs = try await PhotoModel.query(on: tx).filter(\.$ownerID == owner).filter(\.$id ~~ archive.photos.map(\.id)).all().compactMap(\.id)
            try await PhotoRepository(db: tx, ownerID: owner, store: photoStore).delete(photoIDs, on: tx, now: now)
            try await remove(AssignmentModel.self, archive.plan.map(\.id), kind: .assignment)
            let meals = MealRepository(db: tx, ownerID: owner)
            for meal in archive.meals { _ = try await meals.delete(meal.id, now: now) }
            let foods = FoodRepository(db: tx, ownerID: owner)
            for food in archive.foods { _ = try await foods.delete(food.id, now: now) }
            try await remove(WeightEntryModel.self, archive.weights.map(\.id), kind: .weight)
            let kept = Set(before.mealTypes.map(\.id))
            try await remove(MealTypeModel.self, archive.mealTypes.map(\.id).filter { !kept.contains($0) }, kind: .mealType)
            let types = MealTypeRepository(db: tx, ownerID: owner)
            for type in before.mealTypes { _ = try await types.replace(type, now: now) }
            let body = BodyRepository(db: tx, ownerID: owner)
            if let goals = before.goals { try await body.saveGoals(goals, now: now) } else {
                try await GoalSettingModel.query(on: tx).filter(\.$ownerID == owner).delete()
            }
            if let profile = before.profile {
                let model = try await BodyProfileModel.query(on: tx).filter(\.$ownerID == owner).first()
                model?.apply(profile, now: now)
                try await model?.save(on: tx)
            } else {
                try await BodyProfileModel.query(on: tx).filter(\.$ownerID == owner).delete()
            }
            _ = try await UpdateSettings(store: FluentSettingsStore(user: user, db: tx), now: now)(displayName: before.displayName ?? "", timeZone: before.timeZone, currency: before.currency)
        }
    }

    /// The photo whose files an import wrote, to remove them when it does not commit.
    private final class WrittenPhotos: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [UUID] = []
        func add(_ id: UUID) { lock.withLock { list.append(id) } }
        var ids: [UUID] { lock.withLock { list } }
    }

    /// Photo files written by a transaction that did not commit.
    private func forgetFiles(_ ids: [UUID]) async {
        guard !ids.isEmpty, photoStore is DirectoryPhotoStore else { return }
        try? await photoStore.remove(ids, on: db)
    }

    /// What can be checked of the body records before anything is written.
    private func checkBody(_ archive: AccountArchive) throws {
        for (index, weight) in archive.weights.enumerated() {
            if let problem = Plausible.bodyWeightKg.check(weight.weightKg, field: "weights[\(index)].weightKg", label: "Weight") {
                throw AppError.validation(ValidationError([problem]))
            }
        }
        if let goals = archive.goals {
            do { _ = try goals.validated() } catch { throw AppError.validation(error.prefixed("goals.")) }
        }
        if let profile = archive.bodyProfile {
            do { _ = try profile.validated(today: user.today(now: now)) } catch { throw AppError.validation(error.prefixed("bodyProfile.")) }
        }
    }

    /// Settings, meal types, foods, meals and the plan, after checking the account is empty and the
    /// ids are free; and the diary's rules (its meal types exist now).
    private func writeRecords(_ archive: AccountArchive, on tx: any Database) async throws {
        let owner = ownerID
        try await SyncLog.lockOwner(owner, on: tx as! any SQLDatabase)
        try await ensureEmpty(on: tx)
        // Ids were made free by ``withFreshIDs(_:)``; one taken since (another import at the same
        // moment) fails on its primary key, answered with a neutral 409 that names no account.
        // Settings (time zone and currency first: prices and "today" follow them).
        try await UpdateSettings(store: FluentSettingsStore(user: user, db: tx), now: now)(displayName: archive.account.displayName ?? "", timeZone: archive.account.timeZone,
                                                                      currency: archive.account.currency)
        // Meal types: the built-in ones are updated, the person's own created with their ids.
        let library = FluentLibrary(db: tx, ownerID: owner), storedTypes = MealTypeRepository(db: tx, ownerID: owner)
        let types = SaveMealType(library: library, now: now)
        let builtIn = Dictionary(try await storedTypes.catalog(now: now).all.compactMap { t in t.key.map { ($0, t.id) } }, uniquingKeysWith: { a, _ in a })
        for (index, type) in archive.mealTypes.sorted(by: { $0.position < $1.position }).enumerated() {
            let change = SaveMealType.Change(name: type.name, window: .some(type.window.map { ($0.startText, $0.endText) }),
                                                   position: index, hidden: type.hidden)
            do {
                if let key = type.key {
                    guard let id = builtIn[key] else {
                        throw AppError.validation(ValidationError(field: "mealTypes[\(index)].key", "“\(key.prefix(40))” is not a built-in meal type of this server."))
                    }
                    _ = try await types.change(id, change)
                } else {
                    _ = try await types.add(change, id: type.id)
                }
            } catch let error as ValidationError { throw AppError.validation(error.prefixed("mealTypes[\(index)].")) }
        }
        let catalog = try await storedTypes.catalog(now: now)
        // Foods, through the same checks as a food typed in.
        let foods = SaveFood(library: library, now: now)
        for (index, food) in archive.foods.enumerated() {
            do {
                _ = try await foods.restore(FoodDraft(food), id: food.id, createdAt: food.createdAt, updatedAt: food.updatedAt)
            } catch let error as ValidationError {
                throw AppError.validation(error.prefixed("foods[\(index)]."))
            } catch let refusal as Refusal {
                throw AppError(refusal, prefix: "foods[\(index)].")
            }
        }
        // Meals and the plan.
        for (index, meal) in archive.meals.enumerated() {
            do {
                _ = try await SaveMeal(library: library, now: meal.createdAt).add(MealDraft(meal.content), id: meal.id)
            } catch let error as ValidationError {
                throw AppError.validation(error.prefixed("meals[\(index)]."))
            } catch let refusal as Refusal {
                throw AppError(refusal, prefix: "meals[\(index)].")
            }
        }
        for (index, assignment) in archive.plan.enumerated() {
            do {
                _ = try await PlanMeal(library: library, now: assignment.createdAt)(
                    assignment.mealId, on: assignment.date, mealType: assignment.mealType, id: assignment.id)
            } catch let error as ValidationError {
                throw AppError.validation(error.prefixed("plan[\(index)]."))
            } catch let refusal as Refusal {
                throw AppError(refusal, prefix: "plan[\(index)].")
            }
        }
        // The diary is written later; its rules are checked now, before anything else is.
        for (index, entry) in archive.diary.enumerated() {
            let problems = DiaryValidation.archived(entry, types: catalog)
            guard problems.isEmpty else { throw AppError.validation(ValidationError(problems).prefixed("diary[\(index)].")) }
        }
    }

    /// Photos (their bytes checked as an upload is, read from the archive on the thread pool): all,
    /// or the one at `only`. Returns the bytes stored.
    private func writePhotos(_ archive: AccountArchive, photos: @escaping PhotoFiles, written: WrittenPhotos, only: Int? = nil,
                             on db: any Database) async throws -> Int {
        let photoRepository = PhotoRepository(db: db, ownerID: ownerID, store: photoStore)
        var photoBytes = 0
        for index in only.map({ [$0] }) ?? Array(archive.photos.indices) {
            let record = archive.photos[index]
            let files: (full: Data, thumbnail: Data?)
            do { files = try await NIOThreadPool.singleton.runIfActive { try photos(record) } } catch let error as AppError { throw error } catch {
                throw AppError.validation(ValidationError(field: "photos[\(index)]", "The photo \(record.file.prefix(80)) cannot be read from the archive."))
            }
            written.add(record.id)
            do {
                _ = try await photoRepository.create(files.full, thumbnail: files.thumbnail, capturedAt: record.capturedAt, id: record.id, now: record.createdAt)
            } catch AppError.validation(let error) { throw AppError.validation(error.prefixed("photos[\(index)].")) }
            photoBytes += files.full.count + (files.thumbnail?.count ?? 0)
        }
        return photoBytes
    }

    private func writeDiary(_ entries: [DiaryEntry], on tx: any Database) async throws {
        let diary = DiaryRepository(db: tx, ownerID: ownerID, photoStore: photoStore)
        for chunk in stride(from: 0, to: entries.count, by: 500).map({ Array(entries[$0..<min($0 + 500, entries.count)]) }) {
            try await diary.create(chunk, now: now)
        }
    }

    /// Weights, goals and the body profile.
    private func writeBody(_ archive: AccountArchive, on tx: any Database) async throws {
        let body = BodyRepository(db: tx, ownerID: ownerID)
        var instants = Set<Int64>()
        guard archive.weights.allSatisfy({ instants.insert(WeightEntry.millisecond($0.measuredAt)).inserted }) else {
            throw AppError.validation(ValidationError(field: "weights", "Two weights in the export were measured at the same instant."))
        }
        let weighings: [WeightEntry] = archive.weights.map { (record: AccountArchive.WeightRecord) -> WeightEntry in
            WeightEntry(id: record.id, measuredAt: record.measuredAt, weightKg: record.weightKg, source: String(record.source.prefix(40)))
        }
        for start in stride(from: 0, to: weighings.count, by: 500) {
            let end: Int = Swift.min(start + 500, weighings.count)
            try await body.insertWeights(Array(weighings[start..<end]), now: now)
        }
        if let goals = archive.goals { try await body.saveGoals(try goals.validated(), now: now) }
        if let profile = archive.bodyProfile {
            // As exported: the archive's weighings are restored above, none is made for the profile.
            try await body.saveProfile(try profile.validated(today: user.today(now: now)), now: now)
        }
    }

    /// An import fills an empty account only: merging two accounts' records is not what a restore is.
    private func ensureEmpty(on tx: any Database) async throws {
        let owner = ownerID
        var held: [String] = []
        if try await FoodModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("foods") }
        if try await MealModel.query(on: tx).filter(\.$owner.$id == owner).count() > 0 { held.append("meals") }
        if try await DiaryEntryModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("diary entries") }
        if try await WeightEntryModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("weights") }
        if try await PhotoModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("photos") }
        if try await MealTypeModel.query(on: tx).filter(\.$ownerID == owner).filter(\.$key == nil).count() > 0 { held.append("meal types of your own") }
        guard held.isEmpty else {
            throw AppError.conflict("An import fills an empty account, and this one already holds \(held.joined(separator: ", ")). Import into a new account, or delete this one's data first.")
        }
    }

    /// Ids are kept where they are free. An id this server already holds (the export imported
    /// twice, or into a second account while the first exists) is given anew, as is a diary
    /// entry's food or meal the export does not hold (deleted, or another account's in a crafted
    /// file): no record can point into another account, and the answer is the same whether or not
    /// any account holds an id.
    private func withFreshIDs(_ archive: AccountArchive) async throws -> AccountArchive {
        let held = try await heldIDs(archive)
        var map: [UUID: UUID] = [:]
        for id in held.union(archive.outsideReferences) { map[id] = UUID() }
        return archive.renaming(map)
    }

    /// The archive's record ids some account on this server holds.
    private func heldIDs(_ archive: AccountArchive) async throws -> Set<UUID> {
        var held = Set<UUID>()
        func find<M: Model>(_ model: M.Type, _ ids: [UUID]) async throws where M.IDValue == UUID {
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                held.formUnion(try await M.query(on: db).filter(\._$id ~~ chunk).all(\._$id))
            }
        }
        try await find(FoodModel.self, archive.foods.map(\.id))
        try await find(MealModel.self, archive.meals.map(\.id))
        try await find(AssignmentModel.self, archive.plan.map(\.id))
        try await find(DiaryEntryModel.self, archive.diary.map(\.id))
        try await find(PhotoModel.self, archive.photos.map(\.id))
        try await find(WeightEntryModel.self, archive.weights.map(\.id))
        try await find(MealTypeModel.self, archive.mealTypes.filter { $0.key == nil }.map(\.id))
        return held
    }

    // MARK: Delete

    /// Deletes the account and everything of it: every row that names it (records, sync feed and
    /// tombstones, tokens, sessions, known devices, sign-in counters) and its photo files, in one
    /// transaction; the kept answers go with it.
    func deleteAccount(readCache: ReadCache?) async throws {
        let owner = ownerID
        try await db.write { tx in
            let sql = tx as! any SQLDatabase
            try await SyncLog.lockOwner(owner, on: sql)
            let photoIDs = try await PhotoModel.query(on: tx).filter(\.$ownerID == owner).all().compactMap(\.id)
            try await photoStore.remove(photoIDs, on: tx)
            for (table, column) in Self.ownedTables {
                try await sql.delete(from: table).where(column, .equal, owner).run()
            }
            // A web session keeps its person in its data; the id is unique enough to find it by.
            try await sql.delete(from: WebSessionModel.schema).where("data", .like, "%\(owner.uuidString)%").run()
            try await sql.delete(from: "login_buckets").where("key", .equal, LoginThrottle.perAccount.prefix + user.emailKey).run()
            try await sql.delete(from: UserModel.schema).where("id", .equal, owner).run()
        }
        readCache?.forget(owner: owner)
        // SQLite overwrites what was deleted (secure_delete), but the write-ahead log still holds
        // the pages as they were until a checkpoint: copy it back and empty it now, not within the
        // hour. A reader in the way leaves it to the hourly checkpoint.
        if let sql = db as? any SQLDatabase, sql.dialect.name == "sqlite" {
            _ = try? await sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").all()
        }
    }

    /// Every table holding rows of one person, children before parents, and the column naming them.
    static let ownedTables: [(table: String, column: String)] = [
        ("sync_records", "owner_id"), ("sync_mutations", "owner_id"), ("sync_horizons", "owner_id"),
        (DiaryEntryModel.schema, "user_id"), (AssignmentModel.schema, "user_id"),
        (MealIngredientModel.schema, "user_id"), (MealComponentModel.schema, "user_id"), (MealModel.schema, "user_id"),
        (FoodTermModel.schema, "user_id"), (FoodModel.schema, "user_id"),
        (PhotoModel.schema, "user_id"),
        (WeightEntryModel.schema, "user_id"), (BodyProfileModel.schema, "user_id"), (GoalSettingModel.schema, "user_id"),
        (MealTypeModel.schema, "user_id"),
        (TokenModel.schema, "user_id"), (KnownClientModel.schema, "user_id"), (ExternalIdentityModel.schema, "user_id"),
    ]
}

extension AccountArchive {
    /// Instants in UTC to the microsecond, keys sorted: the same account exports the same bytes.
    /// Records are written one per line (``writeJSON(encoder:to:)``).
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Instant.format(date))
        }
        return encoder
    }

    static var decoder: JSONDecoder { JSONDecoder.forkcast }
}

extension AccountData {
    /// What reading an archive may cost.
    struct ReadLimits: Sendable {
        /// forkcast.json inflated. Years of a diary are tens of megabytes; decoding takes about 14
        /// times the document's size in memory (124 MB, 200,000 records: 1.8 GB), so this bounds it.
        var maxDocumentBytes: UInt64 = 256 << 20
        /// One photo or thumbnail file.
        var maxPhotoBytes: UInt64 = 15 << 20
        /// An entry inflating to more than this many times its compressed size is a bomb.
        var maxCompressionRatio: UInt64 = 500
    }

    /// Reads an export zip: its document, and a reader of its photo files (checked for size, links
    /// and compression bombs as they are inflated). Anything else is a 4xx naming what is wrong.
    static func readArchive(at url: URL, limits: ReadLimits = ReadLimits()) throws -> (AccountArchive, PhotoFiles) {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 4) ?? Data()
        try handle.close()
        guard magic.starts(with: [0x50, 0x4B, 0x03, 0x04]), let zip = try? Archive(url: url, accessMode: .read, pathEncoding: nil) else {
            throw AppError.validation(ValidationError(field: "file", "This is not a Forkcast export: send the .zip that Export made."))
        }
        let files = ArchiveFiles(zip: zip, limits: limits)
        let json = try files.read(AccountArchive.documentPath, limit: limits.maxDocumentBytes)
        let document: AccountArchive
        do {
            document = try AccountArchive.decoder.decode(AccountArchive.self, from: Data(JSONNumbers.fitForDecimal(Array(json))))
        } catch let error as DecodingError {
            let problem = ProblemMiddleware.decodingProblem(error)
            throw AppError.validation(ValidationError(field: "file", "forkcast.json cannot be read: \(problem.detail)"))
        }
        let reader: PhotoFiles = { record in
            let full = try files.read(record.file, limit: limits.maxPhotoBytes)
            let thumbnail = try record.thumbnail.map { try files.read($0, limit: limits.maxPhotoBytes) }
            return (full, thumbnail)
        }
        return (document, reader)
    }

    /// The files of a zip, inflated on demand with their sizes checked.
    private final class ArchiveFiles: @unchecked Sendable {
        let zip: Archive
        let limits: ReadLimits
        let lock = NSLock()

        init(zip: Archive, limits: ReadLimits) {
            self.zip = zip
            self.limits = limits
        }

        func read(_ path: String, limit: UInt64) throws -> Data {
            try lock.withLock {
                guard let entry = zip[path] else {
                    throw AppError.validation(ValidationError(field: "file", "The archive holds no \(path.prefix(120)); it is not a whole Forkcast export."))
                }
                guard entry.type == .file else {
                    throw AppError.validation(ValidationError(field: "file", "\(path.prefix(120)) in the archive is not a file."))
                }
                let tooLarge = AppError.validation(ValidationError(field: "file", "\(path.prefix(120)) in the archive is larger than \(limit >> 20) MB, or inflates like a zip bomb; nothing was imported."))
                guard entry.uncompressedSize <= limit,
                      entry.uncompressedSize <= max(1 << 20, entry.compressedSize * limits.maxCompressionRatio) else { throw tooLarge }
                // The sizes in the zip's header may lie: the inflated bytes are counted as they come.
                var data = Data()
                do {
                    _ = try zip.extract(entry, skipCRC32: false) { chunk in
                        data.append(chunk)
                        if UInt64(data.count) > limit { throw tooLarge }
                    }
                } catch let error as AppError {
                    throw error
                } catch {
                    throw AppError.validation(ValidationError(field: "file", "\(path.prefix(120)) in the archive is damaged; nothing was imported."))
                }
                return data
            }
        }
    }
}
