import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// One person's change feed and remembered answers on the server's database, for ForkcastApp's
/// ``PushChanges``; made only by ``Owner``. A write is one transaction through the write gate, the
/// person's lock taken first (as in ``FluentLibrary``).
struct FluentSyncStore: SyncStore {
    let user: UserModel
    let db: any Database
    let now: Date
    let uuid: @Sendable () -> UUID
    let application: Application

    func write<T: Sendable>(_ body: @escaping @Sendable (any SyncLedger) async throws -> T) async throws -> T {
        let (user, now, uuid, application) = (user, now, uuid, application)
        let owner = try user.requireID()
        return try await db.write { tx in
            try await SyncLog.lockPerson(owner, on: tx as any SQLDatabase)
            return try await body(Ledger(records: SyncRecords(user: user, db: tx, now: now, uuid: uuid, application: application), tx: tx))
        }
    }

    func lastSequence() async throws -> Int {
        try await SyncLog.lastSequence(owner: try user.requireID(), on: db as! any SQLDatabase)
    }

    struct Ledger: SyncLedger {
        let records: SyncRecords
        /// The push's write (the records' database).
        let tx: WriteTransaction
        var owner: UUID { records.ownerID }
        var sql: any SQLDatabase { records.db as! any SQLDatabase }

        func remembered(_ mutationIds: [String], device: String) async throws -> [String: SyncResult] {
            guard !mutationIds.isEmpty else { return [:] }
            let rows = try await sql.raw("""
                SELECT mutation_id, result FROM sync_mutations WHERE owner_id = \(bind: owner) AND device_id = \(bind: device)
                  AND mutation_id IN (\(binds: mutationIds))
                """).all()
            var answers: [String: SyncResult] = [:]
            for row in rows {
                let text = try row.decode(column: "result", as: String.self)
                // An answer that no longer reads is treated as never given: the mutation is decided anew.
                guard let answer = try? JSONDecoder.forkcast.decode(SyncResult.self, from: Data(text.utf8)) else { continue }
                answers[try row.decode(column: "mutation_id", as: String.self)] = answer
            }
            return answers
        }

        /// On SQLite, whether writers wait at the write gate (every other write of the process, a
        /// person's logged entries included, is one of them). On PostgreSQL, where writes of different
        /// people run side by side and a person's wait for their lock cannot be seen cheaply, always:
        /// a push there applies one mutation or group a write, as it did before it shared them.
        func othersAreWaiting() async -> Bool {
            guard (records.db as? any SQLDatabase)?.dialect.name == "sqlite" else { return true }
            guard let gate = tx.gate else { return false }
            return await gate.waiting > 0
        }

        /// A savepoint (``Savepoint``): what waits for the commit is handed on only when it is
        /// released, and what it changed in memory (the person's settings in the signed-in
        /// ``UserModel``, which the push's writes share) is put back when it is rolled back.
        func attempt<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
            do {
                return try await Savepoint.run("forkcast_sync", on: tx, body)
            } catch let broken as Savepoint.Broken where broken.savepoint == "forkcast_sync" {
                // The transaction is gone (SQLite rolls all of it back after a full disk or an I/O
                // error): the write cannot go on, and the storage is what failed.
                records.db.logger.error("A push's savepoint failed (\(String(reflecting: broken.cause))) around: \(String(reflecting: broken.underlying))")
                throw AppError.storageUnavailable
            }
        }

        /// Kept under the device's mutation id (two devices may use the same mutation ids).
        func remember(_ result: SyncResult, device: String) async throws {
            let encoded = String(decoding: try JSONEncoder.forkcastSorted.encode(result), as: UTF8.self)
            try await sql.raw("""
                INSERT INTO sync_mutations (owner_id, device_id, mutation_id, result, created_at)
                VALUES (\(bind: owner), \(bind: device), \(bind: result.mutationId), \(bind: encoded), \(bind: records.now.timeIntervalSince1970))
                ON CONFLICT (owner_id, device_id, mutation_id) DO NOTHING
                """).run()
        }

        func version(_ kind: SyncKind, _ id: UUID) async throws -> (version: SyncVersion, op: SyncOp)? {
            try await SyncLog.version(kind, id, owner: owner, on: records.db)
        }

        func hasForgottenDeletions() async throws -> Bool {
            try await SyncLog.horizon(owner: owner, on: records.db) != nil
        }

        func record(_ kind: SyncKind, _ id: UUID) async throws -> JSONValue? {
            try await records.load(kind, [id])[id].map(JSONValue.init(encoding:))
        }

        func apply(_ op: SyncOp, _ kind: SyncKind, id: UUID, record: JSONValue?, as version: SyncVersion) async throws {
            // The use cases record the change in the feed under the device's version.
            try await tx.changes(from: SyncOrigin(deviceId: version.deviceId, updatedAt: version.updatedAt, mutationId: version.mutationId)) {
                switch op {
                case .upsert: try await records.upsert(kind, id: id, input: try JSONEncoder().encode(record))
                case .delete: try await records.delete(kind, id: id)
                }
            }
        }
    }
}
