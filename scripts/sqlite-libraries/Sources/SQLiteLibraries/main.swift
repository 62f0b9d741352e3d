// GRDB against SQLiteNIO for Forkcast's SQLite work (issue 22: "choose by measuring").
//
// The write is what logging an entry writes: the entry's row and its change-feed row, in one
// durable transaction (WAL, synchronous = FULL: an entry acknowledged is on the disk). `writers`
// tasks write at once for `seconds` each row, as requests do; then as many read a day (the
// diary page's query) from the entries written. Each library is used as its documentation shows:
// GRDB through a DatabasePool (a serialized writer, a pool of readers, cached statements), SQLiteNIO
// through connections on NIO's thread pool (Forkcast's Fluent driver and its fast paths use it).
// "together" rows hand entries that arrive while a write is under way to the next write (group
// commit, as Forkcast's write gate does), so one fsync covers several entries.
import Foundation
import GRDB
import NIOCore
import NIOPosix
import SQLiteNIO

// As `forkcast serve` runs: Swift concurrency on NIO's event loops.
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

let arguments = Array(CommandLine.arguments.dropFirst())
let seconds = arguments.first.flatMap(Double.init) ?? 10
let writers = arguments.dropFirst().first.flatMap(Int.init) ?? 8
let people = 50, days = 30

let schema = [
    """
    CREATE TABLE entries(id TEXT PRIMARY KEY, user_id TEXT NOT NULL, logged_at REAL NOT NULL, date TEXT NOT NULL,
      meal_type TEXT NOT NULL, name TEXT NOT NULL, quantity REAL, unit TEXT, energy_kcal REAL, protein REAL,
      carbohydrates REAL, fat REAL, created_at REAL NOT NULL, updated_at REAL NOT NULL)
    """,
    "CREATE INDEX entries_user_date ON entries(user_id, date, logged_at)",
    "CREATE TABLE sync_records(seq INTEGER PRIMARY KEY AUTOINCREMENT, owner_id TEXT NOT NULL, kind TEXT NOT NULL, record_id TEXT NOT NULL, op TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX sync_owner_seq ON sync_records(owner_id, seq)",
]
let insertEntry = """
    INSERT INTO entries(id, user_id, logged_at, date, meal_type, name, quantity, unit, energy_kcal, protein, carbohydrates, fat, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """
let insertFeed = "INSERT INTO sync_records(owner_id, kind, record_id, op, at) VALUES (?, ?, ?, ?, ?)"
let readDay = """
    SELECT id, logged_at, meal_type, name, quantity, unit, energy_kcal, protein, carbohydrates, fat
    FROM entries WHERE user_id = ? AND date = ? ORDER BY logged_at
    """
let owners = (0..<people).map { _ in UUID().uuidString }
let dates = (0..<days).map { String(format: "2026-11-%02d", $0 + 1) }

/// The entries both libraries' read rows read: the same ones, written before the clock starts.
let seeded = 60_000

struct Entry: Sendable {
    var id = UUID().uuidString
    var owner = owners.randomElement()!
    var date = dates.randomElement()!
    var loggedAt = Date().timeIntervalSince1970
    var name = "Yogurt, Greek, plain, nonfat, with blueberries and a long real name"
}

/// A day as the page reads it.
struct Logged: Sendable {
    var id: String, loggedAt: Double, mealType: String, name: String
    var quantity: Double?, unit: String?, kcal: Double?, protein: Double?, carbs: Double?, fat: Double?
}

// --- Measuring ---

struct Result {
    var count: Int
    var elapsed: Double
    var latencies: [Double]
    func percentile(_ p: Double) -> Double {
        let sorted = latencies.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
    }
}

