import ForkcastContract
import FluentKit
import NIOConcurrencyHelpers
@testable import ForkcastServer
import Foundation
import SQLKit
import Testing
import VaporTesting

/// What each application holds of its own (configure, the composition root): its write gate and
/// its open event streams. Two applications in one process (the tests, or two servers) share
/// neither, and every write of one, web sessions included, goes through its own gate.
@Suite("What each application holds") struct CompositionTests {
    /// Vapor writes a web session from a future's callback, outside the request's task: the session
    /// still goes through its application's gate, which its database carries (on SQLite, a write
    /// outside it would be a second writer, waiting for SQLite's lock).
    @Test func aWebSessionIsWrittenThroughItsApplicationsGate() async throws {
        try await withForkcast { app in
            guard (app.db as! any SQLDatabase).dialect.name == "sqlite" else { return }  // PostgreSQL has no gate
            let gate = app.writeGate
            let sessions = DatabaseSessions(lifetime: 3600)
            let request = Request(application: app, on: app.eventLoopGroup.next())
            var data = SessionData()
            data["csrf"] = "token"
            let before = await gate.transactions
            let id = try await sessions.createSession(data, for: request).get()
            #expect(await gate.transactions == before + 1, "the session's write was one of the application's gate's")
            let stored = try await WebSessionModel.query(on: app.db).filter(\.$keyHash == Tokens.hash(id.string)).count()
            #expect(stored == 1)

            data["csrf"] = "rotated"
            _ = try await sessions.updateSession(id, to: data, for: request).get()
            #expect(await gate.transactions == before + 2, "an update goes through the gate too")
            try await sessions.deleteSession(id, for: request).get()
            #expect(await gate.transactions == before + 3, "and so does a deletion")
            #expect(try await WebSessionModel.query(on: app.db).filter(\.$keyHash == Tokens.hash(id.string)).count() == 0)
        }
    }

