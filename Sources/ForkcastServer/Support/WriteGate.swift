import Fluent
import ForkcastCore
import Foundation
import SQLKit
import NIOConcurrencyHelpers
import Vapor

/// SQLite's writers of one application, first come, first served, with a bounded wait; and group
/// commit: the first writer opens a transaction, writers that queue meanwhile join it in turn (up
/// to `batchLimit`), each in a savepoint of its own, and the last one commits (docs/performance.md).
actor WriteGate {
    /// How long a write waits for its turn before the request answers 503 (unless configured).
    static let defaultWaitLimit: Duration = .seconds(15)
    nonisolated let waitLimit: Duration
    /// How long SQLite waits for a lock another process holds.
    static let busyTimeoutMilliseconds = 5000
    /// The most writers one commit carries.
    let batchLimit: Int
    nonisolated let health = StorageHealth()
    /// The application's open event streams, woken after its writes commit.
    nonisolated let events: SyncEvents?
    /// The database a transaction runs on, for the caller's (the writes' own pool of the file).
    nonisolated let writer: (@Sendable (any Database) throws -> any Database)?

    init(batchLimit: Int = 32, events: SyncEvents? = nil, waitLimit: Duration = WriteGate.defaultWaitLimit,
         writer: (@Sendable (any Database) throws -> any Database)? = nil) {
        self.batchLimit = batchLimit
        self.waitLimit = waitLimit
        self.events = events
        self.writer = writer
    }

    enum Turn: Sendable { case lead, join(WriteBatch) }

    /// A database configuration carrying its application's gate, so every `Database` made from it
    /// finds the gate (``Database/writeGate``) whoever asks for it.
    struct Gated: DatabaseConfiguration {
        var base: any DatabaseConfiguration
        let gate: WriteGate
        var middleware: [any AnyModelMiddleware] { get { base.middleware } set { base.middleware = newValue } }
        func makeDriver(for databases: Databases) -> any DatabaseDriver { base.makeDriver(for: databases) }
    }

    private var busy = false
    private var batchSize = 0
    /// Turns ended so far (tests).
    private(set) var transactions = 0
    private var waiters: [(id: UUID, alone: Bool, continuation: CheckedContinuation<Turn?, Never>)] = []
    /// Writers waiting for their turn (tests).
    var waiting: Int { waiters.count }

    /// This writer's turn: to open a transaction, or to join the open one; nil past `timeout`.
    /// `alone`: a turn with no transaction open (emptying SQLite's log); writers behind it may
    /// still join the open one.
    func acquire(timeout: Duration, alone: Bool = false) async -> Turn? {
        if !busy {
            busy = true
            batchSize = 1
            return .lead
        }
        let id = UUID()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        let turn = await withCheckedContinuation { continuation in waiters.append((id, alone, continuation)) }
        timer.cancel()
        return turn
    }

    /// A writer is done: the next one joins the open transaction (true), or the caller commits (false).
    func passOn(_ batch: WriteBatch) -> Bool {
        guard batchSize < batchLimit, let next = waiters.firstIndex(where: { !$0.alone }) else { return false }
        batchSize += 1
        waiters.remove(at: next).continuation.resume(returning: .join(batch))
        return true
    }

    /// The transaction is over (committed, rolled back or never opened): the next writer opens one.
    func release() {
        transactions += 1
        if waiters.isEmpty {
            busy = false
        } else {
            batchSize = 1
            waiters.removeFirst().continuation.resume(returning: .lead)
        }
    }

    private func expire(_ id: UUID) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: nil)
    }
}

extension Application {
    private struct WriteGateKey: StorageKey { typealias Value = WriteGate }

    /// This application's queue of SQLite writers (set up by `configure`).
    var writeGate: WriteGate {
        get { configured(WriteGateKey.self) }
        set { storage[WriteGateKey.self] = newValue }
    }
}

extension Database {
    /// The gate of the application this database belongs to; nil for one made outside any.
    var writeGate: WriteGate? { (context.configuration as? WriteGate.Gated)?.gate }

