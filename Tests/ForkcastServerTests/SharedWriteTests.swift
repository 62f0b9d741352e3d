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
                let repository = DiaryRepository(db: app.db, ownerID: owner, photoStore: app.photoStore)
                group.addTask {
                    do {
                        try await repository.create([entry], now: Date())
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
            let late = DiaryRepository(db: app.db, ownerID: bob, photoStore: app.photoStore)
            do {
                try await late.create([entry("Late")], now: Date())
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
                    let repository = DiaryRepository(db: app.db, ownerID: owner, photoStore: app.photoStore)
                    group.addTask {
                        try await repository.create([entry("Plum \(index)")], now: Date())
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
            let repository = DiaryRepository(db: app.db, ownerID: owner, photoStore: app.photoStore)
            try await repository.create(entries, now: Date())
            try await repository.create([entry("Last crumb")], now: Date())
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

    /// No request's commit copies SQLite's log back into the database file: the writing
    /// connections leave it to ``Checkpointer``, which copies back everything logged.
    @Test func checkpointsRunOnTheirOwnConnectionNotInARequestsCommit() async throws {
        try await withForkcast(allowSignup: true) { app in
            guard let checkpointer = app.checkpointer else {
                #expect((app.db as! any SQLDatabase).dialect.name == "postgresql", "SQLite always has one")
                return
            }
            let sql = app.db as! any SQLDatabase
            let setting = try await sql.raw("PRAGMA wal_autocheckpoint").first()?.decode(column: "wal_autocheckpoint", as: Int.self)
            #expect(setting == 0, "Fluent's connections leave checkpoints to the checkpointer")
            let client = try await app.signUp()
            for n in 0..<40 {
                let logged = try await client.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 100), name: "Snack \(n)"))
                #expect(logged.status == .created)
            }
            #expect(try await checkpointer.checkpoint() == (0, 0), "not started: nothing to ask")
            try await checkpointer.start()
            let (copied, logged) = try await checkpointer.checkpoint()
            #expect(logged > 0 && copied == logged, "every page logged is in the database file")
            await checkpointer.stop()
            #expect(try await client.get("/api/v1/diary?date=\(CalendarDate(Date(), in: .gmt).iso)").status == .ok)
        }
    }

    /// A turn asked for alone (the checkpoint that starts SQLite's log over) is never handed the
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

    /// A reader that holds the log back (a backup's `VACUUM INTO` reads for long) keeps the tick
    /// from taking a turn at the gate: a `RESTART` checkpoint would wait for that reader while every
    /// write waited. Once the reader is done, the next tick starts the log over.
    @Test func aReaderHoldingTheLogBackMakesNoWriterWaitForTheCheckpoint() async throws {
        try await withOwnCheckpointer(restartPages: 1, restartWait: 10_000) { app, checkpointer, _, log in
            let gate = app.writeGate
            for n in 0..<5 { try await log("Before \(n)") }
            let (began, begin) = AsyncStream<Void>.makeStream()
            let (done, finish) = AsyncStream<Void>.makeStream()
            // A connection of its own, as the backup command's process has (a pool connection
            // held this long would hold back the requests of its event loop).
            let path = checkpointer.path
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
            let turns = await gate.transactions
            let held = try await checkpointer.checkpoint()
            #expect(held.copied < held.logged, "the reader kept the newest frames from being copied back")
            #expect(await gate.transactions == turns, "no turn was taken at the gate while the reader held the log")
            finish.yield()
            finish.finish()
            try await reader.value
            let freed = try await checkpointer.checkpoint()
            #expect(freed.copied == freed.logged)
            #expect(await gate.transactions == turns + 1, "with the reader done, the tick took its turn and started the log over")
        }
    }

    /// Under steady writing a `PASSIVE` checkpoint never copies back all of the log (frames arrive
    /// while it copies), so SQLite never started the log over and it grew without end (3.3 GB after
    /// a minute of logging at 8 connections). Past ``Checkpointer/restartPages`` a tick also runs a
    /// `RESTART` checkpoint in a turn of its own at the write gate: here a writer of another
    /// connection commits while the tick runs, and the next entry is logged at the start of the log.
    /// With `restartPages: .max` (a `PASSIVE` tick only, as before) the log only grows and this fails.
    @Test func aLogThatKeepsGrowingIsStartedOverAtTheWriteGate() async throws {
        // restartWait: the other writer below commits 300 ms into the tick, however loaded the machine.
        try await withOwnCheckpointer(restartPages: 1, restartWait: 10_000) { app, checkpointer, client, log in
            for n in 0..<20 { try await log("Snack \(n)") }
            // Another connection (outside the gate, as another process's would) writes while the tick runs.
            let (began, begin) = AsyncStream<Void>.makeStream()
            let writer = Task {
                defer { begin.finish() }  // a writer that failed does not leave the test waiting
                try await app.db.withConnection { connection in
                    let sql = connection as! any SQLDatabase
                    try await sql.raw("PRAGMA busy_timeout = 5000").run()
                    try await sql.raw("CREATE TABLE IF NOT EXISTS scratch (n INTEGER)").run()
                    try await sql.raw("BEGIN IMMEDIATE").run()
                    do {
                        try await sql.raw("INSERT INTO scratch VALUES (1)").run()
                        begin.yield()
                        try await Task.sleep(for: .milliseconds(300))
                        try await sql.raw("COMMIT").run()
                    } catch {
                        try? await sql.raw("ROLLBACK").run()
                        throw error
                    }
                }
            }
            var writing = false
            for await _ in began { writing = true; break }
            guard writing else {
                try await writer.value
                Issue.record("the other writer did not begin")
                return
            }
            let first = try await checkpointer.checkpoint()
            try await writer.value
            #expect(first.logged > 0 && first.copied == first.logged, "everything logged, the other writer's commit included, is in the database file")
            try await log("After the tick")
            let second = try await checkpointer.checkpoint()
            #expect(second.logged < first.logged, "the log started over: it holds only what came after the tick (\(second.logged) pages, \(first.logged) before)")
            await checkpointer.stop()
            let day = try await client.get("/api/v1/diary?date=\(CalendarDate(Date(), in: .gmt).iso)").json(DiaryDayAnswer.self)
            #expect(day.entries.flatMap(\.entries).count == 21, "nothing logged was lost")
        }
    }

    /// After a `RESTART`, SQLite reports the frames the log held until the next commit writes it from
    /// its start: an idle server whose log was last started over took a turn at the gate on every
    /// tick (once a second) to start an empty log over again. Now a tick that finds the very count
    /// the last `RESTART` left takes no turn; the first commit after it makes the next tick take one.
    /// Before, the second tick below took a turn and this failed.
    @Test func aLogStartedOverTakesNoTurnAtTheGateUntilSomethingIsCommitted() async throws {
        try await withOwnCheckpointer(restartPages: 1) { app, checkpointer, _, log in
            let gate = app.writeGate
            for n in 0..<5 { try await log("Snack \(n)") }
            let before = await gate.transactions
            let first = try await checkpointer.checkpoint()
            #expect(first.logged > 1 && first.copied == first.logged)
            #expect(await gate.transactions == before + 1, "the log was started over in a turn of its own")
            for _ in 0..<3 {
                let again = try await checkpointer.checkpoint()
                #expect(again.logged == first.logged, "SQLite still reports the old count")
                #expect(await gate.transactions == before + 1, "nothing was committed since: no turn at the gate")
            }
            try await log("After")
            let logged = await gate.transactions
            let after = try await checkpointer.checkpoint()
            #expect(after.copied == after.logged && after.logged != first.logged)
            #expect(await gate.transactions == logged + 1, "a commit since: the log is started over again")
        }
    }

    /// Housekeeping's hourly `TRUNCATE` checkpoint (and its first, five seconds after start-up)
    /// takes a turn of its own at the write gate, as a tick's `RESTART` does. Run beside the gate,
    /// it waited for SQLite's lock in the busy handler while every writer waited behind it (the
    /// first round of logging after a start measured a p99 two to three times the others). Here a
    /// writer holds the gate: the log is not emptied until that writer is done. Before, the
    /// statement ran at once and this failed.
    @Test func housekeepingEmptiesTheLogInATurnOfItsOwnAtTheWriteGate() async throws {
        try await withOwnCheckpointer { app, checkpointer, _, log in
            let gate = app.writeGate
            for n in 0..<5 { try await log("Snack \(n)") }
            func logBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: checkpointer.path + "-wal"))?[.size] as? Int) ?? -1 }
            #expect(logBytes() > 0)
            try await expectEmptiedOnlyOnceAWriterIsDone(gate: gate, logBytes: logBytes) { try await checkpointer.truncate(turnWait: .seconds(30)) }
            // Housekeeping asks the running checkpointer, and writes the planner's statistics at the gate.
            try await log("After")
            #expect(logBytes() > 0)
            try await Housekeeping.run(on: app.db, now: Date(), checkpointer: checkpointer)
            #expect(logBytes() == 0)
            #expect(try await (app.db as! any SQLDatabase).raw("SELECT COUNT(*) AS n FROM sqlite_stat1").first()?.decode(column: "n", as: Int.self) ?? 0 > 0)
            await checkpointer.stop()
            #expect(try await checkpointer.truncate() == false, "stopped")
        }
    }

    /// Deleting an account empties the log (the account's pages as they were) in a turn of its own
    /// at the write gate, after the deletion's write, as housekeeping does: run as a plain statement
    /// beside the gate, it held SQLite's lock while it waited up to the busy timeout (5 s) for a
    /// reader, and every writer waited behind it. The test's application runs no checkpointer, so
    /// this is the statement on a connection of the pool taking its turn; with one running, the
    /// checkpointer's own turn (the test above). Before, the deletion took one turn and the
    /// statement ran beside the gate at once, and this failed.
    @Test func deletingAnAccountEmptiesTheLogInATurnOfItsOwnAtTheWriteGate() async throws {
        try await withForkcast(allowSignup: true) { app in
            guard let path = app.checkpointer?.path else {
                #expect((app.db as! any SQLDatabase).dialect.name == "postgresql", "SQLite always has one")
                return
            }
            #expect(app.checkpointer?.isRunning == false, "a test's application starts no checkpointer")
            let gate = app.writeGate
            func logBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? -1 }
            func logSnacks(_ client: Client) async throws {
                for n in 0..<3 {
                    let logged = try await client.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 100), name: "Snack \(n)"))
                    #expect(logged.status == .created)
                }
            }
            let ana = try await app.signUp("ana@example.com")
            try await logSnacks(ana)
            #expect(logBytes() > 0)
            // What both the API's and the Settings page's deletion call, once the person confirmed it.
            let user = try #require(try await UserModel.query(on: app.db).filter(\.$email == "ana@example.com").first())
            let data = AccountData(user: user, db: app.db, photoStore: app.photoStore, now: Date())
            let turns = await gate.transactions
            try await data.deleteAccount(readCache: app.readCache, checkpointer: app.checkpointer)
            let taken = await gate.transactions - turns
            #expect(taken == 2, "\(taken) turns: the deletion's write, then a turn of its own to empty the log")
            #expect(try await ana.get("/api/v1/me").status == .unauthorized, "deleted")
            #expect(logBytes() == 0, "the log holds none of the deleted account's pages")

            // While a writer holds the gate, the log is not emptied; once it is done, it is.
            let bob = try await app.signUp("bob@example.com")
            try await logSnacks(bob)
            let sql = app.db as! any SQLDatabase, logger = app.logger
            try await expectEmptiedOnlyOnceAWriterIsDone(gate: gate, logBytes: logBytes) {
                try await Checkpointer.emptyLog(nil, on: sql, gate: gate, turnWait: .seconds(30), logger: logger)
            }
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

    /// Stopping waits for a tick under way: here one waits for its turn at the gate to start the log
    /// over (a writer holds the gate), and `stop()` returns only once that tick has had its turn.
    /// Before, `stop()` cancelled a repeated task, which returns at once, and closed the connection
    /// under the waiting tick. The entries are logged before the ticking checkpointer starts: one
    /// ticking meanwhile could start the log over after the last of them, and then (nothing
    /// committed since) take no turn at all (this test failed one run in three so).
    @Test func stoppingWaitsForATickUnderWay() async throws {
        try await withOwnCheckpointer { app, idle, _, log in
            let gate = app.writeGate
            for n in 0..<5 { try await log("Snack \(n)") }
            await idle.stop()
            let checkpointer = Checkpointer(path: idle.path, interval: .milliseconds(20), restartPages: 1, gate: gate, logger: app.logger)
            guard case .lead? = await gate.acquire(timeout: .seconds(10)) else { Issue.record("the gate gives the writer the lead"); return }
            try await checkpointer.start()
            let deadline = Date().addingTimeInterval(10)
            while await gate.waiting == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(await gate.waiting == 1, "a tick waits for its turn to start the log over")
            let stopped = NIOLockedValueBox(false)
            let stopping = Task {
                await checkpointer.stop()
                stopped.withLockedValue { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(stopped.withLockedValue { $0 } == false, "stop() waits for the tick under way")
            let turns = await gate.transactions
            await gate.release()
            await stopping.value
            #expect(await gate.transactions == turns + 2, "the writer's turn ended, then the tick's")
            #expect(checkpointer.isRunning == false)
        }
    }

    /// Ticks come every `interval` while the log changes, and back off to `idleInterval` while it
    /// does not (an idle server ticked every 50 ms at 0.7 % of a core, once a second at 0.05 %).
    @Test func checkpointsTickOftenWhileTheLogGrowsAndSeldomWhenItDoesNot() {
        let fast = TimeAmount.milliseconds(50), idle = TimeAmount.seconds(1)
        #expect(Checkpointer.nextWait(after: fast, logged: 100, now: 140, interval: fast, idleInterval: idle) == fast)
        #expect(Checkpointer.nextWait(after: idle, logged: 16_400, now: 12, interval: fast, idleInterval: idle) == fast, "started over: it changed")
        var wait = fast
        var waits: [TimeAmount] = []
        for _ in 0..<6 {
            wait = Checkpointer.nextWait(after: wait, logged: 140, now: 140, interval: fast, idleInterval: idle)
            waits.append(wait)
        }
        #expect(waits == [TimeAmount.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), idle, idle])
        #expect(Checkpointer.nextWait(after: idle, logged: 140, now: 141, interval: fast, idleInterval: idle) == fast, "one commit: back to the short wait")
    }

    /// An application on SQLite with a checkpointer of the test's own, started, that ticks only when
    /// asked (an hour apart, unless `interval` says otherwise), a person signed up and how to log a snack as them; on PostgreSQL, which
    /// checkpoints nothing, `body` does not run.
    private func withOwnCheckpointer(interval: TimeAmount = .hours(1), restartPages: Int = 16_384, restartWait: Int = 100,
                                     _ body: (Application, Checkpointer, Client, _ log: (String) async throws -> Void) async throws -> Void) async throws {
        try await withForkcast(allowSignup: true) { app in
            guard let path = app.checkpointer?.path else {
                #expect((app.db as! any SQLDatabase).dialect.name == "postgresql", "SQLite always has one")
                return
            }
            let checkpointer = Checkpointer(path: path, interval: interval, restartPages: restartPages, restartWait: restartWait,
                                            gate: app.writeGate, logger: app.logger)
            try await checkpointer.start()
            let client = try await app.signUp()
            func log(_ name: String) async throws {
                let logged = try await client.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 100), name: name))
                #expect(logged.status == .created)
            }
            do {
                try await body(app, checkpointer, client, log)
            } catch {
                await checkpointer.stop()
                throw error
            }
            await checkpointer.stop()
        }
    }
}
