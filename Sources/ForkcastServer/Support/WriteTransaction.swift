import Fluent
import ForkcastCore
import Foundation
import SQLKit
import NIOConcurrencyHelpers
import Vapor

/// Every change to stored data runs in one write transaction from here.
///
/// On SQLite a deferred transaction that reads and then writes fails with SQLITE_BUSY_SNAPSHOT when
/// another connection committed in between; no busy handler can save it. So writes start as
/// `BEGIN IMMEDIATE` (the write lock is taken before the first read), queue in this process on
/// one gate (no connection spins waiting for SQLite's lock), and wait a bounded time for a lock
/// held by another process (`busy_timeout`) before answering 503 with nothing saved.
///
/// Group commit (docs/performance.md): SQLite has one writer at a time and a durable commit costs an fsync,
/// so writers that queue while a transaction is open join it instead of each paying for their own.
/// Each runs in its own task (its task-locals intact), one after another, inside its own savepoint:
/// a writer that fails rolls back only its own changes. The last of the batch commits, and nobody
/// answers before that commit is on disk; if it fails, every writer of the batch fails with it.
/// On PostgreSQL it is an ordinary transaction on a watched connection (``Database/postgresWrite(_:)``).
extension Database {
    ///
    /// `leading` (SQLite): how to write when this writer opens the transaction rather than joining
    /// one, in a transaction of its own on another connection (``AppendConnection``); nobody joins it.
    func write<T: Sendable>(timeout: Duration = WriteGate.waitLimit, leading: (@Sendable () async throws -> T)? = nil,
                            _ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        if let current = WriteContext.current { return try await body(current) }
        let afterCommit = AfterCommit()
        guard (self as? any SQLDatabase)?.dialect.name == "sqlite" else {
            let result = try await postgresWrite { tx in try await WriteContext.$current.withValue(tx) { try await body(tx) } }
            await afterCommit.run()
            return result
        }
        let gate = WriteGate.current ?? WriteGate.sqlite
        do {
            let result = try await sqliteWrite(timeout: timeout, leading: leading, gate: gate, afterCommit: afterCommit, body)
            gate.health.committed()
            return result
        } catch {
            if StorageHealth.isStorageTrouble(error) { gate.health.failed() }
            throw error
        }
    }

    private func sqliteWrite<T: Sendable>(timeout: Duration, leading: (@Sendable () async throws -> T)?, gate: WriteGate, afterCommit: AfterCommit,
                                          _ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        // However long the turn took, the request waits at most `timeout` in all (each
        // writer ahead waiting its own 5 s for a lock held elsewhere made the 4th wait 20.7 s).
        let deadline = ContinuousClock.now + timeout
        let result: T
        switch await gate.acquire(timeout: timeout) {
        case nil:
            throw AppError.storageUnavailable
        case .join(let batch)?:
            do {
                result = try await batch.take(turnOf: body, afterCommit: afterCommit, gate: gate)
            } catch let error as WriteBatch.Opened {
                throw error.underlying
            }
        case .lead? where leading != nil:
            do {
                result = try await leading!()
            } catch {
                await gate.release()
                throw error
            }
            await gate.release()
        case .lead?:
            do {
                let left = deadline - ContinuousClock.now
                let leftMilliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                let busyTimeout = max(1, min(Int64(WriteGate.busyTimeoutMilliseconds), leftMilliseconds))
                result = try await withConnection { connection in
                    let sql = connection as! any SQLDatabase
                    try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(busyTimeout))").run()
                    // Deleted rows are overwritten, not left in free pages (a deleted account's email).
                    try await sql.raw("PRAGMA secure_delete = ON").run()
                    try await sql.raw("BEGIN IMMEDIATE").run()
                    // The connection stays held here until the batch has committed.
                    return try await WriteBatch(connection).take(turnOf: body, afterCommit: afterCommit, gate: gate)
                }
            } catch let error as WriteBatch.Opened {
                throw error.underlying
            } catch {
                // BEGIN failed (or the connection could not be had): nothing is open; the next writer leads.
                await gate.release()
                throw error
            }
        }
        await afterCommit.run()
        return result
    }
}

enum WriteContext {
    /// The write transaction this task is inside, so nested writes join it.
    @TaskLocal static var current: (any Database)?
    /// What to do once it commits.
    @TaskLocal static var afterCommit: AfterCommit?
}