/// `tasks` tasks repeat `operation` for `seconds`; every call is timed.
func measure(tasks: Int, _ operation: @escaping @Sendable () async throws -> Void) async throws -> Result {
    let deadline = ContinuousClock.now + .seconds(seconds)
    let start = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for _ in 0..<tasks {
            group.addTask {
                var mine: [Double] = []
                while ContinuousClock.now < deadline {
                    let began = ContinuousClock.now
                    try await operation()
                    let took = ContinuousClock.now - began
                    mine.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
                }
                return mine
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    let elapsed = ContinuousClock.now - start
    return Result(count: latencies.count, elapsed: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, latencies: latencies)
}

func report(_ name: String, _ r: Result) {
    let rate = Double(r.count) / r.elapsed
    print(String(format: "| %@ | %.0f/s | %.2f ms | %.2f ms |", name, rate, r.percentile(0.5), r.percentile(0.99)))
}

/// Entries that arrive while a write is under way wait for the next one, which writes them all
/// (group commit, in short).
actor Together {
    private var waiting: [(Entry, CheckedContinuation<Void, any Error>)] = []
    private var writing = false
    private let write: @Sendable ([Entry]) async throws -> Void

    init(_ write: @escaping @Sendable ([Entry]) async throws -> Void) { self.write = write }

    func log(_ entry: Entry) async throws {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append((entry, continuation))
            if !writing {
                writing = true
                Task { await drain() }
            }
        }
    }

    private func drain() async {
        while !waiting.isEmpty {
            let batch = waiting
            waiting = []
            do {
                try await write(batch.map(\.0))
                batch.forEach { $0.1.resume() }
            } catch {
                batch.forEach { $0.1.resume(throwing: error) }
            }
        }
        writing = false
    }
}

/// One at a time (a single SQLite connection's transactions must not interleave).
actor Turns {
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy { await withCheckedContinuation { queue.append($0) } } else { busy = true }
        defer { if queue.isEmpty { busy = false } else { queue.removeFirst().resume() } }
        return try await body()
    }
}

// Beside the package (the disk a data directory is on), not in a temporary file system.
let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

print("\(writers) tasks at once, \(Int(seconds)) s per row, WAL and synchronous = FULL\n")
print("| what | per second | p50 | p99 |")
print("|---|---|---|---|")

// --- GRDB ---

func grdbPool(_ name: String) throws -> DatabasePool {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    configuration.maximumReaderCount = 4
    let pool = try DatabasePool(path: directory.appendingPathComponent(name).path, configuration: configuration)
    try pool.write { db in for statement in schema { try db.execute(sql: statement) } }
    return pool
}

func grdbInsert(_ entries: [Entry], _ db: GRDB.Database) throws {
    let now = Date().timeIntervalSince1970
    let entry = try db.cachedStatement(sql: insertEntry)
    let feed = try db.cachedStatement(sql: insertFeed)
    for e in entries {
        try entry.execute(arguments: [e.id, e.owner, e.loggedAt, e.date, "breakfast", e.name, 170, "g", 100.3, 17.3, 6.1, 0.7, now, now])
        try feed.execute(arguments: [e.owner, "entry", e.id, "upsert", now])
    }
}

do {
    let pool = try grdbPool("grdb-each.sqlite")
    report("GRDB: log an entry, a transaction each", try await measure(tasks: writers) {
        let e = Entry()
        try await pool.write { db in try grdbInsert([e], db) }
    })
}
let grdb = try grdbPool("grdb.sqlite")
do {
    let together = Together { batch in try await grdb.write { db in try grdbInsert(batch, db) } }
    report("GRDB: log an entry, together", try await measure(tasks: writers) { try await together.log(Entry()) })
}
let seed = (0..<seeded).map { _ in Entry() }
let grdbDays = try grdbPool("grdb-days.sqlite")
try await grdbDays.write { db in try grdbInsert(seed, db) }
let grdbCount = try await grdbDays.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entries") ?? 0 }
let grdbSQLite = try await grdb.read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "" }
report("GRDB (SQLite \(grdbSQLite)): read a day (\(grdbCount) entries)", try await measure(tasks: writers) {
    let owner = owners.randomElement()!, date = dates.randomElement()!
    let day = try await grdbDays.read { db in
        try Row.fetchAll(db.cachedStatement(sql: readDay), arguments: [owner, date]).map { row in
            Logged(id: row["id"], loggedAt: row["logged_at"], mealType: row["meal_type"], name: row["name"], quantity: row["quantity"],
                   unit: row["unit"], kcal: row["energy_kcal"], protein: row["protein"], carbs: row["carbohydrates"], fat: row["fat"])
        }
    }
    precondition(day.count >= 0)
})

