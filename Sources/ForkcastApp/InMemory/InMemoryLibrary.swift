import ForkcastCore
import Foundation

/// Libraries kept in memory, for many people: the fake the use cases are tested with alone (no
/// database, no server), held to the same contract as the server's SQLite and PostgreSQL ones.
///
/// Writers take turns (one transaction at a time, like SQLite's writer and PostgreSQL's per-person
/// lock), each works on a copy, and the copy replaces the records only when the transaction
/// returns: a transaction that throws leaves nothing behind.
public final class InMemoryLibraries: @unchecked Sendable {
    private let lock = NSLock()
    private var records = Records()
    private var writing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// One person's library.
    public func library(of owner: UUID) -> InMemoryLibrary { InMemoryLibrary(libraries: self, owner: owner) }

    /// One person's body profile, goals and weights.
    public func body(of owner: UUID) -> InMemoryBodyStore { InMemoryBodyStore(libraries: self, owner: owner) }

    /// The accounts (see ``InMemoryAccounts``).
    public var accounts: InMemoryAccounts { InMemoryAccounts(libraries: self) }

    /// One person's account as an import fills it (see ``InMemoryAccountImports``).
    public func imports(of owner: UUID, settings: InMemorySettingsStore, now: Date,
                        photoBytes: @escaping @Sendable (AccountArchive.PhotoRecord) throws -> Data) -> InMemoryAccountImports {
        InMemoryAccountImports(libraries: self, owner: owner, settings: settings, now: now, photoBytes: photoBytes)
    }

    /// One person's diary, in their time zone.
    public func diary(of owner: UUID, zone: TimeZone) -> InMemoryDiary { InMemoryDiary(libraries: self, owner: owner, zone: zone) }

    /// Everything stored, for tests to look at.
    public var contents: Records { lock.withLock { records } }

    /// What is stored: every person's records, each row with its owner, and the change feed.
    public struct Records: Sendable {
        public internal(set) var foods: [UUID: Owned<Food>] = [:]
        public internal(set) var meals: [UUID: Owned<Meal>] = [:]
        public internal(set) var assignments: [UUID: Owned<Assignment>] = [:]
        public internal(set) var mealTypes: [UUID: Owned<MealType>] = [:]
        public internal(set) var profiles: [UUID: BodyProfile] = [:]
        public internal(set) var goals: [UUID: Goals] = [:]
        public internal(set) var weights: [UUID: Owned<WeightEntry>] = [:]
        public internal(set) var entries: [UUID: Owned<DiaryEntry>] = [:]
        public internal(set) var photos: [UUID: Owned<Photo>] = [:]
        public internal(set) var shoppingLists: [UUID: Owned<ShoppingList>] = [:]
        public internal(set) var shoppingItems: [UUID: Owned<ShoppingItem>] = [:]
        public internal(set) var accounts: [UUID: Account] = [:]
        /// Account ids in the order they were created (the first is the owner).
        public internal(set) var accountOrder: [UUID] = []
        public internal(set) var invitations: [UUID: Invitation] = [:]
        /// Each used invitation, with the account it created.
        public internal(set) var usedInvitations: [UUID: UUID] = [:]
        /// Each linked sign-in, with the account it signs in to.
        public internal(set) var identities: [LinkedIdentity: UUID] = [:]
        /// One row per record stored or deleted, in order: what a synced device would be sent.
        public internal(set) var changes: [Change] = []
    }

    public struct Owned<Value: Sendable>: Sendable {
        public let owner: UUID
        public var value: Value
    }

    public struct Change: Sendable, Equatable {
        public typealias Kind = SyncKind
        public let kind: Kind
        public let id: UUID
        public let deleted: Bool
        public let at: Date

        public init(kind: Kind, id: UUID, deleted: Bool, at: Date) {
            self.kind = kind
            self.id = id
            self.deleted = deleted
            self.at = at
        }
    }

