import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

/// One person's shopping lists on the server's database. Writes store each row with its change-feed
/// row; the rules are ForkcastApp's shopping use cases'.
struct ShoppingRepository: ShoppingRecords {
    let db: any Database
    let kitchen: Kitchen

    /// The person's lists, newest first (one page of them when `page` is given), and how many there are.
    func lists(page: Paging? = nil) async throws -> (items: [ShoppingList], total: Int) {
        let query = ShoppingListModel.query(on: db).filter(kitchen).sort(\.$createdAt, .descending).sort(\.$id)
        guard let page else {
            let all = try await query.all().map(\.domain)
            return (all, all.count)
        }
        let total = try await query.copy().count()
        let items = page.offset >= total ? [] : try await query.range(page.offset..<(page.offset + page.per)).all().map(\.domain)
        return (items, total)
    }

    /// How many items each of the lists has, and how many are checked.
    func counts(of listIDs: [UUID]) async throws -> [UUID: (items: Int, checked: Int)] {
        guard !listIDs.isEmpty else { return [:] }
        let items = try await ShoppingItemModel.query(on: db).filter(kitchen).filter(\.$listID ~~ listIDs)
            .field(\.$id).field(\.$listID).field(\.$checked).all()
        var result: [UUID: (items: Int, checked: Int)] = [:]
        for item in items {
            var count = result[item.listID] ?? (0, 0)
            count.items += 1
            if item.checked { count.checked += 1 }
            result[item.listID] = count
        }
        return result
    }

    func find(_ id: UUID) async throws -> ShoppingList? {
        try await ShoppingListModel.query(on: db).filter(kitchen).filter(\.$id == id).first()?.domain
    }

    func items(of listID: UUID) async throws -> [ShoppingItem] {
        try await ShoppingItemModel.query(on: db).filter(kitchen).filter(\.$listID == listID).all().map(\.domain)
    }

    func item(_ id: UUID) async throws -> ShoppingItem? {
        try await ShoppingItemModel.query(on: db).filter(kitchen).filter(\.$id == id).first()?.domain
    }

    func items(ids: [UUID]) async throws -> [ShoppingItem] {
        guard !ids.isEmpty else { return [] }
        return try await ShoppingItemModel.query(on: db).filter(kitchen).filter(\.$id ~~ ids).all().map(\.domain)
    }

    func lists(ids: [UUID]) async throws -> [ShoppingList] {
        guard !ids.isEmpty else { return [] }
        return try await ShoppingListModel.query(on: db).filter(kitchen).filter(\.$id ~~ ids).all().map(\.domain)
    }

    func chosenCategories(for foodIDs: [UUID]) async throws -> [UUID: String] {
        guard !foodIDs.isEmpty else { return [:] }
        let chosen = try await ShoppingItemModel.query(on: db).filter(kitchen).filter(\.$foodID ~~ foodIDs)
            .filter(\.$categoryChosen == true).sort(\.$updatedAt).all()
        var result: [UUID: String] = [:]
        for item in chosen { if let food = item.foodID { result[food] = item.category } }
        return result
    }

    func insert(_ list: ShoppingList, now: Date) async throws {
        try await db.write { tx in
            try await ShoppingListModel(list, ownerID: kitchen.user).create(on: tx)
            try await kitchen.record(.shoppingList, [list.id], op: .upsert, on: tx, now: now)
        }
    }

    func replace(_ list: ShoppingList, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await ShoppingListModel.query(on: tx).filter(kitchen).filter(\.$id == list.id).first() else { return false }
            model.apply(list)
            try await model.save(on: tx)
            try await kitchen.record(.shoppingList, [list.id], op: .upsert, on: tx, now: now)
            return true
        }
    }

    func delete(list id: UUID, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await ShoppingListModel.query(on: tx).filter(kitchen).filter(\.$id == id).first() else { return false }
            let items = try await ShoppingItemModel.query(on: tx).filter(kitchen).filter(\.$listID == id).field(\.$id).all().compactMap(\.id)
            try await ShoppingItemModel.query(on: tx).filter(kitchen).filter(\.$listID == id).delete()
            try await model.delete(on: tx)
            try await kitchen.record(.shoppingItem, items, op: .delete, on: tx, now: now)
            try await kitchen.record(.shoppingList, [id], op: .delete, on: tx, now: now)
            return true
        }
    }

    func insert(_ items: [ShoppingItem], now: Date) async throws {
        guard !items.isEmpty else { return }
        try await db.write { tx in
            for chunk in stride(from: 0, to: items.count, by: 200) {
                try await items[chunk..<min(chunk + 200, items.count)].map { ShoppingItemModel($0, ownerID: kitchen.user) }.create(on: tx)
            }
            try await kitchen.record(.shoppingItem, items.map(\.id), op: .upsert, on: tx, now: now)
        }
    }

    func replace(_ item: ShoppingItem, now: Date) async throws -> Bool {
        try await db.write { tx in
            guard let model = try await ShoppingItemModel.query(on: tx).filter(kitchen).filter(\.$id == item.id).first() else { return false }
            model.apply(item)
            try await model.save(on: tx)
            try await kitchen.record(.shoppingItem, [item.id], op: .upsert, on: tx, now: now)
            return true
        }
    }

    func delete(items ids: [UUID], now: Date) async throws {
        guard !ids.isEmpty else { return }
        try await db.write { tx in
            try await ShoppingItemModel.query(on: tx).filter(kitchen).filter(\.$id ~~ ids).delete()
            try await kitchen.record(.shoppingItem, ids, op: .delete, on: tx, now: now)
        }
    }

    func setShareToken(_ token: String?, of listID: UUID, now: Date) async throws {
        try await db.write { tx in
            try await ShoppingListModel.query(on: tx).filter(kitchen).filter(\.$id == listID)
                .set(\.$shareToken, to: token).set(\.$updatedAt, to: now).update()
            try await kitchen.record(.shoppingList, [listID], op: .upsert, on: tx, now: now)
        }
    }
}

/// The list a sharing link opens, whoever holds it: its owner and id (nil for an unknown or revoked token).
enum SharedShoppingList {
    static func find(token: String, on db: any Database) async throws -> (owner: UUID, list: UUID)? {
        guard Tokens.mayBeLink(token) else { return nil }
        guard let model = try await ShoppingListModel.query(on: db).filter(\.$shareToken == token).first() else { return nil }
        return (model.ownerID, model.id!)
    }
}