    /// A change one application writes wakes its own event streams and not another's: each has
    /// its own `SyncEvents`, reached through its own gate (on PostgreSQL every instance hears every
    /// change through `NOTIFY`, which is what instances sharing a database need).
    @Test func twoApplicationsKeepTheirEventStreamsApart() async throws {
        try await withForkcast(allowSignup: true) { first in
            guard (first.db as! any SQLDatabase).dialect.name == "sqlite" else { return }
            try await withForkcast(allowSignup: true) { second in
                #expect(first.syncEvents !== second.syncEvents)
                let client = try await first.signUp()
                let owner = try await client.get("/api/v1/me").json(TestUser.self).id
                let (_, ours) = await first.syncEvents.subscribe(owner: owner)
                let (_, theirs) = await second.syncEvents.subscribe(owner: owner)
                let theirsWoke = Task { for await _ in theirs { return true }; return false }

                let logged = try await client.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 90), name: "Apple"))
                #expect(logged.status == .created)
                var iterator = ours.makeAsyncIterator()
                let oursWoke = await iterator.next() != nil
                #expect(oursWoke, "the application that wrote the change tells its own listeners")
                // Both would have been woken in the same call had they shared one hub.
                try await Task.sleep(for: .milliseconds(200))
                theirsWoke.cancel()  // ends its wait for the next event: false unless it was woken
                #expect(await theirsWoke.value == false, "another application's listeners hear nothing of it")
            }
        }
    }

    /// A write that waited for a connection keeps its writer's context. Fluent runs the body of
    /// such a write in a task of its own, where the gate it came through and a pushing device's
    /// origin, then task-locals, were lost: under load a change woke no open page (the planner's
    /// live-update test met it 1 run in 20), and a device's change was recorded as the server's.
    /// Both now travel with the write's transaction.
    @Test func aWriteThatWaitsForAConnectionKeepsItsWritersContext() async throws {
        try await withForkcast(allowSignup: true) { app in
            let client = try await app.signUp()
            let owner = try await client.get("/api/v1/me").json(TestUser.self).id
            let (_, streamEvents) = await app.syncEvents.subscribe(owner: owner)
            let loop = app.eventLoopGroup.next()
            let db = try #require(app.databases.database(logger: app.logger, on: loop))
            // Every connection of that loop's pool taken (SQLite has one, PostgreSQL eight), so the write waits.
            let released = NIOLockedValueBox(false)
            let holders = (0..<8).map { _ in
                Task { try await db.withConnection { _ in
                    while !released.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                } }
            }
            try await Task.sleep(for: .milliseconds(100))
            let origin = SyncOrigin(deviceId: "phone-1", updatedAt: Date(timeIntervalSince1970: 1_790_000_000), mutationId: "m-1")
            let record = UUID()
            let write = Task {
                try await db.write { tx in
                    try await tx.changes(from: origin) { try await SyncLog.record(.food, [record], op: .delete, owner: owner, on: tx, now: Date()) }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            released.withLockedValue { $0 = true }
            for holder in holders { try await holder.value }
            try await write.value
            let row = try #require(try await (app.db as! any SQLDatabase).raw("SELECT device_id FROM sync_records WHERE record_id = \(bind: record)").first())
            #expect(try row.decode(column: "device_id", as: String.self) == "phone-1", "the device's change, not the server's")
            // On PostgreSQL a change is announced by NOTIFY inside its own transaction, whatever the
            // task; on SQLite through the gate the write came by, which was the one lost.
            guard (app.db as! any SQLDatabase).dialect.name == "sqlite" else { return }
            let woke = Task { for await _ in streamEvents { return true }; return false }
            try await Task.sleep(for: .milliseconds(500))
            woke.cancel()
            #expect(await woke.value, "the change woke the person's open event stream")
        }
    }

    /// What waits for a write's commit (a photo file's removal, an event stream's wake-up) runs
    /// once the write has committed and never when it rolls back, on either database. On
    /// PostgreSQL a write had nothing to hand such work to: a photo store that removes files would
    /// have removed them inside a transaction that could still roll back.
    @Test func whatWaitsForTheCommitRunsOnlyOnceItCommits() async throws {
        struct Refused: Error {}
        try await withForkcast { app in
            let ran = NIOLockedValueBox<[String]>([])
            try await app.db.write { tx in tx.afterCommit { ran.withLockedValue { $0.append("committed") } } }
            #expect(ran.withLockedValue { $0 } == ["committed"])
            await #expect(throws: Refused.self) {
                try await app.db.write { tx in
                    tx.afterCommit { ran.withLockedValue { $0.append("rolled back") } }
                    throw Refused()
                }
            }
            #expect(ran.withLockedValue { $0 } == ["committed"], "nothing of a write that rolled back runs")
        }
    }

    /// A write asked for on a write's transaction (a repository's write called by a use case inside
    /// its own) is part of that write: it rolls back with it, and on SQLite does not queue at the
    /// gate the outer write holds.
    @Test func aWriteAskedForOnAWritesTransactionIsPartOfIt() async throws {
        struct Refused: Error {}
        try await withForkcast { app in
            let sql = app.db as! any SQLDatabase
            try await sql.raw("CREATE TABLE probe (x INTEGER)").run()
            await #expect(throws: Refused.self) {
                try await app.db.write { tx in
                    try await tx.write { inner in try await inner.raw("INSERT INTO probe VALUES (1)").run() }
                    throw Refused()
                }
            }
            let count = try await sql.raw("SELECT COUNT(*) AS n FROM probe").first()?.decode(column: "n", as: Int.self)
            #expect(count == 0, "the inner write rolled back with the outer one")
        }
    }

    /// How to put back what a write changed in memory (the signed-in person's settings) runs when
    /// the write rolls back, last first, and a savepoint's part of it when that savepoint alone rolls
    /// back; a released savepoint's is handed to the write. Group commit's writers and a sync push's
    /// mutations both run in such savepoints (``Savepoint``).
    @Test func whatAWriteChangedInMemoryIsPutBackWhenItOrItsSavepointRollsBack() async throws {
        struct Refused: Error {}
        try await withForkcast { app in
            let undone = NIOLockedValueBox<[String]>([])
            @Sendable func undo(_ name: String, _ tx: WriteTransaction) { tx.onRollback { undone.withLockedValue { $0.append(name) } } }
            try await app.db.write { tx in undo("committed", tx) }
            #expect(undone.withLockedValue { $0 }.isEmpty, "a write that commits keeps its changes")

            await #expect(throws: Refused.self) {
                try await app.db.write { tx in
                    undo("first", tx)
                    undo("second", tx)
                    throw Refused()
                }
            }
            #expect(undone.withLockedValue { $0 } == ["second", "first"], "last first")

            undone.withLockedValue { $0 = [] }
            try await app.db.write { db in
                try await Savepoint.run("kept", on: db) { undo("kept", db) }
                await #expect(throws: Refused.self) {
                    try await Savepoint.run("refused", on: db) {
                        undo("refused", db)
                        throw Refused()
                    }
                }
            }
            #expect(undone.withLockedValue { $0 } == ["refused"], "only the savepoint that rolled back is undone")

            undone.withLockedValue { $0 = [] }
            await #expect(throws: Refused.self) {
                try await app.db.write { db in
                    try await Savepoint.run("released", on: db) { undo("released", db) }
                    throw Refused()
                }
            }
            #expect(undone.withLockedValue { $0 } == ["released"], "a released savepoint is undone with its write")
        }
    }

    /// On SQLite a writer whose part of a batch was released still has its memory put back when the
    /// batch does not commit: here another writer of the batch ends the transaction under it (its
    /// savepoint can then not be rolled back), so the batch rolls back whole and every writer in it
    /// fails, the one that had succeeded included.
    @Test func aWriterWhoseBatchFailsAfterItsPartWasReleasedIsUndoneToo() async throws {
        guard TestDatabase.postgresURL == nil else { return }
        struct Refused: Error {}
        try await withForkcast { app in
            let undone = NIOLockedValueBox<[String]>([])
            let (holder, (kept, breaking)) = try await app.whileAWriteHoldsTheGate { untilWaiting in
                let kept = Task {
                    try await app.db.write { tx in tx.onRollback { undone.withLockedValue { $0.append("kept") } } }
                }
                try await untilWaiting(1)
                let breaking = Task {
                    try await app.db.write { db in
                        try await (db as any SQLDatabase).raw("ROLLBACK").run()
                        throw Refused()
                    }
                }
                try await untilWaiting(2)
                return (kept, breaking)
            }
            await #expect(throws: (any Error).self, "the batch did not commit") { try await holder.value }
            await #expect(throws: (any Error).self, "the batch did not commit") { try await kept.value }
            await #expect(throws: Refused.self) { try await breaking.value }
            #expect(undone.withLockedValue { $0 } == ["kept"], "its part was released, and undone once the batch failed")
            try await app.db.write { tx in tx.onRollback { undone.withLockedValue { $0.append("later") } } }
            #expect(undone.withLockedValue { $0 } == ["kept"], "the next write commits")
        }
    }
}
