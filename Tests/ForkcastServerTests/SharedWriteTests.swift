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
    private func entry(_ name: String, id: UUID = UUID()) -> DiaryEntry {
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        return DiaryEntry(id: id, loggedAt: at, date: CalendarDate(at, in: TimeZone(identifier: "UTC")!), mealType: "snack",
                          kind: .quickAdd, name: name, nutrients: Nutrients(energyKcal: 100))
    }

    /// Logs each entry from its own task, as concurrent requests do, while another writer holds
    /// the database; lets that writer finish once all of them wait (SQLite: they join its batch),
    /// then returns which succeeded.
    private func logTogether(_ entries: [DiaryEntry], owner: UUID, app: Application) async throws -> [UUID: Bool] {
        try await logTogether(entries.map { ($0, owner) }, app: app)
    }

    /// Each entry logged as its owner (several people at once).
    private func logTogether(_ entries: [(entry: DiaryEntry, owner: UUID)], app: Application) async throws -> [UUID: Bool] {
        let gate = app.writeGate
        let sqlite = (app.db as! any SQLDatabase).dialect.name == "sqlite"
        let (held, hold) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await app.db.write { _ in for await _ in held { break } }
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
            try await holder.value
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

    /// PostgreSQL's row per person in `sync_heads`: filled from the feed when the migration runs on
    /// a database with changes, and never trusted when behind the feed (changes an older Forkcast
    /// recorded without it): the next change is numbered after the feed's head either way.
    @Test func aPersonsHeadRowIsFilledFromTheFeedAndNeverBehindIt() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let sql = app.db as! any SQLDatabase
            guard sql.dialect.name == "postgresql" else {
                #expect(try await sql.raw("SELECT name FROM sqlite_master WHERE name = 'sync_heads'").all().isEmpty, "SQLite keeps no such row")
                return
            }
            let owner = try #require(try await UserModel.query(on: app.db).first()?.id)
            func log() async throws {
                #expect(try await client.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 90))).status == .created)
            }
            func feed() async throws -> [Int] {
                try await sql.raw("SELECT seq FROM sync_records WHERE owner_id = \(bind: owner) ORDER BY seq").all().map { try $0.decode(column: "seq", as: Int.self) }
            }
            func headRow() async throws -> Int? {
                try await sql.raw("SELECT seq FROM sync_heads WHERE owner_id = \(bind: owner)").first()?.decode(column: "seq", as: Int.self)
            }
            for _ in 0..<3 { try await log() }
            let before = try await feed()
            #expect(before == Array(1...before.count) && before.count >= 3)
            #expect(try await headRow() == before.count)

            // The migration run again on a database with changes fills the row from the feed.
            try await M018_SyncHeads().revert(on: app.db)
            try await M018_SyncHeads().prepare(on: app.db)
            #expect(try await headRow() == before.count)
            try await log()
            #expect(try await feed() == Array(1...(before.count + 1)))

            // A row behind the feed: the next change still comes after the feed's head.
            try await sql.raw("UPDATE sync_heads SET seq = 1 WHERE owner_id = \(bind: owner)").run()
            try await log()
            #expect(try await feed() == Array(1...(before.count + 2)))
            #expect(try await headRow() == before.count + 2)

            // No row at all (a person whose changes all came before it): numbered after the feed's head.
            try await sql.raw("DELETE FROM sync_heads WHERE owner_id = \(bind: owner)").run()
            try await log()
            #expect(try await feed() == Array(1...(before.count + 3)))
            #expect(try await headRow() == before.count + 3)
        }
    }

    /// PostgreSQL: writes recording changes of both people and writes recording one person's, all at
    /// once: every person's numbers stay without a gap or a repeat, one writer's in a row.
    @Test func sharedWritesAndTransactionsRecordingAtOnceNumberEachPersonInTurn() async throws {
        try await withForkcast(allowSignup: true) { app in
            let sql = app.db as! any SQLDatabase
            guard sql.dialect.name == "postgresql" else {
                #expect(sql.dialect.name == "sqlite", "SQLite's writes take turns at the gate (tested above)")
                return
            }
            _ = try await app.signUp("a@example.com")
            _ = try await app.signUp("b@example.com")
            let owners = try await UserModel.query(on: app.db).all().compactMap(\.id)
            #expect(owners.count == 2)
            let writers = (0..<32).map { index in (index, (0..<(1 + index % 5)).map { _ in UUID() }) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, ids) in writers {
                    group.addTask {
                        if index % 2 == 0 {
                            // One write for both people, taking their locks in one order.
                            try await app.db.write { tx in
                                for owner in owners { try await SyncLog.record(.diaryEntry, ids, op: .upsert, owner: owner, on: tx, now: Date()) }
                            }
                        } else {
                            let owner = owners[index % 4 == 1 ? 0 : 1]
                            try await app.db.write { tx in try await SyncLog.record(.diaryEntry, ids, op: .upsert, owner: owner, on: tx, now: Date()) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for owner in owners {
                let rows = try await sql.raw("SELECT record_id, seq FROM sync_records WHERE owner_id = \(bind: owner) ORDER BY seq").all()
                    .map { (try $0.decode(column: "record_id", as: UUID.self), try $0.decode(column: "seq", as: Int.self)) }
                #expect(rows.map(\.1) == Array(1...rows.count), "numbered from 1 without a gap or a repeat")
                let numbers = Dictionary(uniqueKeysWithValues: rows)
                for (index, ids) in writers where index % 2 == 0 || (index % 4 == 1) == (owner == owners[0]) {
                    let own = ids.compactMap { numbers[$0] }
                    #expect(own.count == ids.count && own == Array((own.first ?? 0)..<((own.first ?? 0) + ids.count)), "one writer's changes in a row")
                }
            }
        }
    }

    @Test func concurrentRequestsLogEveryEntryOnceAndAnswerWithIt() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let oats = try await client.createFood(FoodsAPITests.oats).json(IDOnly.self).id
            let ids = try await withThrowingTaskGroup(of: UUID?.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let response = try await client.send(.POST, "/api/v1/diary/entries", raw: """
                            {"foodId":"\(oats)","quantity":\(10 + index),"unit":"g","mealType":"breakfast","date":"2026-11-20"}
                            """)
                        return response.status == .created ? try response.json(IDOnly.self).id : nil
                    }
                }
                return try await group.reduce(into: [UUID?]()) { $0.append($1) }
            }
            #expect(ids.count == 24 && ids.allSatisfy { $0 != nil })
            // Each answer's entry is there at once, with its own amount.
            struct Entry: Decodable { var id: UUID; var quantity: Decimal? }
            let stored = try await withThrowingTaskGroup(of: Entry.self) { group in
                for id in ids.compactMap({ $0 }) { group.addTask { try await client.get("/api/v1/diary/entries/\(id)").json(Entry.self) } }
                return try await group.reduce(into: [Entry]()) { $0.append($1) }
            }
            #expect(Set(stored.compactMap(\.quantity)) == Set((0..<24).map { Decimal(10 + $0) }))
            struct Day: Decodable { var entries: [Group]; struct Group: Decodable { var entries: [IDOnly] } }
            #expect(try await client.get("/api/v1/diary?date=2026-11-20").json(Day.self).entries.flatMap(\.entries).count == 24)
        }
    }

    @Test func keptMealTypesGiveWayWhenOneIsAdded() async throws {
        try await withForkcast(allowSignup: true) { app in
            let client = try await app.signUp()
            let oats = try await client.createFood(FoodsAPITests.oats).json(IDOnly.self).id
            func log(_ mealType: String) async throws -> HTTPStatus {
                try await client.send(.POST, "/api/v1/diary/entries", raw: """
                    {"foodId":"\(oats)","quantity":40,"unit":"g","mealType":"\(mealType)"}
                    """).status
            }
            // Logging reads (and keeps) the person's types; an unknown one is refused.
            #expect(try await log("breakfast") == .created)
            #expect(try await log("elevenses") == .unprocessableEntity)
            let created = try await client.sendJSON(.POST, "/api/v1/meal-types", ["displayName": "Elevenses"])
            #expect(created.status == .created)
            let elevenses = try created.json(IDOnly.self).id
            // The new type is there for the very next entry.
            #expect(try await log(elevenses.uuidString) == .created)
            #expect(try await log(elevenses.uuidString) == .created)
            // Another person's types are theirs: the kept types are not shared.
            let stranger = try await app.signUp("stranger@example.com")
            let strangersOats = try await stranger.createFood(FoodsAPITests.oats).json(IDOnly.self).id
            #expect(try await stranger.send(.POST, "/api/v1/diary/entries", raw: """
                {"foodId":"\(strangersOats)","quantity":40,"unit":"g","mealType":"\(elevenses)"}
                """).status == .unprocessableEntity)
        }
    }

    @Test func keptFoodsGiveWayWhenOneChanges() async throws {
        try await withForkcast(allowSignup: true) { app in
            let client = try await app.signUp()
            let oats = try await client.createFood(FoodsAPITests.oats).json(IDOnly.self).id
            struct Logged: Decodable { var nutrients: Macros; struct Macros: Decodable { var energyKcal: Decimal? } }
            func log(_ who: Client, _ food: UUID) async throws -> TestingHTTPResponse {
                try await who.send(.POST, "/api/v1/diary/entries", raw: """
                    {"foodId":"\(food)","quantity":100,"unit":"g","mealType":"breakfast"}
                    """)
            }
            #expect(try await log(client, oats).json(Logged.self).nutrients.energyKcal == 372)
            #expect(try await log(client, oats).json(Logged.self).nutrients.energyKcal == 372)
            // Another person cannot log it, kept or not.
            let stranger = try await app.signUp("stranger@example.com")
            #expect(try await log(stranger, oats).status == .notFound)

            // A changed food counts with its new values for the very next entry.
            var lighter = FoodsAPITests.oats
            lighter["per100"] = ["energyKcal": 300, "protein": 13, "carbohydrates": 60, "fat": 7]
            #expect(try await client.sendJSON(.PUT, "/api/v1/foods/\(oats)", lighter).status == .ok)
            #expect(try await log(client, oats).json(Logged.self).nutrients.energyKcal == 300)
            // A deleted one can no longer be logged; the entries logged before keep their values.
            #expect(try await client.send(.DELETE, "/api/v1/foods/\(oats)").status == .noContent)
            #expect(try await log(client, oats).status == .notFound)
            struct Day: Decodable { var entries: [Group]; struct Group: Decodable { var entries: [Logged] } }
            let today = try await client.get("/api/v1/diary").json(Day.self).entries.flatMap(\.entries).compactMap(\.nutrients.energyKcal)
            #expect(today.sorted() == [300, 372, 372])
        }
    }

    @Test func moreEntriesThanOneInsertTakesAreWrittenAllTheSame() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            let owner = try #require(try await UserModel.query(on: app.db).first()?.id)
            let entries = (0..<(PlainInsert.rowsPerStatement + 1)).map { entry("Crumb \($0)") }
            try await FluentDiary.insert(entries, owner: owner, on: app.db, now: Date())
            try await FluentDiary.insert([entry("Last crumb")], owner: owner, on: app.db, now: Date())
            let sql = app.db as! any SQLDatabase
            let stored = try await sql.raw("SELECT COUNT(*) AS n FROM diary_entries WHERE user_id = \(bind: owner)").first()?
                .decode(column: "n", as: Int.self)
            #expect(stored == entries.count + 1)
            let all = try await sql.raw("SELECT seq FROM sync_records WHERE owner_id = \(bind: owner) ORDER BY seq").all()
                .map { try $0.decode(column: "seq", as: Int.self) }
            #expect(all == Array(1...all.count))
            let feed = try await sql.raw("SELECT COUNT(*) AS n FROM sync_records WHERE owner_id = \(bind: owner) AND kind = 'diaryEntry'").first()?
                .decode(column: "n", as: Int.self)
            #expect(feed == entries.count + 1)
        }
    }

    /// Writers recording changes of one owner at once, one change or many (more than one insert
    /// takes), each in a transaction of its own (on PostgreSQL each on a connection of its own,
    /// taking turns by the owner's lock, the head read inside the insert): every change gets a
    /// number of its own, the numbers run from 1 without a gap, and each writer's are consecutive.
    /// A change recorded again moves to the head.
    @Test func changesRecordedAtOnceAreNumberedInTurnWithoutGapsOrRepeats() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            let owner = try #require(try await UserModel.query(on: app.db).first()?.id)
            let sizes = [1, 3, 7, 250]
            let batches = (0..<24).map { index in (0..<sizes[index % sizes.count]).map { _ in UUID() } }
            func record(_ ids: [UUID]) async throws {
                try await app.db.write { tx in try await SyncLog.record(.diaryEntry, ids, op: .upsert, owner: owner, on: tx, now: Date()) }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for ids in batches { group.addTask { try await record(ids) } }
                try await group.waitForAll()
            }
            let sql = app.db as! any SQLDatabase
            func numbers() async throws -> [UUID: Int] {
                try await sql.raw("SELECT record_id, seq FROM sync_records WHERE owner_id = \(bind: owner) AND kind = 'diaryEntry'").all()
                    .reduce(into: [UUID: Int]()) { $0[try $1.decode(column: "record_id", as: UUID.self)] = try $1.decode(column: "seq", as: Int.self) }
            }
            func all() async throws -> [Int] {
                try await sql.raw("SELECT seq FROM sync_records WHERE owner_id = \(bind: owner) ORDER BY seq").all()
                    .map { try $0.decode(column: "seq", as: Int.self) }
            }
            let total = batches.map(\.count).reduce(0, +)
            let recorded = try await numbers()
            #expect(recorded.count == total)
            let everything = try await all()
            #expect(everything == Array(1...everything.count), "numbered from 1 without a gap or a repeat")
            for ids in batches {
                let own = ids.compactMap { recorded[$0] }
                #expect(own == Array((own.first ?? 0)..<((own.first ?? 0) + ids.count)), "a writer's \(ids.count) changes in a row, in order")
            }

            // Recorded again: the same rows, numbered after the head.
            let head = everything.count
            try await record(batches[2])
            let again = try await numbers()
            #expect(again.count == total)
            #expect(batches[2].compactMap { again[$0] } == Array((head + 1)...(head + batches[2].count)))
        }
    }

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
    private func expectEmptiedOnlyOnceAWriterIsDone(gate: WriteGate, logBytes: () -> Int,
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
    private func withSQLite(_ body: (Application, String, _ log: @escaping @Sendable (String) async throws -> Void) async throws -> Void) async throws {
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