    /// An id stored twice: what a database's primary key refuses.
    public struct DuplicateID: Error, Sendable { public let id: UUID }

    /// A second weighing of one person at one instant: what the database's unique index refuses.
    public struct SameInstant: Error, Sendable { public let at: Date }

    /// A photo shown by a second entry: what the database's unique index refuses.
    public struct PhotoShownTwice: Error, Sendable { public let photo: UUID }

    /// Runs `body` as one of `owner`'s transactions: on its turn, on a copy that replaces the
    /// records only when `body` returns.
    func transaction<T: Sendable>(owner: UUID, _ body: (InMemoryLibrary.Transaction) async throws -> T) async rethrows -> T {
        await turn()
        defer { done() }
        let tx = InMemoryLibrary.Transaction(owner: owner, records: contents)
        let result = try await body(tx)
        let committed = tx.records
        lock.withLock { records = committed }
        return result
    }

    private func turn() async {
        await withCheckedContinuation { (next: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if writing { waiting.append(next); return false }
                writing = true
                return true
            }
            if now { next.resume() }
        }
    }

    private func done() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiting.isEmpty { writing = false; return nil }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}

/// One person's library in memory (see ``InMemoryLibraries``).
public struct InMemoryLibrary: Library {
    let libraries: InMemoryLibraries
    public let owner: UUID
    /// The transaction this library's writes run in, when it was handed out inside one (as the
    /// server's is, made on a transaction).
    var joined: Transaction?

    public func write<T: Sendable>(_ body: @escaping @Sendable (any LibraryTransaction) async throws -> T) async throws -> T {
        if let joined { return try await body(joined) }
        return try await libraries.transaction(owner: owner) { try await body($0) }
    }

    /// The records a transaction works on: a copy, guarded because the protocol's views are values.
    final class Transaction: LibraryTransaction, @unchecked Sendable {
        let owner: UUID
        private let lock = NSLock()
        private var _records: InMemoryLibraries.Records

        init(owner: UUID, records: InMemoryLibraries.Records) {
            self.owner = owner
            _records = records
        }

        var records: InMemoryLibraries.Records { lock.withLock { _records } }

        func update<R>(_ change: (inout InMemoryLibraries.Records) throws -> R) rethrows -> R {
            try lock.withLock { try change(&_records) }
        }

        func log(_ kind: InMemoryLibraries.Change.Kind, _ ids: [UUID], deleted: Bool, at: Date, in records: inout InMemoryLibraries.Records) {
            records.changes += ids.map { .init(kind: kind, id: $0, deleted: deleted, at: at) }
        }

        var foods: any FoodRecords { Foods(tx: self) }
        var meals: any MealRecords { Meals(tx: self) }
        var plan: any PlanRecords { Plan(tx: self) }
        var mealTypes: any MealTypeRecords { MealTypes(tx: self) }
        var shopping: any ShoppingRecords { Shopping(tx: self) }
    }

    struct Foods: FoodRecords {
        let tx: Transaction

