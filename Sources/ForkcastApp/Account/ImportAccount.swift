import ForkcastContract
import ForkcastCore
import Foundation

/// Filling an empty account from an export (docs/export-format.md), from the API, the Settings page
/// and `forkcast import` alike: all of the archive, or — at the first problem — nothing.
///
/// Every record goes through the same use case as one typed in (settings, meal types, foods, meals,
/// the plan); the archive is checked whole before anything is written. The writes are short (the
/// library, then each photo and recipe photo, then the diary 500 entries at a time, then the body), so other people's
/// writes go on between them; a failure part-way takes back what was written. A dry run does it all
/// in a rehearsal (``AccountImports/rehearsal()``), after reading that the account is empty.
public struct ImportAccount: Sendable {
    let imports: any AccountImports
    /// The request's time: the time of every change.
    let now: Date
    /// The person's today, for the body profile's age.
    let today: CalendarDate

    public init(imports: any AccountImports, now: Date, today: CalendarDate) {
        self.imports = imports
        self.now = now
        self.today = today
    }

    /// Diary entries (and weighings) written per transaction.
    public static let chunkSize = 500

    /// What an import did (or, in a dry run, would do).
    /// Records created, by the archive's field names (mealTypes counts the updated built-in ones).
    public typealias Report = AccountImportReport

    /// Imports `archive`. `progress` hears of each short write done, out of how many.
    /// Throws ``ValidationError`` (fields named as in the archive: `foods[3].name`) or
    /// ``Refusal/conflict(_:)`` (the account is not empty).
    public func callAsFunction(_ archive: AccountArchive, dryRun: Bool,
                               progress: (@Sendable (_ done: Int, _ total: Int) async -> Void)? = nil) async throws -> Report {
        let problems = archive.problems()
        guard problems.isEmpty else { throw ValidationError(problems) }
        try checkBody(archive)
        // A run again repeats the steps the first had done: they are heard only past the furthest
        // one reached, so the progress a person watches waits there rather than going back.
        let furthest = progress.map(Furthest.init)
        let progress = furthest.map { furthest in { @Sendable done, total in await furthest.report(done, of: total) } }
        var attempt = 1
        while true {
            do {
                return try await run(archive, dryRun: dryRun, progress: progress)
            } catch let taken as IDTakenMeanwhile {
                // Another import stored one of these ids after this one found it free (the same
                // export into two accounts at once), and this one was taken back whole. Run again:
                // the ids now held are given anew, as when the imports come one after the other.
                guard attempt < Self.attempts else { throw taken.underlying }
                attempt += 1
            }
        }
    }

    /// How often an import that lost a race for its ids runs.
    public static let attempts = 5

    /// Progress that only goes forward.
    private actor Furthest {
        let progress: @Sendable (_ done: Int, _ total: Int) async -> Void
        private var reached = 0
        init(_ progress: @escaping @Sendable (_ done: Int, _ total: Int) async -> Void) { self.progress = progress }

        func report(_ done: Int, of total: Int) async {
            guard done > reached else { return }
            reached = done
            await progress(done, total)
        }
    }

