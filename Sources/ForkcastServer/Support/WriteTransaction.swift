import Fluent
import FluentPostgresDriver
import ForkcastCore
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import SQLKit
import Vapor

/// Every change to stored data runs in one write transaction from here, on either engine.
///
/// SQLite: `BEGIN IMMEDIATE` (a deferred transaction that reads, then writes, fails with
/// SQLITE_BUSY_SNAPSHOT after another commit), after a turn at the application's ``WriteGate``,
/// which also groups commits; a lock held by another process is waited for a bounded time, then
/// 503 with nothing saved. PostgreSQL: a transaction on a watched connection (``Database/postgresWrite(_:)``).
/// Nobody is answered before their commit is on disk.
extension Database {
    func write<T: Sendable>(timeout: Duration? = nil, _ body: @escaping @Sendable (WriteTransaction) async throws -> T) async throws -> T {
        // A write asked for on a write's transaction is part of that write.
        if let tx = self as? WriteTransaction { return try await body(tx) }
        let actions = WriteTransaction.Actions()
        // A database made outside any application has no gate: its writes get one of their own
        // and wait for SQLite's lock as another process's do (`busy_timeout`).
        let gateOfWriter = writeGate
        guard (self as? any SQLDatabase)?.dialect.name == "sqlite" else {
            // What waits for the commit (a photo file's removal, a wake-up) waits for it here too.
            let result: T
            do {
                result = try await postgresWrite { db in try await body(WriteTransaction(db, actions, gate: gateOfWriter)) }
            } catch {
                await actions.onRollback.undo()
                throw error
            }
            await actions.afterCommit.run()
            return result
        }
        let gate = gateOfWriter ?? WriteGate(batchLimit: 1)
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

    private func sqliteWrite<T: Sendable>(timeout: Duration, gate: WriteGate, actions: WriteTransaction.Actions,
                                          _ body: @escaping @Sendable (WriteTransaction) async throws -> T) async throws -> T {
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
                let busyTimeout = max(1, leftMilliseconds)
                result = try await (try gate.writer?(self) ?? self).withConnection { connection in
                    // Each pooled connection already waits 5 s for a lock and overwrites deleted rows
                    // (`prepareSQLiteConnections`, one connection per event loop for the pool's life):
                    // only a request with less time left shortens the wait, for this transaction.
                    let sql = connection as! any SQLDatabase
                    return try await sql.waitingForLocks(milliseconds: busyTimeout) {
                        try await sql.raw("BEGIN IMMEDIATE").run()
                        // The connection stays held here until the batch has committed.
                        return try await WriteBatch(connection).take(turnOf: body, actions: actions, gate: gate, leads: true)
                    }
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

/// The transaction of one write, a `Database` and `SQLDatabase` of its own, with what the write
/// hands to its end; a write asked for on it joins it.
struct WriteTransaction: Database, SQLDatabase {
    /// What a write (or a savepoint's part of it) hands to its end.
    struct Actions: Sendable {
        let afterCommit = WriteActions()
        let onRollback = WriteActions()
    }

    let base: any Database
    let gate: WriteGate?
    /// The writer's actions, then one per savepoint open inside it (``Savepoint``): the innermost
    /// part is the one a change hands its actions to.
    let parts: NIOLockedValueBox<[Actions]>
    private let origins = NIOLockedValueBox<SyncOrigin?>(nil)

    init(_ base: any Database, _ actions: Actions, gate: WriteGate?) {
        self.base = base
        self.gate = gate
        parts = NIOLockedValueBox([actions])
    }

    /// Who the changes being written come from: a pushing device while ``changes(from:_:)`` runs;
    /// nil, the server (the API, the web pages).
    var origin: SyncOrigin? { origins.withLockedValue { $0 } }

    /// Runs `body` with its changes recorded in the change feed as `origin`'s (a push's mutation).
    func changes<T>(from origin: SyncOrigin, _ body: () async throws -> T) async rethrows -> T {
        let before = origins.withLockedValue { current in defer { current = origin }; return current }
        defer { origins.withLockedValue { $0 = before } }
        return try await body()
    }

    /// Runs `work` once the write has committed (not at all if it rolls back).
    func afterCommit(_ work: @escaping @Sendable () async -> Void) { parts.withLockedValue { $0.last! }.afterCommit.add(work) }
    /// Runs `undo` if the write (or the savepoint this change is in) rolls back.
    func onRollback(_ undo: @escaping @Sendable () async -> Void) { parts.withLockedValue { $0.last! }.onRollback.add(undo) }

    // MARK: Database and SQLDatabase: the connection's

    private var sql: any SQLDatabase { base as! any SQLDatabase }
    var context: DatabaseContext { base.context }
    var inTransaction: Bool { true }
    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { sql.version }
    var dialect: any SQLDialect { sql.dialect }
    var queryLogLevel: Logger.Level? { sql.queryLogLevel }

    func execute(query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> ()) -> EventLoopFuture<Void> {
        base.execute(query: query, onOutput: onOutput)
    }
    func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> { base.execute(schema: schema) }
    func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> { base.execute(enum: `enum`) }
    func transaction<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> { closure(self) }
    func withConnection<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> { closure(self) }
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        sql.execute(sql: query, onRow)
    }
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try await sql.execute(sql: query, onRow)
    }
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R { try await closure(self) }
}

/// A PostgreSQL write transaction whose connection is watched: a statement sent after PostgreSQL
/// went away is never answered, and Fluent's own `transaction` then held its pool slot forever
/// (after a few outages, every slot). Once the connection is closed the write fails at once (503,
/// nothing saved) and the pool replaces it. After COMMIT was sent the outcome is unknown
/// (``AppError/outcomeUnknown``): a client retrying on "nothing was saved" would store it twice.
extension Database {
    /// The server's ERROR to a COMMIT (a deferred constraint) is an answer: nothing was saved. Anything
    /// else (the connection lost, a FATAL as the server ends it) leaves the outcome unknown.
    static func refusedCommit(_ error: any Error) -> Bool {
        guard let psql = error as? PSQLError, psql.code == .server else { return false }
        return psql.serverInfo?[.severity] == "ERROR"
    }

    func postgresWrite<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        try await withConnection { (db: any Database) -> EventLoopFuture<T> in
            guard let postgres = db as? any PostgresDatabase else {
                return db.eventLoop.makeFailedFuture(AppError.storageUnavailable)
            }
            return postgres.withConnection { (connection: PostgresConnection) -> EventLoopFuture<T> in
                let committing = NIOLockedValueBox(false)
                return connection.watched(failure: { committing.withLockedValue { $0 } ? AppError.outcomeUnknown : AppError.storageUnavailable }) {
                    let sql = db as! any SQLDatabase
                    try await sql.raw("BEGIN").run()
                    do {
                        let result = try await body(db)
                        committing.withLockedValue { $0 = true }
                        try await sql.raw("COMMIT").run()
                        return result
                    } catch {
                        if committing.withLockedValue({ $0 }), !Self.refusedCommit(error) {
                            // The server ended it (a FATAL as it shut down or was told to): closed now,
                            // or the pool would hand the dying connection to the next request.
                            try? await connection.close().get()
                            throw AppError.outcomeUnknown
                        }
                        if !connection.isClosed { try? await sql.raw("ROLLBACK").run() }
                        throw error
                    }
                }
            }
        }.get()
    }
}

extension PostgresConnection {
    static var closedConnectionCheck: TimeAmount { .milliseconds(250) }

