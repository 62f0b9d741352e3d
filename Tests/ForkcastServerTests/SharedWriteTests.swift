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

/// Logging under load (docs/performance.md): entries that many requests log at once share the write
/// transaction open meanwhile (group commit), each request answered only once its entry is
/// committed; a request whose rows cannot be written fails alone; and the meal types logging keeps between requests give way
/// the moment one changes.
@Suite("Shared writes") struct SharedWriteTests {
    func entry(_ name: String, id: UUID = UUID()) -> DiaryEntry {
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        return DiaryEntry(id: id, loggedAt: at, date: CalendarDate(at, in: TimeZone(identifier: "UTC")!), mealType: "snack",
                          kind: .quickAdd, name: name, nutrients: Nutrients(energyKcal: 100))
    }

    /// Logs each entry from its own task, as concurrent requests do, while another writer holds
    /// the database; lets that writer finish once all of them wait (SQLite: they join its batch),
    /// then returns which succeeded.
    func logTogether(_ entries: [DiaryEntry], owner: UUID, app: Application) async throws -> [UUID: Bool] {
        try await logTogether(entries.map { ($0, owner) }, app: app)
    }

    struct HolderFailed: Error {}

    /// Each entry logged as its owner (several people at once). `holderLogs`: the holder logs this
    /// entry (as the first owner), then fails.
    func logTogether(_ entries: [(entry: DiaryEntry, owner: UUID)], holderLogs: DiaryEntry? = nil, app: Application) async throws -> [UUID: Bool] {
        let gate = app.writeGate
        let sqlite = (app.db as! any SQLDatabase).dialect.name == "sqlite"
        let (held, hold) = AsyncStream<Void>.makeStream()
        let first = entries[0].owner
        let holder = Task {
            try await app.db.write { tx in
                if let holderLogs { try await FluentDiary.insert([holderLogs], owner: first, on: tx, now: Date()) }
                for await _ in held { break }
                if holderLogs != nil { throw HolderFailed() }
            }
        }
        try await Task.sleep(for: .milliseconds(100))  // the holder has the database
        return try await withThrowingTaskGroup(of: (UUID, Bool).self) { group in
            for (entry, owner) in entries {
                let db = app.db
                group.addTask {
                    do {
                        try await FluentDiary.insert([entry], owner: owner, on: db, now: Date())
                        return (entry.id, true)
                    } catch { return (entry.id, false) }
                }
            }
            if sqlite {
                for _ in 0..<500 where await gate.waiting < entries.count { try await Task.sleep(for: .milliseconds(10)) }
            } else {
                try await Task.sleep(for: .milliseconds(100))
            }
            hold.yield()
            hold.finish()
            if holderLogs == nil { try await holder.value } else { await #expect(throws: HolderFailed.self) { try await holder.value } }
            return try await group.reduce(into: [UUID: Bool]()) { $0[$1.0] = $1.1 }
        }
    }

    @Test func entriesLoggedAtOnceShareOneWriteAndABadOneFailsAlone() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            let owner = try #require(try await UserModel.query(on: app.db).first()?.id)
            let sql = app.db as! any SQLDatabase
            let transactionsBefore = await app.writeGate.transactions

            let first = (1...6).map { entry("Apple \($0)") }
            let outcomes = try await logTogether(first, owner: owner, app: app)
            #expect(outcomes.count == 6 && outcomes.values.allSatisfy { $0 })
            if sql.dialect.name == "sqlite" {
                // The six joined the holder's transaction: one commit for all seven writers.
                let transactions = await app.writeGate.transactions - transactionsBefore
                #expect(transactions == 1, "7 writers took \(transactions) transactions")
            }

            // Round two: one request brings an entry whose id is taken (its insert must fail).
            let second = (1...4).map { entry("Pear \($0)") } + [entry("Impostor", id: first[0].id)]
            let again = try await logTogether(second, owner: owner, app: app)
            #expect(again.count == 5)
            #expect(second.filter { again[$0.id] == true }.map(\.name) == ["Pear 1", "Pear 2", "Pear 3", "Pear 4"])
            #expect(again[first[0].id] == false)

            // Everything that succeeded is stored once, with its own change in the feed, numbered
            // without gaps or repeats; the impostor changed nothing.
            let names = try await sql.raw("SELECT name FROM diary_entries WHERE user_id = \(bind: owner) ORDER BY name").all()
                .map { try $0.decode(column: "name", as: String.self) }
            #expect(names == (1...6).map { "Apple \($0)" } + (1...4).map { "Pear \($0)" })
            let feed = try await sql.raw("""
                SELECT seq FROM sync_records WHERE owner_id = \(bind: owner) AND kind = 'diaryEntry' ORDER BY seq
                """).all().map { try $0.decode(column: "seq", as: Int.self) }
            #expect(feed.count == 10 && Set(feed).count == 10)
            let all = try await sql.raw("SELECT seq FROM sync_records WHERE owner_id = \(bind: owner) ORDER BY seq").all()
                .map { try $0.decode(column: "seq", as: Int.self) }
            #expect(all == Array(1...all.count))
            // Each entry's change is the server's, made when the entry was (the feed's version of it).
            guard sql.dialect.name == "sqlite" else { return }
            let matching = try await sql.raw("""
                SELECT COUNT(*) AS n FROM sync_records s JOIN diary_entries d ON d.id = s.record_id
                WHERE s.kind = 'diaryEntry' AND s.op = 'upsert' AND s.device_id = 'server' AND s.mutation_id = ''
                  AND s.updated_at = d.updated_at AND s.changed_at = d.updated_at AND s.owner_id = d.user_id
                """).first()?.decode(column: "n", as: Int.self)
            #expect(matching == 10)
        }
    }

    /// The writer that opened the shared transaction (on SQLite it has no savepoint of its own)
    /// fails after writing: what it wrote is gone, and the writers queued behind it still commit.
    @Test func aFirstWriterThatFailsLeavesNothingAndTheWritersBehindItCommit() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            let owner = try #require(try await UserModel.query(on: app.db).first()?.id)
            let plums = (1...3).map { entry("Plum \($0)") }
            let outcomes = try await logTogether(plums.map { ($0, owner) }, holderLogs: entry("Holder's"), app: app)
            #expect(outcomes.count == 3 && outcomes.values.allSatisfy { $0 })
            let sql = app.db as! any SQLDatabase
            let names = try await sql.raw("SELECT name FROM diary_entries WHERE user_id = \(bind: owner) ORDER BY name").all()
                .map { try $0.decode(column: "name", as: String.self) }
            #expect(names == ["Plum 1", "Plum 2", "Plum 3"])
            let feed = try await sql.raw("SELECT seq FROM sync_records WHERE owner_id = \(bind: owner) AND kind = 'diaryEntry'").all()
            #expect(feed.count == 3)
        }
    }

    /// An account deleted while its person logs (the request was signed in, the account went before
    /// the entry was written): that person's entries are refused by the database (their owner is
    /// gone: a 409, "nothing was changed", and the next request is signed out), nothing of them is
    /// stored, and the others' entries written in the same shared write are stored as usual.
    @Test func entriesOfAnAccountDeletedMeanwhileFailAloneAndLeaveNothing() async throws {
        try await withForkcast(allowSignup: true) { app in
            var owners: [UUID] = []
            for email in ["ana@example.com", "bob@example.com"] {
                _ = try await app.signUp(email)
                owners.append(try #require(try await UserModel.query(on: app.db).filter(\.$email == email).first()?.id))
            }
            let (ana, bob) = (owners[0], owners[1])
            try await DeleteAccount(accounts: FluentAccounts(db: app.db, photoStore: app.photoStore))(bob)
            let entries: [(entry: DiaryEntry, owner: UUID)] = (1...4).map { (entry("Fig \($0)"), ana) } + (1...2).map { (entry("Gone \($0)"), bob) }
            let outcomes = try await logTogether(entries, app: app)
            #expect(entries.filter { outcomes[$0.entry.id] == true }.map(\.entry.name) == ["Fig 1", "Fig 2", "Fig 3", "Fig 4"])
            #expect(entries.filter { outcomes[$0.entry.id] == false }.map(\.entry.name) == ["Gone 1", "Gone 2"])
            let sql = app.db as! any SQLDatabase
            let stored = try await sql.raw("SELECT name, user_id FROM diary_entries ORDER BY name").all()
                .map { (try $0.decode(column: "name", as: String.self), try $0.decode(column: "user_id", as: UUID.self)) }
            #expect(stored.map(\.0) == ["Fig 1", "Fig 2", "Fig 3", "Fig 4"] && stored.allSatisfy { $0.1 == ana })
            let feedOfTheDeleted = try await sql.raw("SELECT COUNT(*) AS n FROM sync_records WHERE owner_id = \(bind: bob)").first()?
                .decode(column: "n", as: Int.self)
            #expect(feedOfTheDeleted == 0)
            let feed = try await sql.raw("SELECT seq FROM sync_records WHERE owner_id = \(bind: ana) AND kind = 'diaryEntry' ORDER BY seq").all()
                .map { try $0.decode(column: "seq", as: Int.self) }
            #expect(feed.count == 4 && Set(feed).count == 4)
            // Alone, the refusal is the database's constraint, which the API answers with a 409.
            let db = app.db
            do {
                try await FluentDiary.insert([entry("Late")], owner: bob, on: db, now: Date())
                Issue.record("an entry of a deleted account was stored")
            } catch {
                #expect((error as? any DatabaseError)?.isConstraintFailure == true, "\(String(reflecting: error))")
            }
        }
    }

    /// Several people logging at once: each person's changes are numbered after their own head, in
    /// turn, and recorded as the server's, made when the entry was. (On PostgreSQL numbered by each
    /// person's row in `sync_heads`.)
    @Test func severalPeoplesEntriesLoggedAtOnceAreEachNumberedInTurn() async throws {
        try await withForkcast(allowSignup: true) { app in
            var owners: [UUID] = []
            for email in ["a@example.com", "b@example.com", "c@example.com"] {
                let client = try await app.signUp(email)
                // A change before the shared write, so each head starts above zero.
                _ = try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "Elevenses"])
                owners.append(try #require(try await UserModel.query(on: app.db).filter(\.$email == email).first()?.id))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<30 {
                    let owner = owners[index % 3]
                    let db = app.db
                    group.addTask {
                        try await FluentDiary.insert([entry("Plum \(index)")], owner: owner, on: db, now: Date())
                    }
                }
                try await group.waitForAll()
            }
            let sql = app.db as! any SQLDatabase
            for owner in owners {
                let feed = try await sql.raw("SELECT kind, seq FROM sync_records WHERE owner_id = \(bind: owner) ORDER BY seq").all()
                    .map { (try $0.decode(column: "kind", as: String.self), try $0.decode(column: "seq", as: Int.self)) }
                #expect(feed.map(\.1) == Array(1...feed.count), "a person's own numbers, without a gap or a repeat")
                #expect(feed.filter { $0.0 == "diaryEntry" }.count == 10 && feed.first?.0 != "diaryEntry")
            }
            let matching = try await sql.raw("""
                SELECT COUNT(*) AS n FROM sync_records s JOIN diary_entries d ON d.id = s.record_id
                WHERE s.kind = 'diaryEntry' AND s.op = 'upsert' AND s.device_id = 'server' AND s.mutation_id = ''
                  AND s.changed_at = s.updated_at AND s.owner_id = d.user_id
                """).first()?.decode(column: "n", as: Int.self)
            #expect(matching == 30)
        }
    }

}
