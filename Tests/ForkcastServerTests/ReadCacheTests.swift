import FluentKit
import ForkcastApp
@testable import ForkcastServer
import Foundation
import SQLKit
import Testing
import VaporTesting

/// The week view, a diary day and food search answer from memory while nothing of the person
/// changed (docs/performance.md). Each test proves a kept answer gives way the moment something changes.
@Suite("Kept answers") struct ReadCacheTests {
    @Test func aRepeatedReadIsKeptAndAnyChangeOfThePersonReplacesIt() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock()) { app in
            let client = try await app.signUp()
            let stranger = try await app.signUp("stranger@example.com")
            #expect(try await client.createFood(FoodsAPITests.oats).status == .created)

            let first = try await client.get("/api/v1/foods?q=oat")
            let hitsBefore = app.readCache.statistics.hits
            let again = try await client.get("/api/v1/foods?q=oat")
            #expect(again.body.string == first.body.string)
            #expect(again.headers.contentType == first.headers.contentType)
            #expect(app.readCache.statistics.hits == hitsBefore + 1)
            // Another person asking the same question gets their own answer.
            #expect(try await stranger.get("/api/v1/foods?q=oat").body.string.contains("Rolled oats") == false)

            // A new food through the API is found at once.
            var milk = FoodsAPITests.oats
            milk["name"] = "Oat milk"
            milk["barcode"] = nil
            #expect(try await client.createFood(milk).status == .created)
            #expect(try await client.get("/api/v1/foods?q=oat").body.string.contains("Oat milk"))

            // A change made through a use case directly (no request of this client): the kept
            // answer follows the database, not the requests this process happened to see.
            let user = try #require(try await UserModel.query(on: app.db).filter(\.$emailKey == "owner@example.com").first())
            try await UpdateSettings(store: FluentSettingsStore(user: user, db: app.db), now: Date())(displayName: nil, timeZone: nil, currency: "USD")
            let inDollars = try await client.get("/api/v1/foods?q=oat").body.string
            #expect(inDollars.contains("\"USD\"") && !inDollars.contains("\"EUR\""))
        }
    }

    @Test func theDiaryDayAndTheWeekShowWritesAtOnceAndFollowTheDay() async throws {
        let clock = TestClock()  // 2026-11-21T12:00Z
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let oats = try await client.createFood(FoodsAPITests.oats).json(IDOnly.self).id

            let emptyDay = try await client.get("/api/v1/diary?date=2026-11-21").body.string
            _ = try await client.get("/api/v1/diary?date=2026-11-21")
            let logged = try await client.send(.POST, "/api/v1/diary/entries", raw: """
                {"foodId":"\(oats)","quantity":40,"unit":"g","mealType":"breakfast"}
                """)
            #expect(logged.status == .created)
            let day = try await client.get("/api/v1/diary?date=2026-11-21").body.string
            #expect(day != emptyDay)
            #expect(day.contains("Rolled oats"))

            let meal = try await client.send(.POST, "/api/v1/meals", raw: """
                {"description":"Porridge with apples","ingredients":[{"foodId":"\(oats)","quantity":80,"unit":"g"}]}
                """).json(IDOnly.self).id
            let before = try await client.get("/api/v1/plan?start=2026-11-16&days=7")
            #expect(!before.body.string.contains("Porridge with apples"))
            #expect(try await client.send(.POST, "/api/v1/plan/assignments", raw: """
                {"mealId":"\(meal)","date":"2026-11-20","mealType":"dinner"}
                """).status == .created)
            #expect(try await client.get("/api/v1/plan?start=2026-11-16&days=7").body.string.contains("Porridge with apples"))

            // The same week asked the next day names the new today.
            struct Week: Decodable { var today: String }
            #expect(try await client.get("/api/v1/plan?start=2026-11-16&days=7").json(Week.self).today == "2026-11-21")
            clock.advance(by: 86_400)
            #expect(try await client.get("/api/v1/plan?start=2026-11-16&days=7").json(Week.self).today == "2026-11-22")
        }
    }

    @Test func badInputIsRefusedBeforeAnythingIsKept() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            #expect(try await client.get("/api/v1/plan?days=0").status == .badRequest)
            #expect(try await client.get("/api/v1/diary?date=yesterday").status == .badRequest)
            #expect(try await client.get("/api/v1/foods?q=oat&page=9223372036854775807").status == .badRequest)
            #expect(app.readCache.statistics.entries == 0)
        }
    }

    @Test func memoryStaysWithinItsBudget() async throws {
        try await withForkcast(adjust: { $0.readCacheBytes = 64 << 10 }) { app in
            let client = try await app.signUp()
            for day in 1...28 {
                let date = String(format: "2026-02-%02d", day)
                #expect(try await client.get("/api/v1/plan?start=\(date)&days=7").status == .ok)
            }
            let statistics = app.readCache.statistics
            #expect(statistics.bytes <= 64 << 10)
            #expect(statistics.entries > 0 && statistics.entries < 28, "\(statistics)")
        }
    }

    /// The token's read: tokens of several people take turns, each signs in its own person, and a
    /// token revoked or deleted by another connection stops working at once.
    @Test func theTokenReadFollowsTheDatabase() async throws {
        try await withForkcast(allowSignup: true, clock: TestClock()) { app in
            let owner = try await app.signUp()
            let stranger = try await app.signUp("stranger@example.com")
            let other = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "owner@example.com", "password": "correct horse"])
            let second = Client(app: app, token: try other.json(TestSession.self).token)
            #expect(try await owner.createFood(FoodsAPITests.oats).status == .created)

            for _ in 0..<3 {
                for (client, sees) in [(owner, true), (stranger, false), (second, true)] {
                    let found = try await client.get("/api/v1/foods?q=oat")
                    #expect(found.status == .ok)
                    #expect(found.body.string.contains("Rolled oats") == sees)
                }
            }
            // The query answers the user as stored, with the feed head and (for a write) the versions.
            for writes in [false, true] {
                let hash = Tokens.hash(try #require(owner.token))
                let row = try #require(try await BearerAuthenticator.row(hash: hash, writes: writes, on: app.db)
                    .map { try BearerAuthenticator.Found($0, writes: writes) })
                let stored = try #require(try await UserModel.query(on: app.db).filter(\.$emailKey == "owner@example.com").first())
                #expect(row.user.id == stored.id && row.user.$id.exists)
                #expect(!row.user.hasChanges, "read as stored: a later save writes only what it changes")
                #expect(row.user.emailKey == stored.emailKey && row.user.timeZone == stored.timeZone && row.user.currency == stored.currency)
                #expect(row.user.passwordHash == stored.passwordHash && row.user.displayName == stored.displayName)
                #expect(row.feedHead > 0)
                #expect((row.versions != nil) == writes)
            }

            // Signed out: the token is gone for the very next request.
            #expect(try await second.send(.POST, "/api/v1/auth/logout").status == .noContent)
            #expect(try await second.get("/api/v1/foods?q=oat").status == .unauthorized)
            // Deleted through Fluent's own connections: the same.
            try await TokenModel.query(on: app.db).filter(\.$tokenHash == Tokens.hash(try #require(stranger.token))).delete()
            #expect(try await stranger.get("/api/v1/foods?q=oat").status == .unauthorized)
            #expect(try await owner.get("/api/v1/foods?q=oat").status == .ok)
        }
    }
}