    /// Empties SQLite's write-ahead log (hourly; after an account's deletion, so it keeps none of
    /// its pages) in a turn alone at the gate, waiting at most 100 ms for a reader: every writer
    /// waits meanwhile. False on PostgreSQL, with no turn in `turnWait`, or with a reader in the way.
    func emptySQLiteLog(turnWait: Duration = .seconds(5)) async throws -> Bool {
        guard let sql = self as? any SQLDatabase, sql.dialect.name == "sqlite" else { return false }
        if let gate = writeGate, await gate.acquire(timeout: turnWait, alone: true) == nil { return false }
        let busy: Result<Bool, any Error>
        do {
            busy = .success(try await withConnection { connection in
                let sql = connection as! any SQLDatabase
                let row = try await sql.waitingForLocks(milliseconds: 100) { try await sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").first() }
                return try row?.decode(column: "busy", as: Int.self) == 1
            })
        } catch { busy = .failure(error) }
        await writeGate?.release()
        return try !busy.get()
    }
}

extension SQLDatabase {
    /// Runs `body` on this SQLite connection waiting at most `milliseconds` for another process's
    /// lock, when that is less than the usual wait every pooled connection has; the connection
    /// goes back to the pool with the usual wait, whatever `body` did.
    func waitingForLocks<T>(milliseconds: Int64, _ body: () async throws -> T) async throws -> T {
        guard milliseconds < WriteGate.busyTimeoutMilliseconds else { return try await body() }
        try await raw("PRAGMA busy_timeout = \(unsafeRaw: String(milliseconds))").run()
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        try? await raw("PRAGMA busy_timeout = \(unsafeRaw: String(WriteGate.busyTimeoutMilliseconds))").run()
        return try result.get()
    }
}

/// One SQLite transaction shared by the writers that queued while it was open (group commit).
actor WriteBatch {
    /// A writer's error once the batch was opened: the gate is already taken care of.
    struct Opened: Error { let underlying: any Error }

    nonisolated let connection: any Database
    /// Each writer's part of the batch.
    static let savepoint = "forkcast_write"
    private var broken: (any Error)?
    private var outcome: Result<Void, any Error>?
    private var waiting: [CheckedContinuation<Void, any Error>] = []

    init(_ connection: any Database) { self.connection = connection }

    /// Runs one writer's changes in a savepoint, then hands the transaction to the next writer
    /// waiting or, with nobody waiting, commits it; returns once the batch is committed.
    /// `leads`: the writer that opened the transaction is alone in it, so it needs no savepoint:
    /// its failure rolls the transaction back and the next writer opens another.
    nonisolated func take<T: Sendable>(turnOf body: @escaping @Sendable (WriteTransaction) async throws -> T,
                                       actions: WriteTransaction.Actions, gate: WriteGate, leads: Bool = false) async throws -> T {
        let connection = connection
        let mine: Result<T, any Error>
        do {
            let tx = WriteTransaction(connection, actions, gate: gate)
            let value = leads ? try await body(tx) : try await Savepoint.run(Self.savepoint, on: tx) { try await body(tx) }
            mine = .success(value)
        } catch let broken as Savepoint.Broken where broken.savepoint == Self.savepoint {
            await breakBatch(broken.cause)
            mine = .failure(broken.underlying)
        } catch {
            if leads { await breakBatch(error) }
            mine = .failure(error)
        }
        // A batch that can only roll back is handed to nobody: the writers waiting start afresh.
        let handedOn = await isBroken ? false : await gate.passOn(self)
        if !handedOn {
            await commit()
            await gate.release()
        }
        var commitError: (any Error)?
        do { try await committed() } catch { commitError = error }
        switch mine {
        case .failure(let error): throw Opened(underlying: error)
        case .success(let value):
            if let commitError { throw Opened(underlying: commitError) }
            return value
        }
    }

    /// The transaction can no longer be trusted (a savepoint could not be opened or rolled back): roll it all back.
    private func breakBatch(_ error: any Error) { if broken == nil { broken = error } }
    private var isBroken: Bool { broken != nil }

    private func commit() async {
        let sql = connection as! any SQLDatabase
        let result: Result<Void, any Error>
        if let broken {
            try? await sql.raw("ROLLBACK").run()
            result = .failure(broken)
        } else {
            do {
                try await sql.raw("COMMIT").run()
                result = .success(())
            } catch {
                try? await sql.raw("ROLLBACK").run()
                result = .failure(error)
            }
        }
        outcome = result
        for continuation in waiting { continuation.resume(with: result) }
        waiting = []
    }

    private func committed() async throws {
        if let outcome { return try outcome.get() }
        try await withCheckedThrowingContinuation { waiting.append($0) }
    }
}

/// A part of a write that fails undoes only itself: each writer of a batch (``WriteBatch``) and each
/// mutation of a sync push (``FluentSyncStore``). Its after-commit and rollback actions go to the
/// part around it when released, and are dropped and undone when it is rolled back.
enum Savepoint {
    /// The savepoint could not be opened or rolled back, so the whole transaction is lost (SQLite
    /// rolls it all back after a full disk or an I/O error). `cause`: the savepoint's error;
    /// `underlying`: the part's.
    struct Broken: Error {
        let savepoint: String
        let cause: any Error
        let underlying: any Error
    }

    static func run<T: Sendable>(_ name: String, on tx: WriteTransaction,
                                 _ body: @Sendable () async throws -> T) async throws -> T {
        let sql: any SQLDatabase = tx
        do {
            try await sql.raw("SAVEPOINT \(unsafeRaw: name)").run()
        } catch {
            throw Broken(savepoint: name, cause: error, underlying: error)
        }
        let part = WriteTransaction.Actions()
        tx.parts.withLockedValue { $0.append(part) }
        // The part ends here however the body ends: the part around it is the innermost again.
        func end() -> WriteTransaction.Actions {
            tx.parts.withLockedValue { parts in
                parts.removeAll { $0.afterCommit === part.afterCommit }
                return parts.last!
            }
        }
        do {
            let value = try await body()
            try await sql.raw("RELEASE \(unsafeRaw: name)").run()
            let outer = end()
            outer.afterCommit.add(contentsOf: part.afterCommit)
            outer.onRollback.add(contentsOf: part.onRollback)
            return value
        } catch {
            _ = end()
            await part.onRollback.undo()
            do {
                try await sql.raw("ROLLBACK TO \(unsafeRaw: name)").run()
                try await sql.raw("RELEASE \(unsafeRaw: name)").run()
            } catch let rollback {
                throw Broken(savepoint: name, cause: rollback, underlying: error)
            }
            throw error
        }
    }
}
