import ForkcastCore
import Foundation

/// What the plan of a range needs, read inside a transaction: the planned meals' foods with the
/// aisle of each (the person's earlier choice, the catalogue's category, or the food's icon's).
struct PlanNeeds {
    let catalog: any FoodCatalog

    /// The catalogue foods the plan of the range uses (read in a transaction of its own).
    static func catalogIDs(from: CalendarDate, to: CalendarDate, in tx: any LibraryTransaction) async throws -> Set<String> {
        let entries = try await tx.plan.entries(from: from, to: to)
        let foods = try await tx.foods.find(ids: Array(Set(entries.flatMap { $0.meal.ingredients.map(\.foodId) })))
        return Set(foods.values.compactMap(\.catalogId))
    }

    /// Their categories, looked up outside any write: the catalogue may be loading, and a person's
    /// write must not wait for it (nor hold the write lock meanwhile).
    func categories(of ids: Set<String>) async throws -> [String: String] {
        var result: [String: String] = [:]
        for id in ids.sorted() { result[id] = try await catalog.find(id)?.category }
        return result
    }

    static func needs(from: CalendarDate, to: CalendarDate, in tx: any LibraryTransaction, catalogCategories: [String: String]) async throws -> [ShoppingPlan.Need] {
        let entries = try await tx.plan.entries(from: from, to: to)
        let foodIDs = Array(Set(entries.flatMap { $0.meal.ingredients.map(\.foodId) }))
        let foods = try await tx.foods.find(ids: foodIDs)
        let chosen = try await tx.shopping.chosenCategories(for: foodIDs)
        var categories: [UUID: (name: String, chosen: Bool)] = [:]
        for food in foods.values {
            if let name = chosen[food.id] { categories[food.id] = (name, true); continue }
            categories[food.id] = (ShoppingCategory.of(food, catalogCategory: food.catalogId.flatMap { catalogCategories[$0] }), false)
        }
        return ShoppingPlan.needs(entries, foods: foods, categories: categories)
    }
}

/// Making a shopping list from the plan of a range of days (seed 003's next step): every
/// ingredient of every planned meal, scaled by the portions planned, summed per food.
public struct MakeShoppingList: Sendable {
    let library: any Library
    let catalog: any FoodCatalog
    let now: Date
    let uuid: @Sendable () -> UUID

    public init(library: any Library, catalog: any FoodCatalog, now: Date, uuid: @escaping @Sendable () -> UUID) {
        self.library = library
        self.catalog = catalog
        self.now = now
        self.uuid = uuid
    }

    /// Throws ``ValidationError`` for a bad name or range.
    public func callAsFunction(from: CalendarDate, to: CalendarDate, name: String?, id: UUID) async throws -> ShoppingListContents {
        let checked = try ShoppingList.validated(name: name, from: from, to: to)
        let (now, uuid) = (now, uuid)
        let ids = try await library.write { tx in try await PlanNeeds.catalogIDs(from: checked.from, to: checked.to, in: tx) }
        let aisles = try await PlanNeeds(catalog: catalog).categories(of: ids)
        return try await library.write { tx in
            let list = ShoppingList(id: id, name: checked.name, from: checked.from, to: checked.to, createdAt: now, updatedAt: now)
            let needs = try await PlanNeeds.needs(from: list.from, to: list.to, in: tx, catalogCategories: aisles)
            let items = ShoppingPlan.refresh([], with: Array(needs.prefix(ShoppingList.maximumItems)), listId: id, now: now, newID: uuid).added
            try await tx.shopping.insert(list, now: now)
            try await tx.shopping.insert(items, now: now)
            return ShoppingListContents(list: list, items: items)
        }
    }
}

/// Reading the plan again after it changed: quantities follow the plan, items no longer needed go,
/// checked marks, chosen aisles and the person's own items stay.
public struct RefreshShoppingList: Sendable {
    let library: any Library
    let catalog: any FoodCatalog
    let now: Date
    let uuid: @Sendable () -> UUID

    public init(library: any Library, catalog: any FoodCatalog, now: Date, uuid: @escaping @Sendable () -> UUID) {
        self.library = library
        self.catalog = catalog
        self.now = now
        self.uuid = uuid
    }

