import Fluent
import SQLKit
import ForkcastApp
import ForkcastCore
import Foundation

/// One person's library — their household's, shared by its members (``Kitchen``) — on the
/// server's database (SQLite or PostgreSQL), for the use cases in ForkcastApp. Made only by
/// ``Owner`` from the signed-in person, so every record it reaches is their household's. A write is one transaction through the write gate (``Database/write(timeout:_:)``).
struct FluentLibrary: Library {
    let db: any Database
    let ownerID: UUID

    func write<T: Sendable>(_ body: @escaping @Sendable (any LibraryTransaction) async throws -> T) async throws -> T {
        let ownerID = ownerID
        return try await db.write { tx in
            // Writers of one household take turns (the protocol's promise). SQLite's one writer keeps
            // it already; on PostgreSQL the household's lock is taken first, before any read, so a
            // read stays true to the end and two writers cannot wait on each other's rows.
            try await body(Transaction(db: tx, kitchen: try await Kitchen.enter(ownerID, on: tx)))
        }
    }

    struct Transaction: LibraryTransaction {
        let db: any Database
        let kitchen: Kitchen
        var foods: any FoodRecords { FoodRepository(db: db, kitchen: kitchen) }
        var meals: any MealRecords { MealRepository(db: db, kitchen: kitchen) }
        var plan: any PlanRecords { PlanRepository(db: db, kitchen: kitchen) }
        var mealTypes: any MealTypeRecords { MealTypeRepository(db: db, kitchen: kitchen) }
        var shopping: any ShoppingRecords { ShoppingRepository(db: db, kitchen: kitchen) }
        var pantry: any PantryRecords { PantryRepository(db: db, kitchen: kitchen) }
        var templates: any PlanTemplateRecords { PlanTemplateRepository(db: db, kitchen: kitchen) }
        var members: [UUID] { kitchen.feeds }
    }
}

/// One person's body profile, goals and weights on the server's database, for ForkcastApp's body
/// use cases; made only by ``Owner``.
struct FluentBodyStore: BodyStore {
    let db: any Database
    let ownerID: UUID

    func write<T: Sendable>(_ body: @escaping @Sendable (any BodyRecords) async throws -> T) async throws -> T {
        let ownerID = ownerID
        return try await db.write { tx in
            try await SyncLog.lockOwner(ownerID, on: tx as any SQLDatabase)  // as in FluentLibrary
            return try await body(BodyRepository(db: tx, ownerID: ownerID))
        }
    }
}