/// One SQLite transaction shared by the writers that queued while it was open (group commit).
actor WriteBatch {
    /// A writer's error once the batch was opened: the gate is already taken care of.
    struct Opened: Error { let underlying: any Error }

    nonisolated let connection: any Database
    private var broken: (any Error)?
    private var outcome: Result<Void, any Error>?
    private var waiting: [CheckedContinuation<Void, any Error>] = []

    init(_ connection: any Database) { self.connection = connection }

    /// Runs one writer's changes in a savepoint, then hands the transaction to the next writer
    /// waiting or, with nobody waiting, commits it; returns once the batch is committed.
    nonisolated func take<T: Sendable>(turnOf body: @escaping @Sendable (any Database) async throws -> T,
                                       afterCommit: AfterCommit, gate: WriteGate) async throws -> T {
        let sql = connection as! any SQLDatabase
        let mine: Result<T, any Error>
        do {
            try await sql.raw("SAVEPOINT forkcast_write").run()
            do {
                let value = try await WriteContext.$afterCommit.withValue(afterCommit) {
                    try await WriteContext.$current.withValue(connection) { try await body(connection) }
                }
                try await sql.raw("RELEASE forkcast_write").run()
                mine = .success(value)
            } catch {
                do {
                    try await sql.raw("ROLLBACK TO forkcast_write").run()
                    try await sql.raw("RELEASE forkcast_write").run()
                } catch let rollback {
                    await breakBatch(rollback)
                }
                mine = .failure(error)
            }
        } catch {
            await breakBatch(error)
            mine = .failure(error)
        }
        if !(await gate.passOn(self)) {
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

    /// The transaction can no longer be trusted (a savepoint could not be rolled back): roll it all back.
    private func breakBatch(_ error: any Error) { if broken == nil { broken = error } }

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

/// A first-come, first-served queue of writers with a bounded wait. The first writer opens a
/// transaction; writers queued behind it join that transaction in turn (up to `batchLimit`).
actor WriteGate {
    /// The gate of writes outside requests (commands, tests calling use cases directly). It may
    /// serve several databases (several applications in one process), so its writers never share
    /// a transaction.
    static let sqlite = WriteGate(batchLimit: 1)
    /// The application's own gate, set for each request (one per database: several applications
    /// in one process, as in the tests, do not queue behind each other).
    @TaskLocal static var current: WriteGate?
    /// How long a write waits for its turn before the request answers 503.
    static let waitLimit: Duration = .seconds(15)
    /// How long SQLite waits for a lock another process holds.
    static let busyTimeoutMilliseconds = 5000
    /// The most writers one commit carries (an application's gate serves one database).
    let batchLimit: Int
    /// Whether this gate's writes have been failing for storage reasons.
    nonisolated let health = StorageHealth()
    /// Diary entries logged through this gate's requests, written together (``InsertQueue``); nil
    /// for the gate outside requests, whose writers never share a transaction.
    nonisolated let diaryEntries: InsertQueue<DiaryEntryModel>?

    /// `appendConnection`: the connection of its own that shared inserts are written on.
    init(batchLimit: Int = 32, appendConnection: AppendConnection? = nil) {
        self.batchLimit = batchLimit
        diaryEntries = batchLimit > 1 ? InsertQueue(kind: .diaryEntry, connection: appendConnection) : nil
    }

    enum Turn: Sendable { case lead, join(WriteBatch) }

    /// Hands each request its application's gate.
    struct Middleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            try await WriteGate.$current.withValue(request.application.writeGate) { try await next.respond(to: request) }
        }
    }

    private var busy = false
    private var batchSize = 0
    /// Transactions ended so far (committed, rolled back or never opened), for tests and curiosity.
    private(set) var transactions = 0
    private var waiters: [(id: UUID, continuation: CheckedContinuation<Turn?, Never>)] = []

    /// Waits for this writer's turn: to open a transaction, or to join the open one. Nil when the
    /// wait outlasted `timeout`.
    func acquire(timeout: Duration) async -> Turn? {
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
        let turn = await withCheckedContinuation { continuation in waiters.append((id, continuation)) }
        timer.cancel()
        return turn
    }

    /// The writer whose turn it was is done: the next writer waiting joins the open transaction
    /// (true), or nobody waits or the batch is full and the caller commits it (false).
    func passOn(_ batch: WriteBatch) -> Bool {
        guard !waiters.isEmpty, batchSize < batchLimit else { return false }
        batchSize += 1
        waiters.removeFirst().continuation.resume(returning: .join(batch))
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
        get { storage[WriteGateKey.self] ?? WriteGate.sqlite }
        set { storage[WriteGateKey.self] = newValue }
    }
}

/// Whether this instance's writes are failing for storage reasons (a full disk, an I/O error, a
/// lock held elsewhere): `/healthz` says not writable while the last write that ended did so
/// within ``window``, even when its own small probe would still fit (a full disk kept
/// answering `writable: true` while 100+ writes failed).
final class StorageHealth: Sendable {
    static let window: Duration = .seconds(30)
    private let lastFailure = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    func failed() { lastFailure.withLockedValue { $0 = .now } }

    /// A write committed: storage takes writes again.
    func committed() { lastFailure.withLockedValue { $0 = nil } }

    /// The last write failed for storage reasons, recently.
    var isFailing: Bool {
        lastFailure.withLockedValue { failure in failure.map { ContinuousClock.now - $0 < Self.window } ?? false }
    }

    /// Trouble with storage itself, not with what was written (a constraint or a rule refused).
    static func isStorageTrouble(_ error: any Error) -> Bool {
        if case AppError.storageUnavailable = error { return true }
        if error is AppError || error is ValidationError { return false }
        if let database = error as? any DatabaseError, database.isConstraintFailure || database.isSyntaxError { return false }
        return StorageFailure.isStorageFailure(error)
    }
}