    private func run(_ archive: AccountArchive, dryRun: Bool,
                     progress: (@Sendable (_ done: Int, _ total: Int) async -> Void)?) async throws -> Report {
        // Ids are kept where they are free. One this server holds (the export imported twice, or
        // into a second account while the first exists) is given anew, as is a diary entry's food
        // or meal the export does not hold: no record can point into another account, and the
        // answer is the same whether or not any account holds an id.
        var renamed: [UUID: UUID] = [:]
        for id in try await imports.heldIDs(archive).union(archive.outsideReferences) { renamed[id] = UUID.timeOrdered() }
        let archive = archive.renaming(renamed)
        let attempted = Attempted()

        if dryRun {
            // The account's emptiness is read here; every step runs in a rehearsal in memory, so
            // other writers never wait for a dry run however long the archive.
            try await imports.write { try await self.checkEmpty($0) }
            let rehearsal = try await imports.rehearsal()
            return try await rehearsal.write { records in
                try await self.writeLibrary(archive, records)
                var bytes = 0
                for index in archive.photos.indices { bytes += try await self.storePhoto(archive, index, records, attempted) }
                for index in archive.recipePhotos.indices { bytes += try await self.checkRecipePhoto(archive, index, records) }
                try await self.writeDiary(archive.diary, records)
                try await self.writeBody(archive, records)
                return Report(dryRun: true, created: archive.counts, photoBytes: bytes)
            }
        }

        let before = try await imports.snapshot()
        let chunks = stride(from: 0, to: archive.diary.count, by: Self.chunkSize)
            .map { Array(archive.diary[$0..<min($0 + Self.chunkSize, archive.diary.count)]) }
        let total = 2 + archive.photos.count + archive.recipePhotos.count + chunks.count
        var done = 0
        func step() async { done += 1; await progress?(done, total) }
        // The first write checks the account is empty: refused there, nothing was written and there
        // is nothing to take back (taking back would remove the records that made it not empty).
        try await imports.write { try await self.writeLibrary(archive, $0) }
        do {
            await step()
            var bytes = 0
            for index in archive.photos.indices {
                bytes += try await imports.write { try await self.storePhoto(archive, index, $0, attempted) }
                await step()
            }
            for index in archive.recipePhotos.indices {
                bytes += try await imports.write { try await self.storeRecipePhoto(archive, index, $0) }
                await step()
            }
            for chunk in chunks {
                try await imports.write { try await self.writeDiary(chunk, $0) }
                await step()
            }
            try await imports.write { try await self.writeBody(archive, $0) }
            await step()
            return Report(dryRun: false, created: archive.counts, photoBytes: bytes)
        } catch {
            try? await imports.takeBack(archive, restoring: before)
            await imports.forgetPhotoFiles(attempted.ids)
            throw error
        }
    }