    /// Nil when the person has no such list. A name or range given replaces the list's first (a
    /// synced device's edit); throws ``ValidationError`` for a bad one.
    public func callAsFunction(_ id: UUID, name: String? = nil, from: CalendarDate? = nil, to: CalendarDate? = nil) async throws -> ShoppingListContents? {
        let (now, uuid) = (now, uuid)
        let ids = try await library.write { tx -> Set<String> in
            guard let list = try await tx.shopping.find(id) else { return [] }
            // A range the rules will refuse is not read (the write below says why).
            let (start, end) = (from ?? list.from, to ?? list.to)
            guard start <= end, start.days(until: end) < ShoppingList.maximumDays else { return [] }
            return try await PlanNeeds.catalogIDs(from: start, to: end, in: tx)
        }
        let aisles = try await PlanNeeds(catalog: catalog).categories(of: ids)
        return try await library.write { tx in
            guard var list = try await tx.shopping.find(id) else { return nil }
            if name != nil || from != nil || to != nil {
                let checked = try ShoppingList.validated(name: name ?? list.name, from: from ?? list.from, to: to ?? list.to)
                (list.name, list.from, list.to) = (checked.name, checked.from, checked.to)
            }
            let items = try await tx.shopping.items(of: id)
            let room = max(0, ShoppingList.maximumItems - items.filter { $0.source == .manual }.count)
            let needs = try await PlanNeeds.needs(from: list.from, to: list.to, in: tx, catalogCategories: aisles)
            let refresh = ShoppingPlan.refresh(items, with: Array(needs.prefix(room)), listId: id, now: now, newID: uuid)
            try await tx.shopping.delete(items: refresh.removed, now: now)
            for item in refresh.changed { _ = try await tx.shopping.replace(item, now: now) }
            try await tx.shopping.insert(refresh.added, now: now)
            list.updatedAt = now
            _ = try await tx.shopping.replace(list, now: now)
            return ShoppingListContents(list: list, items: try await tx.shopping.items(of: id))
        }
    }
}

/// Adding something that is in no meal ("dish soap") to a list.
public struct AddShoppingItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// Nil when the person has no such list; throws ``ValidationError`` for a bad name, quantity,
    /// unit or category, or a full list.
    public func callAsFunction(to listID: UUID, name: String, quantity: Decimal?, unit: String?, category: String?, id: UUID) async throws -> ShoppingItem? {
        let checked = try ShoppingItemRules.validated(name: name, quantity: quantity, unit: unit, category: category, requireName: true)
        let now = now
        return try await library.write { tx in
            guard try await tx.shopping.find(listID) != nil else { return nil }
            if try await tx.shopping.items(of: listID).count >= ShoppingList.maximumItems {
                throw ValidationError(field: "name", "A list holds at most \(ShoppingList.maximumItems) items; this one is full.")
            }
            let item = ShoppingItem(id: id, listId: listID, name: checked.name ?? name, quantity: checked.quantity, unit: checked.unit,
                                    category: checked.category ?? ShoppingCategory.other, categoryChosen: checked.category != nil,
                                    source: .manual, updatedAt: now)
            try await tx.shopping.insert([item], now: now)
            return item
        }
    }
}

/// Checking an item off (or back on), or changing its name, amount or aisle — from the list's
/// page, the API, a synced device or a shared link (which may only check).
public struct ChangeShoppingItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The item as stored now; nil when the person has no such item (on `listID`, when given).
    public func callAsFunction(_ id: UUID, on listID: UUID? = nil, _ change: ShoppingItemChange) async throws -> ShoppingItem? {
        let checked = try ShoppingItemRules.validated(name: change.name, quantity: change.quantity, unit: change.unit,
                                                      category: change.category, requireName: false)
        let now = now
        return try await library.write { tx in
            guard var item = try await tx.shopping.item(id), listID == nil || item.listId == listID else { return nil }
            if let name = checked.name { item.name = name }
            if let quantity = checked.quantity { item.quantity = quantity }
            if let unit = checked.unit { item.unit = unit }
            // A form sends the aisle shown; only a different one is the person's choice.
            if let category = checked.category, category != item.category { item.category = category; item.categoryChosen = true }
            if let done = change.checked { item.checked = done }
            item.updatedAt = now
            _ = try await tx.shopping.replace(item, now: now)
            return item
        }
    }
}

/// Taking one item off a list.
public struct DeleteShoppingItem: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The item removed; nil when the person has no such item (on `listID`, when given).
    public func callAsFunction(_ id: UUID, on listID: UUID? = nil) async throws -> ShoppingItem? {
        let now = now
        return try await library.write { tx in
            guard let item = try await tx.shopping.item(id), listID == nil || item.listId == listID else { return nil }
            try await tx.shopping.delete(items: [id], now: now)
            return item
        }
    }
}

/// Deleting a list with its items (and its sharing link).
public struct DeleteShoppingList: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// False when the person has no such list.
    public func callAsFunction(_ id: UUID) async throws -> Bool {
        let now = now
        return try await library.write { tx in try await tx.shopping.delete(list: id, now: now) }
    }
}

/// Sharing a list with whoever shops: a link that reads and checks off that list only, until revoked.
public struct ShareShoppingList: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The list's link token: the one it has, or `newToken` when it is not shared yet (so sharing
    /// twice gives the same link). Nil when the person has no such list.
    public func share(_ id: UUID, newToken: String) async throws -> String? {
        precondition(newToken.count >= 32, "a sharing token is long and random")
        let now = now
        return try await library.write { tx in
            guard let list = try await tx.shopping.find(id) else { return nil }
            if let token = list.shareToken { return token }
            try await tx.shopping.setShareToken(newToken, of: id, now: now)
            return newToken
        }
    }

    /// Stops the link working. False when the person has no such list.
    public func revoke(_ id: UUID) async throws -> Bool {
        let now = now
        return try await library.write { tx in
            guard try await tx.shopping.find(id) != nil else { return false }
            try await tx.shopping.setShareToken(nil, of: id, now: now)
            return true
        }
    }
}
