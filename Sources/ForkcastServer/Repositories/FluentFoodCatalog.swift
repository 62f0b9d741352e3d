import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// The food catalogue on the server's database: stored once for every account (`catalog_foods`),
/// searched through an index held in memory (``CatalogSearch``), read a page at a time.
struct FluentFoodCatalog: FoodCatalog {
    let db: any Database
    let state: CatalogState
    let threadPool: NIOThreadPool


    func search(_ query: String, page: Paging) async throws -> (items: [CatalogFood], total: Int) {
        let index = try await state.index(db: db, threadPool: threadPool)
        let found = index.search(query, offset: page.offset, limit: page.per)
        return (try await rows(found.ids), found.total)
    }

    func find(_ catalogId: String) async throws -> CatalogFood? {
        try await state.ensureShipped(db: db, threadPool: threadPool)
        return try await rows([catalogId]).first
    }

    /// The foods with these ids, in this order.
    private func rows(_ ids: [String]) async throws -> [CatalogFood] {
        guard !ids.isEmpty else { return [] }
        let models = try await CatalogFoodModel.query(on: db).filter(\.$id ~~ ids).all()
        let byId = Dictionary(models.map { ($0.id!, $0.domain) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { byId[$0] }
    }
}

/// The catalogue Forkcast ships (`Sources/ForkcastServer/Catalog`, made by
/// `scripts/derive_catalog.py`): loaded into the database on first use and again when its version
/// changes, never per account.
enum ShippedCatalog {
    static let part = "generic"

    static var directory: URL { Bundle.module.resourceURL!.appendingPathComponent("Catalog") }

    /// The shipped files' version, as the derivation script wrote it.
    static func version() throws -> String {
        try String(contentsOf: directory.appendingPathComponent("fdc-version.txt"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every shipped food (blocking: run on a thread pool).
    static func foods() throws -> [CatalogFood] {
        let csv = try String(contentsOf: directory.appendingPathComponent("fdc-generic.csv"), encoding: .utf8)
        let portions = try String(contentsOf: directory.appendingPathComponent("fdc-portions.csv"), encoding: .utf8)
        return try FoodDataCentral.foods(csv: csv, portions: portions)
    }
}

/// What this process knows of the stored catalogue: whether the shipped part is loaded, and the
/// search index with the catalogue version it was built from. The index is rebuilt when another
/// process (a `forkcast catalog import`, another instance) changed the catalogue: the versions are
/// looked at again at most every ``recheck``.
actor CatalogState {
    static let recheck: Duration = .seconds(10)

    /// The catalogue's own thread for reading the shipped files and building the index. On the
    /// application's pool (two threads here) that work, seconds in a debug build, held up what
    /// requests wait for there: password hashing and the service worker's script.
    static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// The shipped foods, read when a database lacks them (``Dependencies/shippedCatalog``).
    private let shippedFoods: @Sendable () throws -> [CatalogFood]
    private var shippedLoaded = false
    private var loadingShipped: Task<Void, any Error>?
    private var current: (index: CatalogSearch, generation: String, checkedAt: ContinuousClock.Instant)?
    private var building: Task<(CatalogSearch, String), any Error>?

    init(shippedFoods: @escaping @Sendable () throws -> [CatalogFood]) {
        self.shippedFoods = shippedFoods
    }

    /// Loads the shipped catalogue when the stored one is missing or of another version.
    ///
    /// Not inside a write (a synced device's shopping list looks up its aisles there): the catalogue
    /// is read there as it is stored. A load inside the write would hold every other writer for its
    /// seconds and roll back with it while this state took it as done (later searches then found
    /// nothing); a load already running outside would wait for that write's turn at the gate, which
    /// the write holds while it waits for the load. The next use outside a write loads it.
    func ensureShipped(db: any Database, threadPool: NIOThreadPool) async throws {
        if shippedLoaded || db is WriteTransaction { return }
        if let loadingShipped { return try await loadingShipped.value }
        let task = Task { [shippedFoods] in try await Self.loadShipped(db: db, threadPool: threadPool, foods: shippedFoods) }
        loadingShipped = task
        defer { loadingShipped = nil }
        try await task.value
        shippedLoaded = true
    }

    func index(db: any Database, threadPool: NIOThreadPool) async throws -> CatalogSearch {
        if let current, ContinuousClock.now - current.checkedAt < Self.recheck { return current.index }
        if db is WriteTransaction {
            // Inside a write (``ensureShipped``): the index as last built, however old; where there is
            // none, one built from the write's reads and not kept (the catalogue may be half loaded,
            // and a build running outside may wait for the connection this write holds).
            if let current { return current.index }
            return try await Self.build(db: db, threadPool: threadPool)
        }
        try await ensureShipped(db: db, threadPool: threadPool)
        if let building { return try await building.value.0 }
        let known = current
        let task = Task { () throws -> (CatalogSearch, String) in
            let generation = try await Self.generation(db: db)
            if let known, known.generation == generation { return (known.index, generation) }
            return (try await Self.build(db: db, threadPool: threadPool), generation)
        }
        building = task
        defer { building = nil }
        let (index, generation) = try await task.value
        current = (index, generation, ContinuousClock.now)
        return index
    }

    /// The parts stored and their versions: changes whenever the catalogue does.
    static func generation(db: any Database) async throws -> String {
        try await CatalogPartModel.query(on: db).sort(\.$part).all().map { "\($0.part):\($0.version):\($0.rows):\($0.position)" }.joined(separator: ",")
    }

    /// The index of every stored food (ids, names and parts only). The rows are read on the event
    /// loop as they arrive (kept compactly); the index is made on a thread of the pool, so serving
    /// goes on meanwhile (390,000 names take seconds).
    static func build(db: any Database, threadPool: NIOThreadPool) async throws -> CatalogSearch {
        let sql = db as! any SQLDatabase
        final class Rows: @unchecked Sendable { var entries: [CatalogSearch.Entry] = [] }
        let rows = Rows()
        try await sql.raw("SELECT id, name, source FROM catalog_foods").run { row in
            guard let id = try? row.decode(column: "id", as: String.self), let name = try? row.decode(column: "name", as: String.self),
                  let source = (try? row.decode(column: "source", as: String.self)).flatMap(CatalogSource.init(rawValue:)) else { return }
            rows.entries.append(CatalogSearch.Entry(catalogId: id, name: name, source: source))
        }
        return try await threadPool.runIfActive {
            let index = CatalogSearch(rows.entries)
            rows.entries = []
            // The rows' text and the build's scaffolding are freed.
            ProcessMemory.handBackFreed()
            return index
        }
    }

    static func loadShipped(db: any Database, threadPool: NIOThreadPool, foods read: @escaping @Sendable () throws -> [CatalogFood]) async throws {
        let version = try await threadPool.runIfActive { try ShippedCatalog.version() }
        if let part = try await CatalogPartModel.query(on: db).filter(\.$part == ShippedCatalog.part).first(), part.version == version, part.complete {
            return
        }
        let foods = try await threadPool.runIfActive { try read() }
        // In short transactions of 500 foods, so other writers wait a few milliseconds at a time,
        // not the whole load: the first marks the new version as incomplete and removes the old
        // one's foods (once, whoever starts it), the last marks it complete. Instances starting
        // together may both write the same rows: each row is an upsert, so the result is one catalogue.
        let begun: Bool = try await db.write(timeout: .seconds(60)) { tx in
            let sql = tx as any SQLDatabase
            try await SyncLog.lockOwner(Self.lock, on: sql)
            let stored = try await CatalogPartModel.query(on: tx).filter(\.$part == ShippedCatalog.part).first()
            if let stored, stored.version == version {
                return !stored.complete
            }
            try await sql.raw("DELETE FROM catalog_foods WHERE source <> \(bind: CatalogSource.branded.rawValue)").run()
            let part = stored ?? CatalogPartModel(part: ShippedCatalog.part, version: version, rows: 0, position: 0, complete: false, now: Date())
            part.version = version
            part.rows = 0
            part.complete = false
            part.updatedAt = Date()
            try await part.save(on: tx)
            return true
        }
        guard begun else { return }
        for start in stride(from: 0, to: foods.count, by: 500) {
            let chunk = Array(foods[start..<min(start + 500, foods.count)])
            try await db.write(timeout: .seconds(60)) { tx in try await insert(chunk, on: tx as any SQLDatabase) }
        }
        try await db.write(timeout: .seconds(60)) { tx in
            guard let part = try await CatalogPartModel.query(on: tx).filter(\.$part == ShippedCatalog.part).first(), part.version == version else { return }
            part.rows = foods.count
            part.complete = true
            part.updatedAt = Date()
            try await part.save(on: tx)
        }
    }

    /// Inserts catalogue foods, replacing rows with the same id, a few hundred per statement.
    static func insert(_ foods: [CatalogFood], on sql: any SQLDatabase) async throws {
        for start in stride(from: 0, to: foods.count, by: 250) {
            let chunk = foods[start..<min(start + 250, foods.count)]
            var seen = Set<String>()
            var insert = sql.insert(into: CatalogFoodModel.schema).columns("id", "name", "category", "source", "nutrients", "portions")
            for food in chunk where seen.insert(food.catalogId).inserted {
                let row = CatalogFoodModel(food)
                insert = insert.values(SQLBind(row.id!), SQLBind(row.name), SQLBind(row.category), SQLBind(row.source),
                                       SQLBind(row.nutrients), SQLBind(row.portions))
            }
            try await insert.onConflict(with: ["id"]) { conflict in
                conflict.set(excludedValueOf: "name").set(excludedValueOf: "category").set(excludedValueOf: "source")
                    .set(excludedValueOf: "nutrients").set(excludedValueOf: "portions")
            }.run()
        }
    }

    /// Names the catalogue's lock on PostgreSQL (SQLite has one writer anyway).
    static let lock = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2))
}

extension Application {
    private struct CatalogStateKey: StorageKey { typealias Value = CatalogState }

    /// The process's view of the catalogue (one per application, made by `configure`).
    var catalogState: CatalogState {
        get { configured(CatalogStateKey.self) }
        set { storage[CatalogStateKey.self] = newValue }
    }

    /// The catalogue for use cases and handlers.
    var foodCatalog: FluentFoodCatalog { foodCatalog(on: db) }

    /// The catalogue read through `db`: inside a write (a synced device's shopping list looks up its
    /// aisles there), the write's transaction, which it reads through and loads nothing in.
    func foodCatalog(on db: any Database) -> FluentFoodCatalog { FluentFoodCatalog(db: db, state: catalogState, threadPool: CatalogState.threads) }
}
