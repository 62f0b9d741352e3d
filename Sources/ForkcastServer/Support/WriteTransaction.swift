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
    func write<T: Sendable>(timeout: Duration? = nil, _ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        if let current = WriteContext.current { return try await body(current) }
        // The writer's context goes with its body: the gate it came through (its wake-ups of open
        // event streams) and a pushing device's origin. Fluent runs a body that waited for a
        // connection in a task of its own, without them: under load a change then woke no page
        // and a device's change was recorded as the server's.
        let gateOfWriter = WriteGate.current, origin = SyncOrigin.current
        let body: @Sendable (any Database) async throws -> T = { db in
            try await WriteGate.$current.withValue(gateOfWriter) { try await SyncOrigin.$current.withValue(origin) { try await body(db) } }
        }
        let actions = WriteContext.Actions()
        guard (self as? any SQLDatabase)?.dialect.name == "sqlite" else {
            // What waits for the commit (a photo file's removal, a wake-up) waits for it here too.
            let result: T
            do {
                result = try await postgresWrite { tx in
                    try await WriteContext(database: tx, actions).run { try await body(tx) }
                }
            } catch {
                await actions.onRollback.undo()
                throw error
            }
            await actions.afterCommit.run()
            return result
        }
        // Requests, housekeeping and the tests run with their application's gate. A write outside
        // any application's (a command's, in a process of its own) gets a gate of its own: it
        // waits for SQLite's lock as another process does (`busy_timeout`).
        let gate = WriteGate.current ?? WriteGate(batchLimit: 1)
        do {
            let result = try await sqliteWrite(timeout: timeout ?? gate.waitLimit, gate: gate, actions: actions, body)
            gate.health.committed()
            return result
        } catch {
            await actions.onRollback.undo()
            if StorageHealth.isStorageTrouble(error) { gate.health.failed() }
            throw error
        }
    }

    private func sqliteWrite<T: Sendable>(timeout: Duration, gate: WriteGate, actions: WriteContext.Actions,
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
                result = try await batch.take(turnOf: body, actions: actions, gate: gate)
            } catch let error as WriteBatch.Opened {
                throw error.underlying
            }
        case .lead?:
            do {
                let left = deadline - ContinuousClock.now
                let leftMilliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                let busyTimeout = max(1, min(Int64(WriteGate.busyTimeoutMilliseconds), leftMilliseconds))
                result = try await (gate.writer?(self) ?? self).withConnection { connection in
                    let sql = connection as! any SQLDatabase
                    try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(busyTimeout))").run()
                    // Deleted rows are overwritten, not left in free pages (a deleted account's email).
                    try await sql.raw("PRAGMA secure_delete = ON").run()
                    try await sql.raw("BEGIN IMMEDIATE").run()
                    // The connection stays held here until the batch has committed.
                    return try await WriteBatch(connection).take(turnOf: body, actions: actions, gate: gate)
                }
            } catch let error as WriteBatch.Opened {
                throw error.underlying
            } catch {
                // BEGIN failed (or the connection could not be had): nothing is open; the next writer leads.
                await gate.release()
                throw error
            }
        }
        await actions.afterCommit.run()
        return result
    }
}

/// The write transaction a task is inside, and what it hands to the write's end: one task-local,
/// set by ``Database/write(timeout:_:)`` (on PostgreSQL), ``WriteBatch`` (each writer of a
/// SQLite batch) and ``Savepoint`` (a part with actions of its own).
struct WriteContext: Sendable {
    /// What a write (or a savepoint's part of it) hands to its end.
    struct Actions: Sendable {
        /// What to do once it commits.
        let afterCommit = WriteActions()
        /// How to put back what it changed in memory if it rolls back.
        let onRollback = WriteActions()
    }

    let database: any Database
    let actions: Actions

    init(database: any Database, _ actions: Actions) {
        self.database = database
        self.actions = actions
    }

    @TaskLocal private static var active: WriteContext?

    /// Runs `body` inside this write: nested writes join it, and what the body hands to the
    /// write's end goes to these actions.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await Self.$active.withValue(self, operation: body)
    }

    /// The write transaction this task is inside, so nested writes join it.
    static var current: (any Database)? { active?.database }
    /// What to do once it commits.
    static var afterCommit: WriteActions? { active?.actions.afterCommit }
    /// How to put back what it changed in memory if it rolls back (a savepoint's part of it, or all).
    static var onRollback: WriteActions? { active?.actions.onRollback }
}