// --- SQLiteNIO ---

func nioConnection(_ name: String) async throws -> SQLiteNIO.SQLiteConnection {
    let connection = try await SQLiteNIO.SQLiteConnection.open(storage: .file(path: directory.appendingPathComponent(name).path))
    _ = try await connection.query("PRAGMA journal_mode = WAL")
    _ = try await connection.query("PRAGMA synchronous = FULL")
    _ = try await connection.query("PRAGMA busy_timeout = 15000")
    return connection
}

func nioInsert(_ entries: [Entry], _ connection: SQLiteNIO.SQLiteConnection) async throws {
    let now = Date().timeIntervalSince1970
    _ = try await connection.query("BEGIN IMMEDIATE")
    do {
        for e in entries {
            _ = try await connection.query(insertEntry, [SQLiteData.text(e.id), .text(e.owner), .float(e.loggedAt), .text(e.date), .text("breakfast"), .text(e.name),
                                                          .float(170), .text("g"), .float(100.3), .float(17.3), .float(6.1), .float(0.7), .float(now), .float(now)])
            _ = try await connection.query(insertFeed, [SQLiteData.text(e.owner), .text("entry"), .text(e.id), .text("upsert"), .float(now)])
        }
        _ = try await connection.query("COMMIT")
    } catch {
        _ = try? await connection.query("ROLLBACK")
        throw error
    }
}

do {
    let connection = try await nioConnection("nio-each.sqlite")
    for statement in schema { _ = try await connection.query(statement) }
    let turns = Turns()
    report("SQLiteNIO: log an entry, a transaction each", try await measure(tasks: writers) {
        let e = Entry()
        try await turns.run { try await nioInsert([e], connection) }
    })
    try await connection.close()
}
let writer = try await nioConnection("nio.sqlite")
for statement in schema { _ = try await writer.query(statement) }
do {
    let together = Together { batch in try await nioInsert(batch, writer) }
    report("SQLiteNIO: log an entry, together", try await measure(tasks: writers) { try await together.log(Entry()) })
}
let nioDays = try await nioConnection("nio-days.sqlite")
for statement in schema { _ = try await nioDays.query(statement) }
try await nioInsert(seed, nioDays)
var readers: [SQLiteNIO.SQLiteConnection] = []
for _ in 0..<4 { readers.append(try await nioConnection("nio-days.sqlite")) }
let nioCount = try await nioDays.query("SELECT count(*) AS n FROM entries").first?.column("n")?.integer ?? 0
let nioSQLite = try await writer.query("SELECT sqlite_version() AS v").first?.column("v")?.string ?? ""
let pool = readers
let next = ManagedCounter()
report("SQLiteNIO (SQLite \(nioSQLite)): read a day (\(nioCount) entries)", try await measure(tasks: writers) {
    let owner = owners.randomElement()!, date = dates.randomElement()!
    let connection = pool[next.increment() % pool.count]
    let day = try await connection.query(readDay, [SQLiteData.text(owner), SQLiteData.text(date)]).map { row in
        Logged(id: row.column("id")?.string ?? "", loggedAt: row.column("logged_at")?.double ?? 0, mealType: row.column("meal_type")?.string ?? "",
               name: row.column("name")?.string ?? "", quantity: row.column("quantity")?.double, unit: row.column("unit")?.string,
               kcal: row.column("energy_kcal")?.double, protein: row.column("protein")?.double, carbs: row.column("carbohydrates")?.double,
               fat: row.column("fat")?.double)
    }
    precondition(day.count >= 0)
})
for connection in readers { try await connection.close() }
try await nioDays.close()
try await writer.close()
try? FileManager.default.removeItem(at: directory)

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int { lock.withLock { value += 1; return value } }
}
