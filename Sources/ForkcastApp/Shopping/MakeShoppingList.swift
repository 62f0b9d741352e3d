import ForkcastCore
import Foundation

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
