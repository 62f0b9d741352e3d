import FluentKit
import ForkcastCore
import Foundation
import NIOCore
import SQLKit

/// New records that many requests add at once (diary entries; docs/performance.md), written together: one
/// multi-row insert, which records them in the change feed too, as one durable SQLite transaction.
///
/// Group commit (``WriteGate``) already shares one commit between writers that queue, but each
/// writer still takes its turn inside the transaction: a savepoint, its statements, a release,
/// each a trip to SQLite's thread and back through a busy event loop. Logging an entry only adds
/// rows, so requests that log while a write is under way hand their rows here instead; the next
/// turn writes every row handed in so far: on the ``AppendConnection`` when it opens the
/// transaction (a single INSERT whose trigger numbers the rows in the feed), or with the usual
/// statements inside the open one when another writer's batch takes it in. A request returns
/// once the transaction holding its rows is committed, as before.
///
/// If a shared write fails (a constraint one request broke, say), each request's rows are written
/// again in a write of their own, so a request fails only for its own rows.
actor InsertQueue<M: Model & Sendable> where M.IDValue == UUID {
    struct Rows: Sendable {
        let models: [M]
        let owner: UUID
        let at: Date
        let db: any Database
        let done: CheckedContinuation<Void, any Error>
    }

    /// What the change feed records the rows as.
    nonisolated let kind: SyncKind
    nonisolated let connection: AppendConnection?
    /// The application's open event streams, told of rows written on ``connection``.
    nonisolated let events: SyncEvents?
    private var pending: [Rows] = []
    private var flushing = false
    /// Shared writes committed so far, and the requests' rows written in them (tests, curiosity).
    private(set) var writes = 0
    private(set) var written = 0
    /// Requests whose rows wait for the next write (tests).
    var waiting: Int { pending.count }

    /// The most rows one shared write takes: one INSERT's worth (``PlainInsert``).
    static var rowLimit: Int { PlainInsert.rowsPerStatement }

    init(kind: SyncKind, connection: AppendConnection?, events: SyncEvents?) {
        self.kind = kind
        self.connection = connection
        self.events = events
    }

    /// Adds `models` (new records of the owner, each with its id) and returns once they are committed.
    func insert(_ models: [M], owner: UUID, at: Date, on db: any Database, gate: WriteGate) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            pending.append(Rows(models: models, owner: owner, at: at, db: db, done: done))
            guard !flushing else { return }
            flushing = true
            Task { await WriteGate.$current.withValue(gate) { await self.flush() } }
        }
    }

    /// Writes what is pending, turn after turn, until nothing is.
    private func flush() async {
        while let db = pending.first?.db {
            let taken = Taken<Rows>()
            var leading: (@Sendable () async throws -> Void)?
            if let connection {
                leading = {
                    // Everything handed in while this write waited for its turn is written in it.
                    let rows = await self.take()
                    taken.rows = rows
                    try await self.write(rows, on: connection)
                    if let events = self.events { for owner in Set(rows.map(\.owner)) { await events.publish(owner: owner) } }
                }
            }
            do {
                if (db as? any SQLDatabase)?.dialect.name == "postgresql" {
                    try await db.postgresWrite(transaction: false) { db in
                        let rows = await self.take()
                        taken.rows = rows
                        try await self.write(rows, onPostgres: db as! any SQLDatabase)
                    }
                } else {
                    try await db.write(leading: leading) { tx in
                        let rows = await self.take()
                        taken.rows = rows
                        try await self.write(rows, on: tx)
                    }
                }
                writes += 1
                written += taken.rows.count
                for rows in taken.rows { rows.done.resume() }
            } catch {
                let rows = taken.rows.isEmpty ? take() : taken.rows
                if Self.isUnavailable(error) || (rows.count == 1 && !(error is NotPlain)) {
                    // The database could not be had at all, or the rows were alone: the error is theirs.
                    for one in rows { one.done.resume(throwing: error) }
                } else {
                    // Each on its own: only the rows that cannot be written fail.
                    await withTaskGroup(of: Void.self) { group in
                        for one in rows {
                            group.addTask {
                                do {
                                    try await one.db.write { tx in try await self.write([one], on: tx) }
                                    one.done.resume()
                                } catch { one.done.resume(throwing: error) }
                            }
                        }
                    }
                }
            }
        }
        flushing = false
    }

    /// The rows handed in so far, up to one INSERT's worth (at least one request's).
    private func take() -> [Rows] {
        var count = 0
        let taken = pending.prefix { rows in
            defer { count += rows.models.count }
            return count == 0 || count + rows.models.count <= Self.rowLimit
        }
        pending.removeFirst(taken.count)
        return Array(taken)
    }

    private static func isUnavailable(_ error: any Error) -> Bool {
        if case .storageUnavailable? = error as? AppError { return true }
        return false
    }

    /// Inside a transaction another writer opened (the usual statements, each awaited).
    private nonisolated func write(_ rows: [Rows], on tx: any Database) async throws {
        try await rows.flatMap(\.models).insert(on: tx)
        for (owner, group) in Dictionary(grouping: rows, by: \.owner).sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            try await SyncLog.record(kind, group.flatMap { rows in rows.models.map { ($0.id!, rows.at) } }, op: .upsert, owner: owner, on: tx)
        }
    }

    /// On the append connection, which records the table's rows in the feed itself: one INSERT,
    /// SQLite's own durable transaction.
    private nonisolated func write(_ rows: [Rows], on connection: AppendConnection) async throws {
        // Not one plain INSERT the connection records (values Fluent must bind, more rows than one
        // statement takes, a table it does not record): each request's rows are written through Fluent.
        guard connection.feeds[M.schema] == kind, let inserts = PlainInsert.statements(rows.flatMap(\.models)), inserts.count == 1 else {
            throw NotPlain()
        }
        try await connection.run(inserts[0])
    }

    /// PostgreSQL: the rows and their changes in the feed as one statement (``SyncLog/recording(_:_:op:alongside:)``),
    /// PostgreSQL's own durable transaction.
    private nonisolated func write(_ rows: [Rows], onPostgres sql: any SQLDatabase) async throws {
        let models = rows.flatMap(\.models)
        guard let inserts = PlainInsert.statements(models), inserts.count == 1 else { throw NotPlain() }
        let changes = rows.flatMap { rows in rows.models.map { (owner: rows.owner, id: $0.id!, at: rows.at) } }
        try await sql.raw(SyncLog.recording(kind, changes, op: .upsert, alongside: inserts[0])).run()
        for model in models { model._$idExists = true }
    }
}

/// The rows cannot be written on the append connection; each request's are written through Fluent.
private struct NotPlain: Error {}

/// The rows a shared write took, known to the flush whether the write succeeded or not.
private final class Taken<Row>: @unchecked Sendable {
    var rows: [Row] = []
}
