import ForkcastCore
import Foundation

extension InMemoryLibrary {
    struct Pantry: PantryRecords {
        let tx: Transaction

        func items() async throws -> [PantryItem] {
            tx.records.pantryItems.values.filter { tx.holds($0.owner) }.map(\.value)
        }

        func item(_ id: UUID) async throws -> PantryItem? {
            tx.records.pantryItems[id].flatMap { tx.holds($0.owner) ? $0.value : nil }
        }

        func count() async throws -> Int { try await items().count }

        func items(of foodIDs: [UUID]) async throws -> [PantryItem] {
            let wanted = Set(foodIDs)
            return try await items().filter { wanted.contains($0.foodId) }
        }

        func insert(_ item: PantryItem, now: Date) async throws {
            try tx.update { records in
                guard records.pantryItems[item.id] == nil else { throw InMemoryLibraries.DuplicateID(id: item.id) }
                records.pantryItems[item.id] = .init(owner: tx.owner, value: item)
                tx.log(.pantryItem, [item.id], deleted: false, at: now, in: &records)
            }
        }

        func replace(_ item: PantryItem, now: Date) async throws -> Bool {
            tx.update { records in
                guard let stored = records.pantryItems[item.id], records.shares(stored.owner, with: tx.owner) else { return false }
                records.pantryItems[item.id]?.value = item
                tx.log(.pantryItem, [item.id], deleted: false, at: now, in: &records)
                return true
            }
        }

        func delete(_ ids: [UUID], now: Date) async throws {
            tx.update { records in
                let mine = ids.filter { records.shares(records.pantryItems[$0]?.owner, with: tx.owner) }
                for id in mine { records.pantryItems[id] = nil }
                tx.log(.pantryItem, mine, deleted: true, at: now, in: &records)
            }
        }

        func record(_ use: PantryUse) async throws {
            tx.update { records in records.pantryUses.append(.init(owner: tx.owner, value: use)) }
        }

        func markCooked(_ assignmentID: UUID, now: Date) async throws -> Bool {
            tx.update { records in records.cookedEntries.insert(assignmentID).inserted }
        }

        func uses(since: Date) async throws -> [PantryUse] {
            tx.records.pantryUses.filter { tx.holds($0.owner) && $0.value.at >= since }.map(\.value)
        }
    }
}
