import ForkcastCore
import Foundation

/// One person's account in memory as ``ImportAccount`` fills it: the fake the import is tested with
/// alone. Its library and body stores write in the import's transaction; its settings are kept
/// aside until that transaction returns (``InMemorySettingsStore`` is not transactional). A photo's
/// "file" is written when it is stored, rolled back or not, as the server's are, so tests can see
/// what ``forgetPhotoFiles(_:)`` removes.
public final class InMemoryAccountImports: AccountImports, @unchecked Sendable {
    let libraries: InMemoryLibraries
    public let owner: UUID
    let settingsStore: InMemorySettingsStore
    /// The import's time, which ``takeBack(_:restoring:)`` records its deletions at.
    let now: Date
    let photoBytes: @Sendable (AccountArchive.PhotoRecord) async throws -> Data
    let recipePhotoBytes: @Sendable (AccountArchive.RecipePhotoRecord) async throws -> Data
    private let lock = NSLock()
    private var _files: Set<UUID> = []

    init(libraries: InMemoryLibraries, owner: UUID, settings: InMemorySettingsStore, now: Date,
         recipePhotoBytes: @escaping @Sendable (AccountArchive.RecipePhotoRecord) async throws -> Data,
         photoBytes: @escaping @Sendable (AccountArchive.PhotoRecord) async throws -> Data) {
        self.recipePhotoBytes = recipePhotoBytes
        self.libraries = libraries
        self.owner = owner
        settingsStore = settings
        self.now = now
        self.photoBytes = photoBytes
    }

    /// The photos whose files are stored.
    public var files: Set<UUID> { lock.withLock { _files } }

