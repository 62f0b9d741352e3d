import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Testing

/// ``ImportAccount`` alone on the in-memory store: an export fills an empty account whole, or —
/// refused, failing part-way, or only tried — leaves it as it was.
@Suite("Importing an account, alone on the in-memory store")
struct ImportAccountTests {
    let libraries = InMemoryLibraries()
    let now = Date(timeIntervalSince1970: 1_795_392_000)
    let monday = CalendarDate(year: 2026, month: 11, day: 23)!

    func account(_ email: String) async throws -> UUID {
        let account = Account(id: UUID(), email: email, passwordHash: "", displayName: nil, timeZone: "UTC", currency: "EUR")
        try await CreateAccount(accounts: libraries.accounts, now: now)(account)
        return account.id
    }

    func jpeg() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/photos/photo.jpg"))
    }

    /// Ann's account as an export holds it: a food, a meal of it planned for Monday's dinner,
    /// 1,203 diary entries (three writes of 500), a photo and two weighings.
    func annsArchive() async throws -> AccountArchive {
        let ann = try await account("ann@example.com")
        let library = libraries.library(of: ann)
        let oats = try await SaveFood(library: library, now: now)
            .add(FoodDraft(name: "Rolled oats", per100: Nutrients(energyKcal: 372, protein: 13, carbohydrates: 60, fat: 7)), id: UUID())
        let porridge = try await SaveMeal(library: library, now: now)
            .add(MealDraft(description: "Porridge", servings: 2, ingredients: [Ingredient(foodId: oats.id, quantity: 80, unit: .gram)]), id: UUID())
        let planned = try #require(try await PlanMeal(library: library, now: now)(porridge.id, on: monday, mealType: "dinner", id: UUID()))
        let logged = try await LogEntry(diary: libraries.diary(of: ann, zone: .gmt), now: now, uuid: { UUID() })
            .single(EntryInput(mealType: "breakfast", foodId: oats.id, quantity: 80, unit: "g"))
        let diary = [logged] + (1..<1203).map { n in
            let at = now.addingTimeInterval(-Double(n) * 3600)
            return DiaryEntry(loggedAt: at, date: CalendarDate(at, in: .gmt), mealType: logged.mealType, kind: logged.kind,
                              name: logged.name, nutrients: logged.nutrients)
        }
        let contents = libraries.contents
        let photo = UUID()
        let paths = AccountArchive.PhotoRecord.paths(photo, format: .jpeg, thumbnail: nil)
        return AccountArchive(
            exportedAt: now, account: .init(email: "ann@example.com", displayName: "Ann", timeZone: "Europe/Zurich", currency: "CHF", createdAt: now),
            mealTypes: contents.mealTypes.values.filter { $0.owner == ann }.map(\.value).sorted { $0.position < $1.position },
            foods: [oats], meals: [porridge],
            plan: [planned.assignment],
            diary: diary,
            photos: [.init(id: photo, format: .jpeg, width: 1, height: 1, capturedAt: now, createdAt: now, file: paths.file, thumbnail: nil)],
            weights: [WeightEntry(id: UUID(), measuredAt: now, weightKg: 70, source: "manual"),
                      WeightEntry(id: UUID(), measuredAt: now.addingTimeInterval(-86_400), weightKg: Decimal(string: "70.4")!, source: "manual")],
            goals: nil, bodyProfile: nil, owner: ann,
            recipePhotos: [.init(mealId: porridge.id, format: .jpeg, width: 1, height: 1)])
    }

    func imports(_ owner: UUID, settings: InMemorySettingsStore, photo: @escaping @Sendable () throws -> Data) -> InMemoryAccountImports {
        libraries.imports(of: owner, settings: settings, now: now, recipePhotoBytes: { _ in try photo() }) { _ in try photo() }
    }

    static let utc = AccountSettings(displayName: nil, timeZone: "UTC", currency: "EUR")

    func owned<V>(_ table: [UUID: InMemoryLibraries.Owned<V>], by owner: UUID) -> [V] { table.values.filter { $0.owner == owner }.map(\.value) }

    @Test func anExportFillsAnEmptyAccountAndIdsHeldElsewhereAreGivenAnew() async throws {
        let archive = try await annsArchive()
        let bob = try await account("bob@example.com")
        let settings = InMemorySettingsStore(Self.utc)
        let jpeg = try jpeg()
        let into = imports(bob, settings: settings) { jpeg }
        let steps = Steps()
        let report = try await ImportAccount(imports: into, now: now, today: monday)(archive, dryRun: false) { done, total in await steps.add(done, total) }
        let recipePhoto = try MealPhoto(importing: jpeg).data.count
        #expect(report.created["diary"] == 1203 && report.created["foods"] == 1 && report.created["recipePhotos"] == 1)
        #expect(report.photoBytes == jpeg.count + recipePhoto && !report.dryRun)
        #expect(await steps.all.last.map { $0 == (7, 7) } == true, "the library, a photo, a recipe photo, three diary chunks, the body")

        let stored = libraries.contents
        let foods = owned(stored.foods, by: bob), entries = owned(stored.entries, by: bob)
        #expect(foods.count == 1 && foods[0].name == "Rolled oats" && foods[0].id != archive.foods[0].id, "Ann's id is hers: Bob's food has a new one")
        #expect(entries.count == 1203 && entries.allSatisfy { $0.kind == .food(foodId: foods[0].id, quantity: 80, unit: .gram) }, "every entry points to Bob's food, not Ann's")
        let plan = owned(stored.assignments, by: bob)
        #expect(plan.count == 1 && plan[0].mealType == "dinner" && owned(stored.meals, by: bob).map(\.id) == [plan[0].mealId])
        // The recipe's photo heads Bob's copy of the meal (given a new id, as the meal was), an id of its own.
        let photoID = try #require(owned(stored.meals, by: bob)[0].photoId)
        #expect(stored.mealPhotos[photoID]?.data.count == recipePhoto && archive.meals[0].id != plan[0].mealId)
        #expect(owned(stored.weights, by: bob).count == 2 && owned(stored.photos, by: bob).count == 1 && into.files.count == 1)
        #expect(settings.current == AccountSettings(displayName: "Ann", timeZone: "Europe/Zurich", currency: "CHF"))
        #expect(stored.foods[archive.foods[0].id]?.owner != bob, "Ann keeps hers")
    }

    /// Another import stores a weighing under one of the archive's free ids after this one found
    /// it free: the import is taken back whole and runs again, the id now given anew. (The server's
    /// store refuses it by its primary key, the fake by its own check: both say ``IDTakenMeanwhile``.)
    @Test func anImportThatLostARaceForAnIdRunsAgainWithItGivenAnew() async throws {
        let archive = try await annsArchive()
        let bob = try await account("bob@example.com"), carol = try await account("carol@example.com")
        let taken = archive.weights[0].id
        let jpeg = try jpeg()
        let into = Racing(inner: imports(bob, settings: InMemorySettingsStore(Self.utc)) { jpeg }) { [libraries, now] in
            try await RecordWeight(store: libraries.body(of: carol), now: now)(.init(measuredAt: now, weightKg: 80), id: taken)
        }
        let steps = Steps()
        let report = try await ImportAccount(imports: into, now: now, today: monday)(archive, dryRun: false) { done, total in await steps.add(done, total) }
        #expect(report.created["weights"] == 2 && report.created["diary"] == 1203)
        #expect(await into.heldIDsAsked == 2, "found free, then held: asked again on the second run")
        // The body is written last, so the first run had reported every step but that one.
        #expect(await steps.all.map { [$0.0, $0.1] } == (1...7).map { [$0, 7] }, "each step once, in order: the second run waits past the first's")
        let stored = libraries.contents
        let weights = owned(stored.weights, by: bob)
        #expect(weights.count == 2 && !weights.map(\.id).contains(taken), "Bob's weighing got a new id")
        #expect(stored.weights[taken]?.owner == carol && stored.weights[taken]?.value.weightKg == 80, "Carol's is hers")
        #expect(owned(stored.entries, by: bob).count == 1203 && owned(stored.foods, by: bob).count == 1, "once, not twice")
    }

    /// An import whose first write another import races: `race` runs once, just before it.
    actor Racing: AccountImports {
        let inner: InMemoryAccountImports
        let race: @Sendable () async throws -> Void
        private var raced = false
        private(set) var heldIDsAsked = 0
        init(inner: InMemoryAccountImports, race: @escaping @Sendable () async throws -> Void) { (self.inner, self.race) = (inner, race) }

        func heldIDs(_ archive: AccountArchive) async throws -> Set<UUID> {
            heldIDsAsked += 1
            return try await inner.heldIDs(archive)
        }
        func write<T: Sendable>(_ body: @escaping @Sendable (any AccountImportRecords) async throws -> T) async throws -> T {
            if !raced {
                raced = true
                try await race()
            }
            return try await inner.write(body)
        }
        func snapshot() async throws -> AccountSnapshot { try await inner.snapshot() }
        func takeBack(_ archive: AccountArchive, restoring snapshot: AccountSnapshot) async throws { try await inner.takeBack(archive, restoring: snapshot) }
        func forgetPhotoFiles(_ ids: [UUID]) async { await inner.forgetPhotoFiles(ids) }
        func rehearsal() async throws -> any AccountImports { try await inner.rehearsal() }
    }

    @Test func anAccountHoldingRecordsIsRefusedAndKeepsThem() async throws {
        let archive = try await annsArchive()
        let bob = try await account("bob@example.com")
        _ = try await SaveFood(library: libraries.library(of: bob), now: now).add(FoodDraft(name: "Bob's bread", per100: Nutrients(energyKcal: 250)), id: UUID())
        let before = libraries.contents
        let settings = InMemorySettingsStore(Self.utc)
        let jpeg = try jpeg()
        let refused = await #expect(throws: Refusal.self) {
            try await ImportAccount(imports: imports(bob, settings: settings) { jpeg }, now: now, today: monday)(archive, dryRun: false)
        }
        guard case .conflict(let detail) = refused else { Issue.record("a conflict, not \(String(describing: refused))"); return }
        #expect(detail.contains("already holds foods"))
        #expect(libraries.contents.changes == before.changes && owned(libraries.contents.foods, by: bob).map(\.name) == ["Bob's bread"])
        #expect(settings.current == Self.utc && settings.saves == 0)
    }

    @Test func aFailurePartWayTakesBackEverythingItWrote() async throws {
        let archive = try await annsArchive()
        let bob = try await account("bob@example.com")
        let typesBefore = owned(libraries.contents.mealTypes, by: bob).sorted { $0.id.uuidString < $1.id.uuidString }
        let settings = InMemorySettingsStore(Self.utc)
        let into = imports(bob, settings: settings) { Data("not a photo".utf8) }
        let problem = await #expect(throws: ValidationError.self) {
            try await ImportAccount(imports: into, now: now, today: monday)(archive, dryRun: false)
        }
        #expect(problem?.fields.map { $0.field } == ["photos[0].file"])
        let stored = libraries.contents
        #expect(owned(stored.foods, by: bob).isEmpty && owned(stored.meals, by: bob).isEmpty && owned(stored.assignments, by: bob).isEmpty)
        #expect(owned(stored.entries, by: bob).isEmpty && owned(stored.photos, by: bob).isEmpty && into.files.isEmpty)
        #expect(owned(stored.mealTypes, by: bob).sorted { $0.id.uuidString < $1.id.uuidString } == typesBefore)
        #expect(settings.current == Self.utc, "the settings the import changed are put back")
        let deleted = Set(stored.changes.filter { $0.deleted && $0.at == now }.map(\.id))
        let bobsFoods = Set(stored.changes.filter { !$0.deleted && $0.kind == .food }.map(\.id)).subtracting(archive.foods.map(\.id))
        #expect(bobsFoods.count == 1 && deleted.isSuperset(of: bobsFoods), "a device that saw the food written is told it is gone")
    }

    @Test func aDryRunReportsAndLeavesNothing() async throws {
        let archive = try await annsArchive()
        let bob = try await account("bob@example.com")
        let before = libraries.contents
        let settings = InMemorySettingsStore(Self.utc)
        let jpeg = try jpeg()
        let into = imports(bob, settings: settings) { jpeg }
        let report = try await ImportAccount(imports: into, now: now, today: monday)(archive, dryRun: true)
        let recipePhoto = try MealPhoto(importing: jpeg).data.count
        #expect(report.dryRun && report.created["diary"] == 1203 && report.photoBytes == jpeg.count + recipePhoto)
        #expect(libraries.contents.changes == before.changes && owned(libraries.contents.entries, by: bob).isEmpty)
        #expect(into.files.isEmpty, "a dry run writes no photo file")
        #expect(settings.current == Self.utc && settings.saves == 0)
    }

    /// The person's store, counting the transactions an import opens on it and the records written in them.
    final class CountingImports: AccountImports, @unchecked Sendable {
        let inner: any AccountImports
        private let lock = NSLock()
        private var counts = (writes: 0, records: 0)
        init(_ inner: any AccountImports) { self.inner = inner }
        var writes: Int { lock.withLock { counts.writes } }
        /// Diary entries and photos written through this store.
        var records: Int { lock.withLock { counts.records } }
        func heldIDs(_ archive: AccountArchive) async throws -> Set<UUID> { try await inner.heldIDs(archive) }
        func write<T: Sendable>(_ body: @escaping @Sendable (any AccountImportRecords) async throws -> T) async throws -> T {
            lock.withLock { counts.writes += 1 }
            return try await inner.write { try await body(Counted(inner: $0, store: self)) }
        }
        func snapshot() async throws -> AccountSnapshot { try await inner.snapshot() }
        func takeBack(_ archive: AccountArchive, restoring snapshot: AccountSnapshot) async throws { try await inner.takeBack(archive, restoring: snapshot) }
        func forgetPhotoFiles(_ ids: [UUID]) async { await inner.forgetPhotoFiles(ids) }
        func rehearsal() async throws -> any AccountImports { try await inner.rehearsal() }
        func wrote(_ count: Int) { lock.withLock { counts.records += count } }

        struct Counted: AccountImportRecords {
            let inner: any AccountImportRecords
            let store: CountingImports
            func lockOwner() async throws { try await inner.lockOwner() }
            func heldRecords() async throws -> [String] { try await inner.heldRecords() }
            var library: any Library { inner.library }
            var settings: any SettingsStore { inner.settings }
            var body: any BodyStore { inner.body }
            func insertDiary(_ entries: [DiaryEntry], now: Date) async throws {
                store.wrote(entries.count)
                try await inner.insertDiary(entries, now: now)
            }
            func storePhoto(_ record: AccountArchive.PhotoRecord, index: Int) async throws -> Int {
                store.wrote(1)
                return try await inner.storePhoto(record, index: index)
            }
            func recipePhoto(_ record: AccountArchive.RecipePhotoRecord) async throws -> MealPhoto { try await inner.recipePhoto(record) }
        }
    }

    @Test func aDryRunHoldsThePersonsStoreForOneShortCheckOnly() async throws {
        let archive = try await annsArchive()
        let bob = try await account("bob@example.com")
        let jpeg = try jpeg()
        let store = CountingImports(imports(bob, settings: InMemorySettingsStore(Self.utc)) { jpeg })
        let report = try await ImportAccount(imports: store, now: now, today: monday)(archive, dryRun: true)
        let recipePhoto = try MealPhoto(importing: jpeg).data.count
        #expect(report.created["diary"] == 1203 && report.photoBytes == jpeg.count + recipePhoto)
        #expect(store.writes == 1 && store.records == 0, "the emptiness check only: the photo and 1,203 entries were rehearsed elsewhere")
        // What a real import refuses, a dry run refuses alike: a photo that is not one, an account not empty.
        var broken = archive
        broken.foods[0].name = " "
        let problem = await #expect(throws: ValidationError.self) {
            try await ImportAccount(imports: self.imports(bob, settings: InMemorySettingsStore(Self.utc)) { jpeg }, now: now, today: monday)(broken, dryRun: true)
        }
        #expect(problem?.fields.map(\.field) == ["foods[0].name"])
        _ = try await ImportAccount(imports: imports(bob, settings: InMemorySettingsStore(Self.utc)) { jpeg }, now: now, today: monday)(archive, dryRun: false)
        await #expect(throws: Refusal.self) {
            try await ImportAccount(imports: self.imports(bob, settings: InMemorySettingsStore(Self.utc)) { jpeg }, now: now, today: monday)(archive, dryRun: true)
        }
    }

    @Test func anArchiveWithTwoWeighingsAtOneInstantIsRefusedBeforeAnythingIsWritten() async throws {
        var archive = try await annsArchive()
        archive.weights[1].measuredAt = archive.weights[0].measuredAt
        let bob = try await account("bob@example.com")
        let before = libraries.contents
        let settings = InMemorySettingsStore(Self.utc)
        let problem = await #expect(throws: ValidationError.self) {
            try await ImportAccount(imports: imports(bob, settings: settings) { Data() }, now: now, today: monday)(archive, dryRun: false)
        }
        #expect(problem?.fields.map { $0.field } == ["weights"])
        #expect(libraries.contents.changes == before.changes && settings.saves == 0)
    }

    actor Steps {
        var all: [(Int, Int)] = []
        func add(_ done: Int, _ total: Int) { all.append((done, total)) }
    }
}
