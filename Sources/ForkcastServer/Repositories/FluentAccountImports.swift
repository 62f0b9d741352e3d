import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import PostgresNIO
import SQLiteKit
import SQLKit
import Vapor

/// ``ImportAccount``'s account on SQLite or PostgreSQL: the person's records through the same
/// stores their changes use, and the archive's photo files read on the thread pool as their turn
/// comes (``AccountData/readArchive(at:limits:)``).
struct FluentAccountImports: AccountImports {
    let user: UserModel
    let db: any Database
    let photoStore: any PhotoStore
    let files: AccountData.ArchiveFile
    let now: Date

    var ownerID: UUID { user.id! }

    func heldIDs(_ archive: AccountArchive) async throws -> Set<UUID> {
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
        try await find(ShoppingListModel.self, archive.shoppingLists.map(\.list.id))
        try await find(ShoppingItemModel.self, archive.shoppingLists.flatMap { $0.items.map(\.id) })
        try await find(PantryItemModel.self, archive.pantry.map(\.id))
        try await find(MealTypeModel.self, archive.mealTypes.filter { $0.key == nil }.map(\.id))
        return held
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any AccountImportRecords) async throws -> T) async throws -> T {
        let imports = self
        do {
            return try await db.write { tx in try await body(Records(imports: imports, tx: tx)) }
        } catch where Self.isIDTaken(error) {
            throw IDTakenMeanwhile(error)
        }
    }

    /// A row refused because another holds its id: SQLite's primary-key constraint, or PostgreSQL's
    /// unique violation (23505) on a table's primary key (`<table>_pkey`, the name PostgreSQL gives
    /// an `id … PRIMARY KEY`). Any other refusal would refuse a run again too.
    static func isIDTaken(_ error: any Error) -> Bool {
        if let sqlite = error as? SQLiteError { return sqlite.reason == .constraintPrimaryKeyFailed }
        if let postgres = error as? PSQLError, let info = postgres.serverInfo {
            return info[.sqlState] == "23505" && info[.constraintName]?.hasSuffix("_pkey") == true
        }
        return false
    }

    func snapshot() async throws -> AccountSnapshot {
        let owner = ownerID
        return AccountSnapshot(
            settings: AccountSettings(displayName: user.displayName, timeZone: user.timeZone, currency: user.currency),
            mealTypes: try await MealTypeModel.query(on: db).filter(\.$ownerID == owner).all().map(\.domain),
            goals: try await BodyRepository(db: db, ownerID: owner).storedGoals(),
            profile: try await BodyProfileModel.query(on: db).filter(\.$ownerID == owner).first()?.domain)
    }

    func takeBack(_ archive: AccountArchive, restoring before: AccountSnapshot) async throws {
        let owner = ownerID, now = now, user = user, photoStore = photoStore
        try await db.write { tx in
            try await SyncLog.lockOwner(owner, on: tx as any SQLDatabase)
            func remove<M: Model>(_ model: M.Type, _ ids: [UUID], kind: SyncKind, owner field: KeyPath<M, FieldProperty<M, UUID>>) async throws
            where M.IDValue == UUID {
                for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                    // Only this owner's rows. The ids were free when the import began, but another
                    // import of the same export (into another account) may hold them now: the import
                    // failed on them, and those rows are that account's.
                    let present = try await M.query(on: tx).filter(field == owner).filter(\._$id ~~ chunk).all().compactMap(\.id)
                    guard !present.isEmpty else { continue }
                    try await M.query(on: tx).filter(\._$id ~~ present).delete()
                    try await SyncLog.record(kind, present, op: .delete, owner: owner, on: tx, now: now)
                }
            }
            try await remove(PantryItemModel.self, archive.pantry.map(\.id), kind: .pantryItem, owner: \.$ownerID)
            try await remove(ShoppingItemModel.self, archive.shoppingLists.flatMap { $0.items.map(\.id) }, kind: .shoppingItem, owner: \.$ownerID)
            try await remove(ShoppingListModel.self, archive.shoppingLists.map(\.list.id), kind: .shoppingList, owner: \.$ownerID)
            try await remove(DiaryEntryModel.self, archive.diary.map(\.id), kind: .diaryEntry, owner: \.$ownerID)
            let photoIDs = try await PhotoModel.query(on: tx).filter(\.$ownerID == owner).filter(\.$id ~~ archive.photos.map(\.id)).all().compactMap(\.id)
            try await PhotoRepository(db: tx, ownerID: owner, store: photoStore).delete(photoIDs, on: tx, now: now)
            try await remove(AssignmentModel.self, archive.plan.map(\.id), kind: .assignment, owner: \.$ownerID)
            // As DeleteMeal: a meal's plan days (planned since the import, too) go first, in the feed.
            let meals = MealRepository(db: tx, kitchen: Kitchen(user: owner)), plan = PlanRepository(db: tx, kitchen: Kitchen(user: owner))
            for meal in archive.meals {
                _ = try await plan.deleteAll(of: meal.id, now: now)
                _ = try await meals.delete(meal.id, now: now)
            }
            let foods = FoodRepository(db: tx, kitchen: Kitchen(user: owner))
            for food in archive.foods { _ = try await foods.delete(food.id, now: now) }
            try await remove(WeightEntryModel.self, archive.weights.map(\.id), kind: .weight, owner: \.$ownerID)
            let kept = Set(before.mealTypes.map(\.id))
            try await remove(MealTypeModel.self, archive.mealTypes.map(\.id).filter { !kept.contains($0) }, kind: .mealType, owner: \.$ownerID)
            let types = MealTypeRepository(db: tx, kitchen: Kitchen(user: owner))
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
            try await FluentSettingsStore(user: user, db: tx).save(before.settings, now: now)
        }
    }

    func forgetPhotoFiles(_ ids: [UUID]) async {
        guard !ids.isEmpty, photoStore is DirectoryPhotoStore else { return }
        let owner = ownerID
        // Only files no photo record holds: a photo that committed and was not taken back keeps its file.
        let stored = Set((try? await PhotoModel.query(on: db).filter(\.$ownerID == owner).filter(\.$id ~~ ids).all(\.$id)) ?? [])
        let loose = ids.filter { !stored.contains($0) }
        guard !loose.isEmpty else { return }
        try? await photoStore.remove(loose, on: db)
    }

    /// The account inside one transaction.
    struct Records: AccountImportRecords {
        let imports: FluentAccountImports
        let tx: any Database

        var owner: UUID { imports.ownerID }

        func lockOwner() async throws { try await SyncLog.lockOwner(owner, on: tx as! any SQLDatabase) }

        func heldRecords() async throws -> [String] {
            let owner = owner
            var held: [String] = []
            if try await FoodModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("foods") }
            if try await MealModel.query(on: tx).filter(\.$owner.$id == owner).count() > 0 { held.append("meals") }
            if try await DiaryEntryModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("diary entries") }
            if try await WeightEntryModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("weights") }
            if try await PhotoModel.query(on: tx).filter(\.$ownerID == owner).count() > 0 { held.append("photos") }
            if try await MealTypeModel.query(on: tx).filter(\.$ownerID == owner).filter(\.$key == nil).count() > 0 { held.append("meal types of your own") }
            return held
        }

        var library: any Library { FluentLibrary(db: tx, ownerID: owner) }
        var settings: any SettingsStore { FluentSettingsStore(user: imports.user, db: tx) }
        var body: any BodyStore { FluentBodyStore(db: tx, ownerID: owner) }

        func insertDiary(_ entries: [DiaryEntry], now: Date) async throws {
            try await FluentDiary.insert(entries, owner: owner, on: tx, now: now)
        }

        func storePhoto(_ record: AccountArchive.PhotoRecord, index: Int) async throws -> Int {
            let read = imports.files
            let files = try await NIOThreadPool.singleton.runIfActive { try FluentAccountImports.read(record, with: read) }
            do {
                _ = try await PhotoRepository(db: tx, ownerID: owner, store: imports.photoStore)
                    .create(files.full, thumbnail: files.thumbnail, capturedAt: record.capturedAt, id: record.id, now: record.createdAt)
            } catch AppError.validation(let error) { throw error }
            return files.full.count
        }

        func recipePhoto(_ record: AccountArchive.RecipePhotoRecord) async throws -> MealPhoto {
            let read = imports.files
            return try await NIOThreadPool.singleton.runIfActive { try MealPhoto(importing: try FluentAccountImports.read(record.file, with: read)) }
        }
    }

    /// A photo's files, or a problem naming the file.
    static func read(_ record: AccountArchive.PhotoRecord, with read: AccountData.ArchiveFile) throws -> (full: Data, thumbnail: Data?) {
        (try Self.read(record.file, with: read), try record.thumbnail.map { try Self.read($0, with: read) })
    }

    static func read(_ path: String, with read: AccountData.ArchiveFile) throws -> Data {
        do { return try read(path) } catch let error as AppError { throw error } catch {
            throw ValidationError(field: "file", "The photo \(path.prefix(80)) cannot be read from the archive.")
        }
    }

    /// The person's account copied empty into memory, with their settings: a dry run writes there,
    /// through the same use cases, while everyone's writes go on. Photos are read and checked as an
    /// upload's are, on the thread pool as a real import's are; nothing is stored.
    func rehearsal() async throws -> any AccountImports {
        let read = files
        let settings = InMemorySettingsStore(AccountSettings(displayName: user.displayName, timeZone: user.timeZone, currency: user.currency))
        return InMemoryLibraries().imports(of: ownerID, settings: settings, now: now, recipePhotoBytes: { record in
            try await NIOThreadPool.singleton.runIfActive { try Self.read(record.file, with: read) }
        }) { record in
            try await NIOThreadPool.singleton.runIfActive {
                let files = try Self.read(record, with: read)
                do { _ = try PhotoRepository.prepare(files.full, thumbnail: files.thumbnail) } catch AppError.validation(let error) { throw error }
                return files.full
            }
        }
    }
}

extension ImportAccount.Report: Content {}
