import ForkcastCore
import Foundation

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
        var pantry: any PantryRecords { Pantry(tx: self) }
        var templates: any PlanTemplateRecords { Templates(tx: self) }
        /// The person's household: everyone in it with them.
        var members: [UUID] {
            let records = records
            guard let household = records.memberships[owner]?.household else { return [owner] }
            return records.memberships.filter { $0.value.household == household }.map(\.key)
        }

        /// Whether a record `holder` added is in this person's kitchen (``InMemoryLibraries/Records/shares(_:with:)``).
        func holds(_ holder: UUID) -> Bool { records.shares(holder, with: owner) }
    }

    struct Foods: FoodRecords {
        let tx: Transaction

        func find(_ id: UUID) async throws -> Food? {
            tx.records.foods[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
        }

        func find(ids: [UUID]) async throws -> [UUID: Food] {
            let foods = tx.records.foods
            return Dictionary(ids.compactMap { id in foods[id].flatMap { tx.holds($0.owner) ? (id, $0.value) : nil } },
                              uniquingKeysWith: { a, _ in a })
        }

        func holder(of barcode: Barcode, except id: UUID) async throws -> Food? {
            tx.records.foods.values.first { tx.holds($0.owner) && $0.value.barcode == barcode && $0.value.id != id }?.value
        }

        func adopted(_ catalogId: String) async throws -> Food? {
            tx.records.foods.values.first { tx.holds($0.owner) && $0.value.catalogId == catalogId }?.value
        }

        func meals(using id: UUID) async throws -> [String] {
            let meals = tx.records.meals.values.filter { tx.holds($0.owner) && $0.value.ingredients.contains { $0.foodId == id } }
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
                guard let stored = records.foods[food.id], records.shares(stored.owner, with: tx.owner) else { return false }
                var food = food
                food.createdAt = stored.value.createdAt  // as the database's row keeps it
                records.foods[food.id]?.value = food
                tx.log(.food, [food.id], deleted: false, at: food.updatedAt, in: &records)
                return true
            }
        }

        func delete(_ id: UUID, now: Date) async throws -> Bool {
            try tx.update { records in
                guard records.shares(records.foods[id]?.owner, with: tx.owner) else { return false }
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
            tx.records.meals[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
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
                guard let stored = records.meals[id], records.shares(stored.owner, with: tx.owner) else { return nil }
                var meal = Meal(id: id, content: content, createdAt: stored.value.createdAt, updatedAt: now)
                meal.photoId = stored.value.photoId
                records.meals[id]?.value = meal
                tx.log(.meal, [id], deleted: false, at: now, in: &records)
                return meal
            }
        }

        func delete(_ id: UUID, now: Date) async throws -> Bool {
            try tx.update { records in
                guard records.shares(records.meals[id]?.owner, with: tx.owner) else { return false }
                // As the server's store: a meal still planned is refused.
                if records.assignments.values.contains(where: { $0.value.mealId == id }) { throw StillReferenced(id: id) }
                if let photo = records.meals[id]?.value.photoId { records.mealPhotos[photo] = nil }
                records.meals[id] = nil
                records.recipeLinks[id] = nil
                tx.log(.meal, [id], deleted: true, at: now, in: &records)
                return true
            }
        }

        func shareToken(of id: UUID) async throws -> String? {
            tx.records.meals[id].flatMap { tx.holds($0.owner) ? tx.records.recipeLinks[id] : nil }
        }

        func setShareToken(_ token: String?, of id: UUID) async throws -> Bool {
            tx.update { records in
                guard records.shares(records.meals[id]?.owner, with: tx.owner) else { return false }
                records.recipeLinks[id] = token
                return true
            }
        }

        func setPhoto(_ photo: MealPhoto?, of id: UUID, now: Date) async throws -> Bool {
            tx.update { records in
                guard records.shares(records.meals[id]?.owner, with: tx.owner) else { return false }
                // Taking off a photo that is not there changes nothing (a synced edit is not superseded).
                if photo == nil, records.meals[id]?.value.photoId == nil { return true }
                if let old = records.meals[id]?.value.photoId { records.mealPhotos[old] = nil }
                records.meals[id]?.value.photoId = photo?.id
                records.meals[id]?.value.updatedAt = now
                if let photo { records.mealPhotos[photo.id] = photo }
                tx.log(.meal, [id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func photoBytes(except id: UUID) async throws -> Int64 {
            tx.records.meals.values.filter { tx.holds($0.owner) && $0.value.id != id }
                .compactMap { $0.value.photoId.flatMap { tx.records.mealPhotos[$0] } }.reduce(0) { $0 + Int64($1.data.count) }
        }
    }

    struct Plan: PlanRecords {
        let tx: Transaction

        func entries(from: CalendarDate, to: CalendarDate) async throws -> [PlanDay.Entry] {
            let records = tx.records
            let assignments = records.assignments.values.filter { records.shares($0.owner, with: tx.owner) && $0.value.date >= from && $0.value.date <= to }.map(\.value)
            let meals = records.meals.values.filter { records.shares($0.owner, with: tx.owner) }.map(\.value)
            let types = try await MealTypes(tx: tx).catalog(now: Date.distantPast)
            let window = WeekWindow(start: from, length: from.days(until: to) + 1)
            return PlanBuilder.days(in: window, assignments: assignments, meals: Dictionary(uniqueKeysWithValues: meals.map { ($0.id, $0) }), types: types)
                .flatMap(\.entries)
        }

        func find(_ id: UUID) async throws -> Assignment? {
            tx.records.assignments[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
        }

        func series(_ id: UUID) async throws -> [Assignment] {
            let records = tx.records
            return records.assignments.values.filter { records.shares($0.owner, with: tx.owner) && $0.value.seriesId == id }.map(\.value).sorted { $0.date < $1.date }
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
                guard let stored = records.assignments[id], records.shares(stored.owner, with: tx.owner) else { return nil }
                records.assignments[id] = nil
                tx.log(.assignment, [id], deleted: true, at: now, in: &records)
                return stored.value
            }
        }

        func deleteAll(of mealID: UUID, now: Date) async throws -> [Assignment] {
            tx.update { records in
                let planned = records.assignments.values.filter { records.shares($0.owner, with: tx.owner) && $0.value.mealId == mealID }.map(\.value)
                for assignment in planned { records.assignments[assignment.id] = nil }
                tx.log(.assignment, planned.map(\.id), deleted: true, at: now, in: &records)
                return planned
            }
        }
    }

    struct MealTypes: MealTypeRecords {
        let tx: Transaction

        private func mine(_ records: InMemoryLibraries.Records) -> [MealType] {
            records.mealTypes.values.filter { records.shares($0.owner, with: tx.owner) }.map(\.value)
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
            tx.records.mealTypes[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
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
                guard let stored = records.mealTypes[type.id], records.shares(stored.owner, with: tx.owner) else { return false }
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
