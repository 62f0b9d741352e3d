import ForkcastContract
import FluentKit
import ForkcastApp
@testable import ForkcastCore
@testable import ForkcastServer
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SQLKit
import SQLiteKit
import Testing
import VaporTesting

extension SharedWriteTests {
    /// SQLite copies its log back in the commit that takes it past 1,000 pages (its own
    /// `wal_autocheckpoint`): the gate lets no other writer in meanwhile, so the checkpoint copies
    /// back all of it and the next commit starts the log over. Nobody else checkpoints: the
    /// database file grows on disk only because commits did.
    @Test func commitsCopyTheLogBackOnceItIsFull() async throws {
        try await withSQLite { app, path, log in
            let writer = try await app.db.write { tx in
                try await (tx as any SQLDatabase).raw("PRAGMA wal_autocheckpoint").first()?.decode(column: "wal_autocheckpoint", as: Int.self)
            }
            #expect(writer == 1000, "SQLite's own checkpoint stays on for the writing connections")
            func bytes(_ file: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? -1 }
            let before = bytes(path)
            var logged = 0
            while bytes(path) == before, logged < 3_000 {
                let start = logged
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for n in 0..<25 { group.addTask { try await log("Snack \(start + n)") } }
                    try await group.waitForAll()
                }
                logged += 25
            }
            #expect(bytes(path) > before, "a commit copied the log back (\(logged) entries logged)")
            #expect(bytes(path + "-wal") <= 64 << 20, "journal_size_limit bounds the log")
        }
    }

    /// A turn asked for alone (the checkpoint that empties SQLite's log) is never handed the
    /// open transaction, which it would not write in: a writer behind it joins that one, and the
    /// turn alone leads once it has ended.
    @Test func aTurnAskedForAloneIsNeverHandedTheOpenTransaction() async throws {
        try await withForkcast { app in
            let gate = WriteGate()
            func queued(_ count: Int) async throws {
                let deadline = Date().addingTimeInterval(10)
                while await gate.waiting < count, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
                #expect(await gate.waiting == count)
            }
            guard case .lead? = await gate.acquire(timeout: .seconds(10)) else { Issue.record("an idle gate gives the first writer the lead"); return }
            let alone = Task { await gate.acquire(timeout: .seconds(10), alone: true) }
            try await queued(1)
            let writer = Task { await gate.acquire(timeout: .seconds(10)) }
            try await queued(2)
            #expect(await gate.passOn(WriteBatch(app.db)), "the writer behind the turn alone joins the open transaction")
            guard case .join? = await writer.value else { Issue.record("the writer was not handed the open transaction"); return }
            #expect(await gate.passOn(WriteBatch(app.db)) == false, "nobody joins: only the turn alone waits")
            await gate.release()
            guard case .lead? = await alone.value else { Issue.record("the turn alone did not lead once the transaction ended"); return }
            #expect(await gate.waiting == 0)
            await gate.release()
        }
    }

    /// A reader that holds the log back (a backup's `VACUUM INTO` reads for long) keeps emptying the
    /// log from holding the gate: it waits 100 ms for that reader and leaves the log to the next hour.
    /// Once the reader is done, the log is emptied.
    @Test func aReaderHoldingTheLogBackLeavesItForLater() async throws {
        try await withSQLite { app, path, log in
            for n in 0..<5 { try await log("Before \(n)") }
            let (began, begin) = AsyncStream<Void>.makeStream()
            let (done, finish) = AsyncStream<Void>.makeStream()
            // A connection of its own, as the backup command's process has.
            let reader = Task {
                defer { begin.finish() }
                let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: app.threadPool,
                                                                 logger: app.logger, on: app.eventLoopGroup.next()).get()
                do {
                    _ = try await connection.query("BEGIN").get()
                    _ = try await connection.query("SELECT COUNT(*) AS n FROM diary_entries").get()  // the read holds its snapshot of the log
                    begin.yield()
                    for await _ in done { break }
                    _ = try await connection.query("COMMIT").get()
                } catch {
                    try? await connection.close().get()
                    throw error
                }
                try await connection.close().get()
            }
            var reading = false
            for await _ in began { reading = true; break }
            guard reading else {
                try await reader.value
                Issue.record("the reader did not begin")
                return
            }
            for n in 0..<5 { try await log("While reading \(n)") }
            let turns = await app.writeGate.transactions
            #expect(try await app.db.emptySQLiteLog() == false, "the reader was in the way")
            #expect(await app.writeGate.transactions == turns + 1, "one turn, given back")
            try await log("After")
            finish.yield()
            finish.finish()
            try await reader.value
            #expect(try await app.db.emptySQLiteLog())
            #expect(((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) == 0)
        }
    }

    /// Housekeeping's hourly `TRUNCATE` checkpoint (and its first, five seconds after start-up)
    /// takes a turn of its own at the write gate. Run beside the gate, it waited for SQLite's lock
    /// in the busy handler while every writer waited behind it (the first round of logging after a
    /// start measured a p99 two to three times the others). Here a writer holds the gate: the log
    /// is not emptied until that writer is done.
    @Test func housekeepingEmptiesTheLogInATurnOfItsOwnAtTheWriteGate() async throws {
        try await withSQLite { app, path, log in
            for n in 0..<5 { try await log("Snack \(n)") }
            func logBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? -1 }
            let db = app.db
            try await expectEmptiedOnlyOnceAWriterIsDone(gate: app.writeGate, logBytes: logBytes) { try await db.emptySQLiteLog(turnWait: .seconds(30)) }
            // Housekeeping empties it too, and writes the planner's statistics at the gate.
            try await log("After")
            #expect(logBytes() > 0)
            try await Housekeeping.run(on: app.db, now: Date())
            #expect(logBytes() == 0)
            #expect(try await (app.db as! any SQLDatabase).raw("SELECT COUNT(*) AS n FROM sqlite_stat1").first()?.decode(column: "n", as: Int.self) ?? 0 > 0)
        }
    }

    /// A write that starts after the application has shut its databases down (the catalogue's
    /// first load or housekeeping, still running when SIGTERM came) fails with a 503's error; it
    /// trapped on the writers' pool that was gone (test_durability.py's SIGTERM test, 1 run in 15).
    @Test func aWriteAfterTheDatabasesShutDownFailsInsteadOfTrapping() async throws {
        try await withSQLite { app, _, log in
            try await log("Before")
            let db = app.db
            await app.databases.shutdownAsync()
            let error = await #expect(throws: AppError.self) {
                try await db.write { tx in try await (tx as any SQLDatabase).raw("SELECT 1").run() }
            }
            guard case .storageUnavailable? = error else { Issue.record("\(String(describing: error))"); return }
            #expect(await app.writeGate.waiting == 0, "the gate was handed on")
        }
    }

    /// Deleting an account empties the log (the account's pages as they were) in a turn of its own
    /// at the write gate, after the deletion's write, as housekeeping does.
    @Test func deletingAnAccountEmptiesTheLogInATurnOfItsOwnAtTheWriteGate() async throws {
        try await withSQLite { app, path, log in
            func logBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? -1 }
            for n in 0..<3 { try await log("Snack \(n)") }
            #expect(logBytes() > 0)
            // What both the API's and the Settings page's deletion call, once the person confirmed it.
            let user = try #require(try await UserModel.query(on: app.db).first())
            let data = AccountData(user: user, db: app.db, photoStore: app.photoStore, now: Date())
            let turns = await app.writeGate.transactions
            try await data.deleteAccount(readCache: app.readCache)
            let taken = await app.writeGate.transactions - turns
            #expect(taken == 2, "\(taken) turns: the deletion's write, then a turn of its own to empty the log")
            #expect(try await UserModel.query(on: app.db).count() == 0, "deleted")
            #expect(logBytes() == 0, "the log holds none of the deleted account's pages")
        }
    }

    /// A writer holds `gate` while `empty` runs: the log (`logBytes`) is not emptied while it does;
    /// once the writer is done, `empty` has a turn of its own and the log is empty.
    func expectEmptiedOnlyOnceAWriterIsDone(gate: WriteGate, logBytes: () -> Int,
                                                    _ empty: @escaping @Sendable () async throws -> Bool) async throws {
        #expect(logBytes() > 0)
        guard case .lead? = await gate.acquire(timeout: .seconds(10)) else { Issue.record("the idle gate gives the first writer the lead"); return }
        let emptying = Task { try await empty() }
        let deadline = Date().addingTimeInterval(10)
        while await gate.waiting == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await gate.waiting == 1, "the checkpoint waits for its turn")
        try await Task.sleep(for: .milliseconds(200))
        #expect(logBytes() > 0, "nothing was emptied while the writer held the gate")
        let turns = await gate.transactions
        await gate.release()
        #expect(try await emptying.value, "once the writer was done the log was emptied")
        #expect(logBytes() == 0)
        #expect(await gate.transactions == turns + 2, "the writer's turn ended, then one of its own")
    }

    /// An application on SQLite, its database file, and how to log a snack as the person signed
    /// up; on PostgreSQL, which has no such log, `body` does not run.
    func withSQLite(_ body: (Application, String, _ log: @escaping @Sendable (String) async throws -> Void) async throws -> Void) async throws {
        try await withForkcast(allowSignup: true) { app in
            guard case .sqlite(let path) = app.forkcastConfig.storage else {
                #expect((app.db as! any SQLDatabase).dialect.name == "postgresql")
                return
            }
            let client = try await app.signUp()
            try await body(app, path) { name in
                let logged = try await client.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 100), name: name))
                #expect(logged.status == .created)
            }
        }
    }
}