    /// `work` on this connection, failed with `failure()` as soon as the connection is closed
    /// (checked every 250 ms) instead of waiting for an answer that will not come; the pool then
    /// gets its slot back.
    func watched<T: Sendable>(failure: @escaping @Sendable () -> any Error,
                              _ work: @escaping @Sendable () async throws -> T) -> EventLoopFuture<T> {
        let answer = eventLoop.makePromise(of: T.self)
        let watch = eventLoop.scheduleRepeatedTask(initialDelay: Self.closedConnectionCheck,
                                                   delay: Self.closedConnectionCheck) { [self] _ in
            if isClosed { answer.fail(failure()) }
        }
        answer.futureResult.whenComplete { _ in watch.cancel() }
        answer.completeWithTask(work)
        return answer.futureResult
    }
}

/// What to do once a write commits (a photo file's removal, a wake-up), or to put back in memory
/// if it rolls back (the person's settings).
final class WriteActions: Sendable {
    private let actions = NIOLockedValueBox<[@Sendable () async -> Void]>([])

    func add(_ action: @escaping @Sendable () async -> Void) { actions.withLockedValue { $0.append(action) } }

    /// Another's actions, after these (a savepoint's, once it is released); they leave the other.
    func add(contentsOf other: WriteActions) {
        let theirs = other.take()
        actions.withLockedValue { $0 += theirs }
    }

    func run() async { for action in take() { await action() } }
    /// Last first: a field changed twice ends as it was before the first change.
    func undo() async { for action in take().reversed() { await action() } }

    private func take() -> [@Sendable () async -> Void] {
        actions.withLockedValue { actions in
            defer { actions = [] }
            return actions
        }
    }
}
