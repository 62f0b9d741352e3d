import ForkcastCore
import Foundation

extension InMemoryLibrary {
    struct Shopping: ShoppingRecords {
        let tx: Transaction

        func find(_ id: UUID) async throws -> ShoppingList? {
            tx.records.shoppingLists[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
        }

        func items(of listID: UUID) async throws -> [ShoppingItem] {
            tx.records.shoppingItems.values.filter { tx.holds($0.owner) && $0.value.listId == listID }.map(\.value)
        }

        func item(_ id: UUID) async throws -> ShoppingItem? {
            tx.records.shoppingItems[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
        }

        func chosenCategories(for foodIDs: [UUID]) async throws -> [UUID: String] {
            let wanted = Set(foodIDs)
            var result: [UUID: (String, Date)] = [:]
            for item in tx.records.shoppingItems.values.filter({ tx.holds($0.owner) }).map(\.value) where item.categoryChosen {
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
                guard let stored = records.shoppingLists[list.id], records.shares(stored.owner, with: tx.owner) else { return false }
                var kept = list
                kept.shareToken = stored.value.shareToken
                records.shoppingLists[list.id]?.value = kept
                tx.log(.shoppingList, [list.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func delete(list id: UUID, now: Date) async throws -> Bool {
            tx.update { records in
                guard let stored = records.shoppingLists[id], records.shares(stored.owner, with: tx.owner) else { return false }
                let items = records.shoppingItems.values.filter { records.shares($0.owner, with: tx.owner) && $0.value.listId == id }.map(\.value.id)
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
                guard let stored = records.shoppingItems[item.id], records.shares(stored.owner, with: tx.owner) else { return false }
                records.shoppingItems[item.id]?.value = item
                tx.log(.shoppingItem, [item.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func delete(items ids: [UUID], now: Date) async throws {
            tx.update { records in
                let mine = ids.filter { records.shares(records.shoppingItems[$0]?.owner, with: tx.owner) }
                for id in mine { records.shoppingItems[id] = nil }
                tx.log(.shoppingItem, mine, deleted: true, at: now, in: &records)
            }
        }

        func setShareToken(_ token: String?, of listID: UUID, now: Date) async throws {
            tx.update { records in
                guard var stored = records.shoppingLists[listID], records.shares(stored.owner, with: tx.owner) else { return }
                stored.value.shareToken = token
                records.shoppingLists[listID] = stored
                tx.log(.shoppingList, [listID], deleted: false, at: now, in: &records)
            }
        }
    }
}