        func find(_ id: UUID) async throws -> Food? {
            tx.records.foods[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func find(ids: [UUID]) async throws -> [UUID: Food] {
            let foods = tx.records.foods
            return Dictionary(ids.compactMap { id in foods[id].flatMap { $0.owner == tx.owner ? (id, $0.value) : nil } },
                              uniquingKeysWith: { a, _ in a })
        }

        func holder(of barcode: Barcode, except id: UUID) async throws -> Food? {
            tx.records.foods.values.first { $0.owner == tx.owner && $0.value.barcode == barcode && $0.value.id != id }?.value
        }

        func adopted(_ catalogId: String) async throws -> Food? {
            tx.records.foods.values.first { $0.owner == tx.owner && $0.value.catalogId == catalogId }?.value
        }

        func meals(using id: UUID) async throws -> [String] {
            let meals = tx.records.meals.values.filter { $0.owner == tx.owner && $0.value.ingredients.contains { $0.foodId == id } }
            return Array(Set(meals.map(\.value.description))).sorted()
        }

        func insert(_ food: Food) async throws {
            try tx.update { records in
                guard records.foods[food.id] == nil else { throw InMemoryLibraries.DuplicateID(id: food.id) }
                records.foods[food.id] = .init(owner: tx.owner, value: food)
                tx.log(.food, [food.id], deleted: false, at: food.updatedAt, in: &records)
            }
        }

        func replace(_ food: Food) async throws -> Bool {
            tx.update { records in
                guard let stored = records.foods[food.id], stored.owner == tx.owner else { return false }
                var food = food
                food.createdAt = stored.value.createdAt  // as the database's row keeps it
                records.foods[food.id]?.value = food
                tx.log(.food, [food.id], deleted: false, at: food.updatedAt, in: &records)
                return true
            }
        }

        func delete(_ id: UUID, now: Date) async throws -> Bool {
            try tx.update { records in
                guard records.foods[id]?.owner == tx.owner else { return false }
                // The database refuses to delete a food an ingredient refers to.
                if records.meals.values.contains(where: { $0.value.ingredients.contains { $0.foodId == id } }) {
                    throw StillReferenced(id: id)
                }
                records.foods[id] = nil
                tx.log(.food, [id], deleted: true, at: now, in: &records)
                return true
            }
        }
    }

    struct Meals: MealRecords {
        let tx: Transaction

        func find(_ id: UUID) async throws -> Meal? {
            tx.records.meals[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func insert(_ content: MealContent, id: UUID, now: Date) async throws -> Meal {
            try tx.update { records in
                guard records.meals[id] == nil else { throw InMemoryLibraries.DuplicateID(id: id) }
                let meal = Meal(id: id, content: content, createdAt: now, updatedAt: now)
                records.meals[id] = .init(owner: tx.owner, value: meal)
                tx.log(.meal, [id], deleted: false, at: now, in: &records)
                return meal
            }
        }

        func replace(_ id: UUID, with content: MealContent, now: Date) async throws -> Meal? {
            tx.update { records in
                guard let stored = records.meals[id], stored.owner == tx.owner else { return nil }
                let meal = Meal(id: id, content: content, createdAt: stored.value.createdAt, updatedAt: now)
                records.meals[id]?.value = meal
                tx.log(.meal, [id], deleted: false, at: now, in: &records)
                return meal
            }
        }

        func delete(_ id: UUID, now: Date) async throws -> Bool {
            try tx.update { records in
                guard records.meals[id]?.owner == tx.owner else { return false }
                // As the server's store: a meal still planned is refused.
                if records.assignments.values.contains(where: { $0.value.mealId == id }) { throw StillReferenced(id: id) }
                records.meals[id] = nil
                tx.log(.meal, [id], deleted: true, at: now, in: &records)
                return true
            }
        }
    }

    struct Plan: PlanRecords {
        let tx: Transaction

        func entries(from: CalendarDate, to: CalendarDate) async throws -> [PlanDay.Entry] {
            let records = tx.records
            let assignments = records.assignments.values.filter { $0.owner == tx.owner && $0.value.date >= from && $0.value.date <= to }.map(\.value)
            let meals = records.meals.values.filter { $0.owner == tx.owner }.map(\.value)
            let types = try await MealTypes(tx: tx).catalog(now: Date.distantPast)
            let window = WeekWindow(start: from, length: from.days(until: to) + 1)
            return PlanBuilder.days(in: window, assignments: assignments, meals: Dictionary(uniqueKeysWithValues: meals.map { ($0.id, $0) }), types: types)
                .flatMap(\.entries)
        }

        func find(_ id: UUID) async throws -> Assignment? {
            tx.records.assignments[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func insert(_ assignment: Assignment, now: Date) async throws {
            try tx.update { records in
                guard records.assignments[assignment.id] == nil else { throw InMemoryLibraries.DuplicateID(id: assignment.id) }
                records.assignments[assignment.id] = .init(owner: tx.owner, value: assignment)
                tx.log(.assignment, [assignment.id], deleted: false, at: now, in: &records)
            }
        }

        func delete(_ id: UUID, now: Date) async throws -> Assignment? {
            tx.update { records in
                guard let stored = records.assignments[id], stored.owner == tx.owner else { return nil }
                records.assignments[id] = nil
                tx.log(.assignment, [id], deleted: true, at: now, in: &records)
                return stored.value
            }
        }

        func deleteAll(of mealID: UUID, now: Date) async throws -> [Assignment] {
            tx.update { records in
                let planned = records.assignments.values.filter { $0.owner == tx.owner && $0.value.mealId == mealID }.map(\.value)
                for assignment in planned { records.assignments[assignment.id] = nil }
                tx.log(.assignment, planned.map(\.id), deleted: true, at: now, in: &records)
                return planned
            }
        }
    }

    struct MealTypes: MealTypeRecords {
        let tx: Transaction

        private func mine(_ records: InMemoryLibraries.Records) -> [MealType] {
            records.mealTypes.values.filter { $0.owner == tx.owner }.map(\.value)
        }

        func catalog(now: Date) async throws -> MealTypeCatalog {
            let types = mine(tx.records)
            return types.isEmpty ? .defaults(owner: tx.owner, now: now) : MealTypeCatalog(types)
        }

        func stored(now: Date) async throws -> MealTypeCatalog {
            tx.update { records in
                let types = mine(records)
                if !types.isEmpty { return MealTypeCatalog(types) }
                let defaults = MealTypeCatalog.defaults(owner: tx.owner, now: now)
                for type in defaults.all { records.mealTypes[type.id] = .init(owner: tx.owner, value: type) }
                tx.log(.mealType, defaults.all.map(\.id), deleted: false, at: now, in: &records)
                return defaults
            }
        }

        func find(_ id: UUID) async throws -> MealType? {
            tx.records.mealTypes[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func insert(_ type: MealType, now: Date) async throws {
            try tx.update { records in
                guard records.mealTypes[type.id] == nil else { throw InMemoryLibraries.DuplicateID(id: type.id) }
                records.mealTypes[type.id] = .init(owner: tx.owner, value: type)
                tx.log(.mealType, [type.id], deleted: false, at: now, in: &records)
            }
        }

        func replace(_ type: MealType, now: Date) async throws -> Bool {
            tx.update { records in
                guard let stored = records.mealTypes[type.id], stored.owner == tx.owner else { return false }
                // As the database's row: the key and createdAt stay; the rest is the type's.
                records.mealTypes[type.id]?.value = MealType(id: type.id, key: stored.value.key, name: type.name, window: type.window,
                                                             position: type.position, hidden: type.hidden, createdAt: stored.value.createdAt,
                                                             updatedAt: type.updatedAt)
                tx.log(.mealType, [type.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func move(_ id: UUID, to position: Int, in catalog: MealTypeCatalog, now: Date) async throws {
            var order = catalog.all.map(\.id).filter { $0 != id }
            order.insert(id, at: max(0, min(position, order.count)))
            tx.update { records in
                var changed: [UUID] = []
                for type in mine(records) {
                    guard let index = order.firstIndex(of: type.id), type.position != index else { continue }
                    records.mealTypes[type.id]?.value.position = index
                    records.mealTypes[type.id]?.value.updatedAt = now
                    changed.append(type.id)
                }
                tx.log(.mealType, changed, deleted: false, at: now, in: &records)
            }
        }
    }
}

/// One person's body records in memory (see ``InMemoryLibraries``).
public struct InMemoryBodyStore: BodyStore {
    let libraries: InMemoryLibraries
    public let owner: UUID
    /// See ``InMemoryLibrary``'s.
    var joined: InMemoryLibrary.Transaction?

    public func write<T: Sendable>(_ body: @escaping @Sendable (any BodyRecords) async throws -> T) async throws -> T {
        if let joined { return try await body(Records(tx: joined)) }
        return try await libraries.transaction(owner: owner) { try await body(Records(tx: $0)) }
    }

    struct Records: BodyRecords {
        let tx: InMemoryLibrary.Transaction

        func profile() async throws -> BodyProfile? {
            // As the server's: the profile's weight is the newest weighing.
            tx.records.profiles[tx.owner]?.following(latestWeight: try await latestWeight()?.weightKg)
        }

        func storedGoals() async throws -> Goals? { tx.records.goals[tx.owner] }

        func saveProfile(_ profile: BodyProfile, now: Date) async throws {
            tx.update { records in
                records.profiles[tx.owner] = profile
                tx.log(.bodyProfile, [tx.owner], deleted: false, at: now, in: &records)
            }
        }

        func saveGoals(_ goals: Goals, now: Date) async throws {
            tx.update { records in
                records.goals[tx.owner] = goals
                tx.log(.goals, [tx.owner], deleted: false, at: now, in: &records)
            }
        }

        func weight(_ id: UUID) async throws -> WeightEntry? {
            tx.records.weights[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func weights(at instant: Date) async throws -> [WeightEntry] {
            tx.records.weights.values.filter { $0.owner == tx.owner && WeightEntry.sameInstant($0.value.measuredAt, instant) }.map(\.value)
        }

        func weights(from: Date?, to: Date?) async throws -> [WeightEntry] {
            tx.records.weights.values.filter { $0.owner == tx.owner }.map(\.value)
                .filter { weight in weight.measuredAt >= (from ?? .distantPast) && weight.measuredAt <= (to ?? .distantFuture) }
                .sorted { $0.measuredAt < $1.measuredAt }
        }

        func latestWeight() async throws -> WeightEntry? {
            tx.records.weights.values.filter { $0.owner == tx.owner }.map(\.value).max { $0.measuredAt < $1.measuredAt }
        }

        func insertWeights(_ weights: [WeightEntry], now: Date) async throws {
            for weight in weights { try await insertWeight(weight, now: now) }
        }

        func insertWeight(_ weight: WeightEntry, now: Date) async throws {
            try tx.update { records in
                guard records.weights[weight.id] == nil else { throw InMemoryLibraries.DuplicateID(id: weight.id) }
                try Self.checkInstant(weight, owner: tx.owner, records)
                records.weights[weight.id] = .init(owner: tx.owner, value: weight)
                tx.log(.weight, [weight.id], deleted: false, at: now, in: &records)
            }
        }

        func replaceWeight(_ weight: WeightEntry, now: Date) async throws -> Bool {
            try tx.update { records in
                guard let stored = records.weights[weight.id], stored.owner == tx.owner else { return false }
                try Self.checkInstant(weight, owner: tx.owner, records)
                var weight = weight
                weight.source = stored.value.source  // as the database's row keeps it
                records.weights[weight.id]?.value = weight
                tx.log(.weight, [weight.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        /// One weighing per person and instant, like the database's unique index.
        private static func checkInstant(_ weight: WeightEntry, owner: UUID, _ records: InMemoryLibraries.Records) throws {
            if records.weights.values.contains(where: { other in
                other.value.id != weight.id && other.owner == owner && other.value.measuredAt == weight.measuredAt
            }) { throw InMemoryLibraries.SameInstant(at: weight.measuredAt) }
        }

        func deleteWeight(_ id: UUID, now: Date) async throws -> Bool {
            tx.update { records in
                guard records.weights[id]?.owner == tx.owner else { return false }
                records.weights[id] = nil
                tx.log(.weight, [id], deleted: true, at: now, in: &records)
                return true
            }
        }
    }
}

extension InMemoryLibrary {
    struct Shopping: ShoppingRecords {
        let tx: Transaction

        func find(_ id: UUID) async throws -> ShoppingList? {
            tx.records.shoppingLists[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func items(of listID: UUID) async throws -> [ShoppingItem] {
            tx.records.shoppingItems.values.filter { $0.owner == tx.owner && $0.value.listId == listID }.map(\.value)
        }

        func item(_ id: UUID) async throws -> ShoppingItem? {
            tx.records.shoppingItems[id].flatMap { $0.owner == tx.owner ? $0.value : nil }
        }

        func chosenCategories(for foodIDs: [UUID]) async throws -> [UUID: String] {
            let wanted = Set(foodIDs)
            var result: [UUID: (String, Date)] = [:]
            for item in tx.records.shoppingItems.values.filter({ $0.owner == tx.owner }).map(\.value) where item.categoryChosen {
                guard let food = item.foodId, wanted.contains(food) else { continue }
                if let seen = result[food], seen.1 >= item.updatedAt { continue }
                result[food] = (item.category, item.updatedAt)
            }
            return result.mapValues(\.0)
        }

        func insert(_ list: ShoppingList, now: Date) async throws {
            try tx.update { records in
                guard records.shoppingLists[list.id] == nil else { throw InMemoryLibraries.DuplicateID(id: list.id) }
                records.shoppingLists[list.id] = .init(owner: tx.owner, value: list)
                tx.log(.shoppingList, [list.id], deleted: false, at: now, in: &records)
            }
        }

        func replace(_ list: ShoppingList, now: Date) async throws -> Bool {
            tx.update { records in
                guard let stored = records.shoppingLists[list.id], stored.owner == tx.owner else { return false }
                var kept = list
                kept.shareToken = stored.value.shareToken
                records.shoppingLists[list.id] = .init(owner: tx.owner, value: kept)
                tx.log(.shoppingList, [list.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func delete(list id: UUID, now: Date) async throws -> Bool {
            tx.update { records in
                guard let stored = records.shoppingLists[id], stored.owner == tx.owner else { return false }
                let items = records.shoppingItems.values.filter { $0.owner == tx.owner && $0.value.listId == id }.map(\.value.id)
                for item in items { records.shoppingItems[item] = nil }
                records.shoppingLists[id] = nil
                tx.log(.shoppingItem, items, deleted: true, at: now, in: &records)
                tx.log(.shoppingList, [id], deleted: true, at: now, in: &records)
                return true
            }
        }

        func insert(_ items: [ShoppingItem], now: Date) async throws {
            try tx.update { records in
                for item in items {
                    guard records.shoppingItems[item.id] == nil else { throw InMemoryLibraries.DuplicateID(id: item.id) }
                    records.shoppingItems[item.id] = .init(owner: tx.owner, value: item)
                }
                tx.log(.shoppingItem, items.map(\.id), deleted: false, at: now, in: &records)
            }
        }

        func replace(_ item: ShoppingItem, now: Date) async throws -> Bool {
            tx.update { records in
                guard let stored = records.shoppingItems[item.id], stored.owner == tx.owner else { return false }
                records.shoppingItems[item.id] = .init(owner: tx.owner, value: item)
                tx.log(.shoppingItem, [item.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func delete(items ids: [UUID], now: Date) async throws {
            tx.update { records in
                let mine = ids.filter { records.shoppingItems[$0]?.owner == tx.owner }
                for id in mine { records.shoppingItems[id] = nil }
                tx.log(.shoppingItem, mine, deleted: true, at: now, in: &records)
            }
        }

        func setShareToken(_ token: String?, of listID: UUID, now: Date) async throws {
            tx.update { records in
                guard var stored = records.shoppingLists[listID], stored.owner == tx.owner else { return }
                stored.value.shareToken = token
                records.shoppingLists[listID] = stored
                tx.log(.shoppingList, [listID], deleted: false, at: now, in: &records)
            }
        }
    }
}
