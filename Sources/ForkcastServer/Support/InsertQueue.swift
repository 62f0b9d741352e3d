import FluentKit
import ForkcastCore
import Foundation
import NIOCore
import SQLKit

/// New records that many requests add at once (diary entries, issue 12), written together: one
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
        let kind: SyncKind
        let at: Date
        let db: any Database
        let done: CheckedContinuation<Void, any Error>
    }

    nonisolated let connection: AppendConnection?
    private var pending: [Rows] = []
    private var flushing = false
    /// Shared writes committed so far, and the requests' rows written in them (tests, curiosity).
    private(set) var writes = 0
    private(set) var written = 0
    /// Requests whose rows wait for the next write (tests).
    var waiting: Int { pending.count }

    init(connection: AppendConnection?) { self.connection = connection }

    /// Adds `models` (new records of the owner, each with its id) and returns once they are committed.
    func insert(_ models: [M], kind: SyncKind, owner: UUID, at: Date, on db: any Database, gate: WriteGate) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            pending.append(Rows(models: models, owner: owner, kind: kind, at: at, db: db, done: done))
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
                    try await Self.write(rows, on: connection)
                    for owner in Set(rows.map(\.owner)) { await SyncEvents.shared.publish(owner: owner) }
                }
            }
            do {
                try await db.write(leading: leading) { tx in
                    let rows = await self.take()
                    taken.rows = rows
                    try await Self.write(rows, on: tx)
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
                                    try await one.db.write { tx in try await Self.write([one], on: tx) }
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

    private func take() -> [Rows] {
        defer { pending = [] }
        return pending
    }

    private static func isUnavailable(_ error: any Error) -> Bool {
        if case .storageUnavailable? = error as? AppError { return true }
        return false
    }

    /// The rows and their feed entries, grouped by owner and kind (in a fixed order).
    private static func groups(_ rows: [Rows]) -> [(owner: UUID, kind: SyncKind, changes: [(id: UUID, at: Date)])] {
        Dictionary(grouping: rows, by: { "\($0.owner.uuidString) \($0.kind.rawValue)" }).sorted { $0.key < $1.key }.map { _, group in
            (group[0].owner, group[0].kind, group.flatMap { rows in rows.models.map { ($0.id!, rows.at) } })
        }
    }

    /// Inside a transaction another writer opened (the usual statements, each awaited).
    private static func write(_ rows: [Rows], on tx: any Database) async throws {
        try await rows.flatMap(\.models).insert(on: tx)
        for group in groups(rows) { try await SyncLog.record(group.kind, group.changes, op: .upsert, owner: group.owner, on: tx) }
    }

    /// On the append connection, which records the table's rows in the feed itself: one statement
    /// alone (its own durable transaction), or several in one transaction, chained on its loop.
    private static func write(_ rows: [Rows], on connection: AppendConnection) async throws {
        // Rows that are not plain values, or a table the connection does not record: each request's
        // rows are then written on their own, through Fluent.
        guard rows.allSatisfy({ connection.feeds[M.schema] == $0.kind }), let inserts = PlainInsert.statements(rows.flatMap(\.models)) else {
            throw NotPlain()
        }
        if inserts.count == 1 { return try await connection.run(inserts[0]) }
        try await connection.transaction { sql in
            var future = sql.eventLoop.makeSucceededVoidFuture()
            for statement in inserts { future = future.flatMap { sql.raw(statement).run() } }
            return future
        }
    }
}

/// The rows cannot be written on the append connection; each request's are written through Fluent.
private struct NotPlain: Error {}

/// The rows a shared write took, known to the flush whether the write succeeded or not.
private final class Taken<Row>: @unchecked Sendable {
    var rows: [Row] = []
}
