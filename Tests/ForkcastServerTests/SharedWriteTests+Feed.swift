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
}