    /// Settings, meal types, foods, meals and the plan, after checking the account is empty; and the
    /// diary's rules (its meal types exist now). Ids were made free by the renaming; one taken since
    /// (another import at the same moment) fails on its primary key.
    private func writeLibrary(_ archive: AccountArchive, _ records: any AccountImportRecords) async throws {
        try await checkEmpty(records)
        // Settings first: prices and "today" follow the time zone and currency.
        try await UpdateSettings(store: records.settings, now: now)(displayName: archive.account.displayName ?? "",
                                                                     timeZone: archive.account.timeZone, currency: archive.account.currency)
        let library = records.library, now = now
        // Meal types: the built-in ones are changed, the person's own created with their ids.
        let types = SaveMealType(library: library, now: now)
        let builtIn = Dictionary(try await library.write { try await $0.mealTypes.catalog(now: now) }.all.compactMap { t in t.key.map { ($0, t.id) } },
                                 uniquingKeysWith: { a, _ in a })
        for (index, type) in archive.mealTypes.sorted(by: { $0.position < $1.position }).enumerated() {
            let change = SaveMealType.Change(name: type.name, window: .some(type.window.map { ($0.startText, $0.endText) }),
                                             position: index, hidden: type.hidden)
            try await prefixing("mealTypes[\(index)].") {
                if let key = type.key {
                    guard let id = builtIn[key] else {
                        throw ValidationError(field: "key", "“\(key.prefix(40))” is not a built-in meal type of this server.")
                    }
                    _ = try await types.change(id, change)
                } else {
                    _ = try await types.add(change, id: type.id)
                }
            }
        }
        // Foods, meals and the plan, through the same checks as ones typed in.
        let foods = SaveFood(library: library, now: now)
        for (index, food) in archive.foods.enumerated() {
            try await prefixing("foods[\(index)].") {
                _ = try await foods.restore(FoodDraft(food), id: food.id, createdAt: min(food.createdAt, now), updatedAt: min(food.updatedAt, now))
            }
        }
        for (index, meal) in archive.meals.enumerated() {
            try await prefixing("meals[\(index)].") {
                _ = try await SaveMeal(library: library, now: min(meal.createdAt, now)).add(MealDraft(meal.content), id: meal.id)
            }
        }
        // Each repeat gets a series of its own here: an export imported twice into one household
        // must not make one repeat of two people's days.
        var series: [UUID: UUID] = [:]
        for id in Set(archive.plan.compactMap(\.seriesId)) { series[id] = UUID.timeOrdered() }
        for (index, assignment) in archive.plan.enumerated() {
            try await prefixing("plan[\(index)].") {
                _ = try await PlanMeal(library: library, now: min(assignment.createdAt, now))(assignment.mealId, on: assignment.date,
                                                                                     mealType: assignment.mealType, servings: assignment.servings, id: assignment.id,
                                                                                     seriesId: assignment.seriesId.flatMap { series[$0] })
            }
        }
        // Shopping lists with their checks and the person's own items, through the same rules as typed ones.
        for (index, record) in archive.shoppingLists.enumerated() {
            try await prefixing("shoppingLists[\(index)].") {
                let checked = try ShoppingList.validated(name: record.list.name, from: record.list.from, to: record.list.to)
                let list = ShoppingList(id: record.list.id, name: checked.name, from: checked.from, to: checked.to,
                                        createdAt: min(record.list.createdAt, now), updatedAt: min(record.list.updatedAt, now))
                var items: [ShoppingItem] = []
                for (position, item) in record.items.enumerated() {
                    do {
                        let fields = try ShoppingItemRules.validated(name: item.name, quantity: item.quantity, unit: item.unit,
                                                                     category: item.category, requireName: true)
                        var kept = item
                        (kept.name, kept.quantity, kept.unit) = (fields.name ?? item.name, fields.quantity, fields.unit)
                        kept.category = fields.category ?? ShoppingCategory.other
                        kept.meals = Array(item.meals.prefix(100).map { String($0.prefix(MealDraft.maximumDescriptionLength)) })
                        if let price = item.estimatedPrice, !ShoppingItem.priceRange.contains(price) {
                            throw ValidationError(field: "estimatedPrice", "An estimated price must be from 0 to 1,000,000; got \(price).")
                        }
                        items.append(kept)
                    } catch let error as ValidationError { throw error.prefixed("items[\(position)].") }
                }
                let valid = items
                try await library.write { tx in
                    try await tx.shopping.insert(list, now: now)
                    try await tx.shopping.insert(valid, now: now)
                }
            }
        }
        // The pantry's lots, each as one added by hand.
        let stock = StockPantry(library: library, now: now, today: today)
        for (index, lot) in archive.pantry.enumerated() {
            try await prefixing("pantry[\(index)].") {
                _ = try await stock.add(PantryInput(foodId: lot.foodId, amount: lot.amount, unit: lot.unit.rawValue, location: lot.location,
                                                    bestBefore: lot.bestBefore, opened: lot.opened), id: lot.id)
            }
        }
        // The diary is written later; its rules are checked now, before anything else is.
        let catalog = try await library.write { try await $0.mealTypes.catalog(now: now) }
        for (index, entry) in archive.diary.enumerated() {
            let problems = DiaryValidation.archived(entry, types: catalog)
            guard problems.isEmpty else { throw ValidationError(problems).prefixed("diary[\(index)].") }
        }
    }

    private func checkEmpty(_ records: any AccountImportRecords) async throws {
        try await records.lockOwner()
        let held = try await records.heldRecords()
        guard held.isEmpty else {
            throw Refusal.conflict("An import fills an empty account, and this one already holds \(held.joined(separator: ", ")). Import into a new account, or delete this one's data first.")
        }
    }

    private func writeDiary(_ entries: [DiaryEntry], _ records: any AccountImportRecords) async throws {
        for start in stride(from: 0, to: entries.count, by: Self.chunkSize) {
            try await records.insertDiary(Array(entries[start..<min(start + Self.chunkSize, entries.count)]), now: now)
        }
    }

    /// Runs `body`, naming the record a problem or a missing reference is in.
    func prefixing<T>(_ prefix: String, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as ValidationError {
            throw error.prefixed(prefix)
        } catch Refusal.missingReference(let field, let detail) {
            throw Refusal.missingReference(field: prefix + field, detail: detail)
        }
    }
}