    public func heldIDs(_ archive: AccountArchive) async throws -> Set<UUID> {
        let records = libraries.contents
        var held = Set<UUID>()
        held.formUnion(archive.foods.map(\.id).filter { records.foods[$0] != nil })
        held.formUnion(archive.meals.map(\.id).filter { records.meals[$0] != nil })
        held.formUnion(archive.plan.map(\.id).filter { records.assignments[$0] != nil })
        held.formUnion(archive.diary.map(\.id).filter { records.entries[$0] != nil })
        held.formUnion(archive.photos.map(\.id).filter { records.photos[$0] != nil })
        held.formUnion(archive.weights.map(\.id).filter { records.weights[$0] != nil })
        held.formUnion(archive.shoppingLists.map(\.list.id).filter { records.shoppingLists[$0] != nil })
        held.formUnion(archive.shoppingLists.flatMap { $0.items.map(\.id) }.filter { records.shoppingItems[$0] != nil })
        held.formUnion(archive.pantry.map(\.id).filter { records.pantryItems[$0] != nil })
        held.formUnion(archive.mealTypes.filter { $0.key == nil }.map(\.id).filter { records.mealTypes[$0] != nil })
        return held
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any AccountImportRecords) async throws -> T) async throws -> T {
        let settings = PendingSettings(try await settingsStore.settings())
        let result: T
        do {
            result = try await libraries.transaction(owner: owner) { tx in
                try await body(Records(imports: self, tx: tx, pending: settings))
            }
        } catch let taken as InMemoryLibraries.DuplicateID {
            throw IDTakenMeanwhile(taken)
        }
        if let changed = settings.changed { try await settingsStore.save(changed.settings, now: changed.now) }
        return result
    }

    public func snapshot() async throws -> AccountSnapshot {
        let records = libraries.contents, owner = owner
        return AccountSnapshot(settings: try await settingsStore.settings(),
                               mealTypes: records.mealTypes.values.filter { $0.owner == owner }.map(\.value),
                               goals: records.goals[owner], profile: records.profiles[owner])
    }

    public func takeBack(_ archive: AccountArchive, restoring before: AccountSnapshot) async throws {
        let owner = owner, now = now
        await libraries.transaction(owner: owner) { tx in
            tx.update { records in
                var removed: [(SyncKind, [UUID])] = []
                func remove<V>(_ ids: [UUID], from table: inout [UUID: InMemoryLibraries.Owned<V>], kind: SyncKind) {
                    let present = ids.filter { table[$0]?.owner == owner }
                    for id in present { table[id] = nil }
                    removed.append((kind, present))
                }
                remove(archive.pantry.map(\.id), from: &records.pantryItems, kind: .pantryItem)
                remove(archive.shoppingLists.flatMap { $0.items.map(\.id) }, from: &records.shoppingItems, kind: .shoppingItem)
                remove(archive.shoppingLists.map(\.list.id), from: &records.shoppingLists, kind: .shoppingList)
                remove(archive.diary.map(\.id), from: &records.entries, kind: .diaryEntry)
                remove(archive.photos.map(\.id), from: &records.photos, kind: .photo)
                remove(archive.plan.map(\.id), from: &records.assignments, kind: .assignment)
                remove(archive.meals.map(\.id), from: &records.meals, kind: .meal)
                remove(archive.foods.map(\.id), from: &records.foods, kind: .food)
                remove(archive.weights.map(\.id), from: &records.weights, kind: .weight)
                let kept = Set(before.mealTypes.map(\.id))
                remove(archive.mealTypes.map(\.id).filter { !kept.contains($0) }, from: &records.mealTypes, kind: .mealType)
                for (kind, ids) in removed { tx.log(kind, ids, deleted: true, at: now, in: &records) }
                for type in before.mealTypes { records.mealTypes[type.id] = .init(owner: owner, value: type) }
                records.goals[owner] = before.goals
                records.profiles[owner] = before.profile
            }
        }
        try await settingsStore.save(before.settings, now: now)
    }

    public func forgetPhotoFiles(_ ids: [UUID]) async {
        let stored = libraries.contents.photos
        lock.withLock { for id in ids where stored[id] == nil { _files.remove(id) } }
    }

    public func rehearsal() async throws -> any AccountImports {
        InMemoryLibraries().imports(of: owner, settings: InMemorySettingsStore(try await settingsStore.settings()), now: now, recipePhotoBytes: recipePhotoBytes, photoBytes: photoBytes)
    }

    fileprivate func wrote(_ id: UUID) { lock.withLock { _ = _files.insert(id) } }

    /// Settings saved inside a transaction, stored when it returns.
    final class PendingSettings: SettingsStore, @unchecked Sendable {
        private let lock = NSLock()
        private var current: AccountSettings
        private(set) var changed: (settings: AccountSettings, now: Date)?

        init(_ settings: AccountSettings) { current = settings }

        func settings() async throws -> AccountSettings { lock.withLock { current } }

        func save(_ settings: AccountSettings, now: Date) async throws {
            lock.withLock {
                current = settings
                changed = (settings, now)
            }
        }
    }

    struct Records: AccountImportRecords {
        let imports: InMemoryAccountImports
        let tx: InMemoryLibrary.Transaction
        let pending: PendingSettings

        func lockOwner() async throws {}

        func heldRecords() async throws -> [String] {
            let records = tx.records, owner = imports.owner
            var held: [String] = []
            if records.foods.values.contains(where: { $0.owner == owner }) { held.append("foods") }
            if records.meals.values.contains(where: { $0.owner == owner }) { held.append("meals") }
            if records.entries.values.contains(where: { $0.owner == owner }) { held.append("diary entries") }
            if records.weights.values.contains(where: { $0.owner == owner }) { held.append("weights") }
            if records.photos.values.contains(where: { $0.owner == owner }) { held.append("photos") }
            if records.mealTypes.values.contains(where: { $0.owner == owner && $0.value.key == nil }) { held.append("meal types of your own") }
            return held
        }

        var library: any Library { InMemoryLibrary(libraries: imports.libraries, owner: imports.owner, joined: tx) }
        var settings: any SettingsStore { pending }
        var body: any BodyStore { InMemoryBodyStore(libraries: imports.libraries, owner: imports.owner, joined: tx) }

        func insertDiary(_ entries: [DiaryEntry], now: Date) async throws {
            let owner = imports.owner
            try tx.update { records in
                for entry in entries {
                    guard records.entries[entry.id] == nil else { throw InMemoryLibraries.DuplicateID(id: entry.id) }
                    records.entries[entry.id] = .init(owner: owner, value: entry)
                }
                tx.log(.diaryEntry, entries.map(\.id), deleted: false, at: now, in: &records)
            }
        }

        func storePhoto(_ record: AccountArchive.PhotoRecord, index: Int) async throws -> Int {
            let data = try await imports.photoBytes(record)
            let image: ImageFile
            do { image = try ImageFile.inspect(data) } catch {
                throw ValidationError(field: "file", "This is not a photo Forkcast can show: \(error)")
            }
            imports.wrote(record.id)
            let owner = imports.owner
            try tx.update { records in
                guard records.photos[record.id] == nil else { throw InMemoryLibraries.DuplicateID(id: record.id) }
                records.photos[record.id] = .init(owner: owner, value: Photo(
                    id: record.id, format: image.format, width: image.width, height: image.height, byteSize: data.count,
                    capturedAt: record.capturedAt, createdAt: record.createdAt, updatedAt: record.createdAt))
                tx.log(.photo, [record.id], deleted: false, at: record.createdAt, in: &records)
            }
            return data.count
        }

        func recipePhoto(_ record: AccountArchive.RecipePhotoRecord) async throws -> MealPhoto {
            try MealPhoto(importing: try await imports.recipePhotoBytes(record))
        }
    }
}
