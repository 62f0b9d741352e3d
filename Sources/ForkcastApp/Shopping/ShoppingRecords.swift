import ForkcastCore
import Foundation

/// A person's shopping lists and their items. Writes store each record with its change-feed row
/// (kinds `shoppingList` and `shoppingItem`); they decide no rule.
public protocol ShoppingRecords: Sendable {
    func find(_ id: UUID) async throws -> ShoppingList?
    /// The list's items, in no particular order.
    func items(of listID: UUID) async throws -> [ShoppingItem]
    func item(_ id: UUID) async throws -> ShoppingItem?
    /// The categories the person chose for foods on earlier lists, by food (the latest choice).
    func chosenCategories(for foodIDs: [UUID]) async throws -> [UUID: String]
    func insert(_ list: ShoppingList, now: Date) async throws
    /// Stores the list's name, range and `updatedAt`; false when the person has no such list.
    func replace(_ list: ShoppingList, now: Date) async throws -> Bool
    /// Deletes the list with its items; false when the person has no such list.
    func delete(list id: UUID, now: Date) async throws -> Bool
    func insert(_ items: [ShoppingItem], now: Date) async throws
    /// False when the person has no item with the item's id.
    func replace(_ item: ShoppingItem, now: Date) async throws -> Bool
    func delete(items ids: [UUID], now: Date) async throws
    /// Sets the list's sharing link token, or clears it (nil) to revoke the link.
    func setShareToken(_ token: String?, of listID: UUID, now: Date) async throws
}
