import Fluent
import ForkcastApp
import ForkcastContract
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
        // The household's shared records with the person's own: moving servers keeps the recipes.
        let kitchen = Kitchen(user: owner)
        let types = try await MealTypeModel.query(on: db).filter(kitchen).sort(\.$position).all().map(\.domain)
        let foods = try await FoodModel.query(on: db).filter(kitchen).sort(\.$createdAt).sort(\.$id).all().map(\.domain)
        let meals = try await MealRepository(db: db, kitchen: kitchen).all()
        let plan = try await AssignmentModel.query(on: db).filter(kitchen).sort(\.$date).sort(\.$id).all().map(\.domain)
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
            goals: try await body.storedGoals(), bodyProfile: try await body.profile(), owner: owner,
            shoppingLists: try await shoppingLists(owner),
            pantry: PantryRules.usingOrder(try await PantryRepository(db: db, kitchen: kitchen).items()),
            recipePhotos: try await recipePhotos(meals))
    }

    /// The facts of the meals' photos (their bytes are read as the zip is written).
    private func recipePhotos(_ meals: [Meal]) async throws -> [AccountArchive.RecipePhotoRecord] {
        let heads = meals.filter { $0.photoId != nil }.map(\.id)
        var records: [AccountArchive.RecipePhotoRecord] = []
        for start in stride(from: 0, to: heads.count, by: 500) {
            let rows = try await MealPhotoModel.query(on: db).filter(\.$mealID ~~ Array(heads[start..<min(start + 500, heads.count)]))
                .field(\.$id).field(\.$mealID).field(\.$format).field(\.$width).field(\.$height).all()
            records += rows.compactMap { photo in
                ImageFormat(rawValue: photo.format).map { .init(mealId: photo.mealID, format: $0, width: photo.width, height: photo.height) }
            }
        }
        return records.sorted { $0.mealId.uuidString < $1.mealId.uuidString }
    }

    /// The person's shopping lists with their items, oldest first (the export's order).
    private func shoppingLists(_ owner: UUID) async throws -> [AccountArchive.ShoppingListRecord] {
        let shopping = ShoppingRepository(db: db, kitchen: Kitchen(user: owner))
        var records: [AccountArchive.ShoppingListRecord] = []
        for list in try await shopping.lists().items.reversed() {
            let items = try await shopping.items(of: list.id).sorted { ($0.updatedAt, $0.id.uuidString) < ($1.updatedAt, $1.id.uuidString) }
            records.append(.init(list: list, items: items))
        }
        return records
    }

    /// Writes the export zip to `url`: forkcast.json, the photos, the diary as CSV and a README.
    @discardableResult
    func writeArchive(to url: URL) async throws -> AccountArchive {
        var document = try await archive()
        let zip = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ data: Data) throws {
            try zip.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: now, compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        // Recipe photos first, as they are now: one another member took off or replaced meanwhile
        // is left out or named as stored, so the document never names a file the zip lacks.
        var recipePhotos: [AccountArchive.RecipePhotoRecord] = []
        for record in document.recipePhotos {
            guard let stored = try await MealRepository.photo(of: record.mealId, on: db) else { continue }
            let kept = AccountArchive.RecipePhotoRecord(mealId: record.mealId, format: stored.format, width: stored.width, height: stored.height)
            try add(kept.file, stored.data)
            recipePhotos.append(kept)
        }
        document.recipePhotos = recipePhotos
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
        let names = Dictionary(document.mealTypes.map { ($0.token, $0.name) }, uniquingKeysWith: { a, _ in a })
        try add("diary.csv", Data(DiaryExport.csv(document.diary, zone: TimeZone(identifier: document.account.timeZone) ?? .gmt,
                                                  mealTypeNames: names).utf8))
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
    recipe-photos/  each recipe's photo, named by its meal's id.
    diary.csv       the diary as a spreadsheet (the same columns as the diary's CSV export).

    The format is described in docs/export-format.md of Forkcast. Import it into an empty account
    with Settings › Your data › Import, POST \(Me.Import.path), or `forkcast import FILE --email ADDRESS`.

    """

    // MARK: Import

    /// What an import did (or, in a dry run, would do).
    typealias ImportReport = ImportAccount.Report

    /// A file of the archive (a photo's), read when its turn comes.
    typealias ArchiveFile = @Sendable (_ path: String) throws -> Data

    /// Fills this (empty) account from `archive` (``ImportAccount``), its problems as the API's.
    func importArchive(_ archive: AccountArchive, files: @escaping ArchiveFile, dryRun: Bool,
                       progress: (@Sendable (_ done: Int, _ total: Int) async -> Void)? = nil) async throws -> ImportReport {
        let imports = FluentAccountImports(user: user, db: db, photoStore: photoStore, files: files, now: now)
        do {
            return try await ImportAccount(imports: imports, now: now, today: user.today(now: now))(archive, dryRun: dryRun, progress: progress)
        } catch let error as ValidationError {
            throw AppError.validation(error)
        } catch let refusal as Refusal {
            throw AppError(refusal)
        }
    }

    // MARK: Delete

    /// Deletes the account and everything of it (``DeleteAccount``); the kept answers go with it.
    func deleteAccount(readCache: ReadCache?) async throws {
        let owner = ownerID
        try await DeleteAccount(accounts: FluentAccounts(db: db, photoStore: photoStore))(owner)
        readCache?.forget(owner: owner)
        // SQLite overwrites what was deleted (secure_delete), but the write-ahead log still holds
        // the pages as they were until a checkpoint: copy it back and empty it now, not within the
        // hour, in a turn of its own at the write gate. A reader in the way leaves it to the hourly one.
        _ = try? await db.emptySQLiteLog()
    }
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
    static func readArchive(at url: URL, limits: ReadLimits = ReadLimits()) throws -> (AccountArchive, ArchiveFile) {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 4) ?? Data()
        try handle.close()
        guard magic.starts(with: [0x50, 0x4B, 0x03, 0x04]), let zip = try? Archive(url: url, accessMode: .read, pathEncoding: nil) else {
            throw AppError.validation(ValidationError(field: "file", "This is not a Forkcast export: send the .zip that Export made."))
        }
        let files = ArchiveFiles(zip: zip, limits: limits)
        let json = try files.read(AccountArchive.documentPath, limit: limits.maxDocumentBytes)
        let document: AccountArchive
        let data = Data(JSONNumbers.fitForDecimal(Array(json)))
        do {
            document = try AccountArchive.decoder.decode(AccountArchive.self, from: data)
        } catch let error as DecodingError {
            // Foundation's "not valid JSON" also means a number its field cannot hold. An export holds
            // too many fractions to find it by trying each (JSONNumberMisfit), so it is described.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, JSONNumberMisfit.parses(data) {
                throw AppError.validation(ValidationError(field: "file", "forkcast.json cannot be read: \(JSONNumberMisfit.unnamed)."))
            }
            let problem = ProblemMiddleware.decodingProblem(error)
            throw AppError.validation(ValidationError(field: "file", "forkcast.json cannot be read: \(problem.detail)"))
        }
        return (document, { path in try files.read(path, limit: limits.maxPhotoBytes) })
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
                let damaged = AppError.validation(ValidationError(field: "file", "\(path.prefix(120)) in the archive is damaged; nothing was imported."))
                do {
                    // ZIPFoundation computes the checksum of what it inflates; comparing it is ours to do.
                    let checksum = try zip.extract(entry, skipCRC32: false) { chunk in
                        data.append(chunk)
                        if UInt64(data.count) > limit { throw tooLarge }
                    }
                    guard checksum == entry.checksum else { throw damaged }
                } catch let error as AppError {
                    throw error
                } catch {
                    throw damaged
                }
                return data
            }
        }
    }
}
