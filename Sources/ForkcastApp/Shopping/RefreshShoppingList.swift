import ForkcastCore
import Foundation

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
            let needs = try await PlanNeeds.needs(from: list.from, to: list.to, in: tx, catalogCategories: aisles, bought: Set(items.map(\.id)))
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
