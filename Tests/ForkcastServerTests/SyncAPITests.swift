import AsyncHTTPClient
@testable import ForkcastServer
import ForkcastCore
import SQLKit
import Foundation
import NIOConcurrencyHelpers
import Testing
import VaporTesting

/// The change feed and the push, against a real database (SQLite here, PostgreSQL in CI).
@Suite("Sync API")
struct SyncAPITests {
    struct Feed: Decodable {
        var changes: [Change]
        var cursor: String
        var hasMore: Bool
        struct Change: Decodable { var kind: String; var id: UUID; var op: String; var updatedAt: Date; var record: Record? }
        struct Record: Decodable { var id: UUID?; var description: String?; var name: String?; var date: String?; var mealId: UUID? }
    }

    struct PushResult: Decodable {
        var results: [Result]
        var cursor: String
        struct Result: Decodable, Equatable {
            var mutationId: String; var status: String; var record: Feed.Record?; var problem: Problem?
            static func == (a: Result, b: Result) -> Bool { a.mutationId == b.mutationId && a.status == b.status && a.problem?.status == b.problem?.status }
        }
        struct Problem: Decodable { var status: Int; var detail: String; var errors: [TestProblem.Field]? }
    }

    func feed(_ client: Client, since: String? = nil, limit: Int? = nil) async throws -> Feed {
        var query: [String] = []
        if let since { query.append("since=\(since)") }
        if let limit { query.append("limit=\(limit)") }
        let response = try await client.get("/api/v1/sync/changes" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()
    }

    func push(_ client: Client, device: String = "phone", sentAt: Date? = nil, _ mutations: [[String: Any]]) async throws -> PushResult {
        var fields: [String: Any] = ["deviceId": device, "mutations": mutations]
        if let sentAt { fields["sentAt"] = iso(sentAt) }
        let body = try JSONSerialization.data(withJSONObject: fields)
        let response = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()
    }

    func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    @Test func changesThroughTheAPIShowUpInTheFeedInOrder() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let start = try await feed(client)
            #expect(start.changes.map(\.kind) == ["settings"] + Array(repeating: "mealType", count: 7), "a new account starts with its settings and meal types")
            let soup = try await client.createMeal("Lentil soup", protein: "Lentils")
            let assignment = try await client.assign(soup.id, on: "2026-11-23").json(IDOnly.self)
            let all = try await feed(client)
            #expect(all.changes.map(\.kind).filter { $0 != "mealType" } == ["settings", "meal", "assignment"])
            #expect(all.changes[8].record?.description == "Lentil soup", "the record in the shape GET /meals/{id} answers")
            #expect(all.changes[9].record?.mealId == soup.id)
            let later = try await feed(client, since: all.cursor)
            #expect(later.changes.isEmpty && later.cursor == all.cursor)
            // Deleting the meal deletes its assignment: both leave tombstones.
            #expect(try await client.send(.DELETE, "/api/v1/meals/\(soup.id)").status == .noContent)
            let deletes = try await feed(client, since: all.cursor)
            #expect(Set(deletes.changes.map { "\($0.kind) \($0.op)" }) == ["meal delete", "assignment delete"])
            #expect(deletes.changes.allSatisfy { $0.record == nil })
            #expect(Set(deletes.changes.map(\.id)) == [soup.id, assignment.id])
        }
    }

    @Test func theFeedIsPaged() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            for i in 0..<7 { _ = try await client.createMeal("Meal \(i)") }
            var cursor: String?
            var seen: [UUID] = []
            var pages = 0
            repeat {
                let page = try await feed(client, since: cursor, limit: 3)
                seen += page.changes.map(\.id)
                cursor = page.cursor
                pages += 1
                if !page.hasMore { break }
            } while pages < 10
            #expect(pages == 5 && seen.count == 15, "settings, the 7 meal types and 7 meals, 3 a page")
            #expect(try await client.get("/api/v1/sync/changes?since=bogus").status == .badRequest)
            #expect(try await client.get("/api/v1/sync/changes?limit=0").status == .badRequest)
        }
    }

    @Test func lastWriteWinsAndDeletesFollowTheSameRule() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let id = UUID()
            let t0 = clock.now
            let created = try await push(client, [["mutationId": "m1", "kind": "meal", "id": id.uuidString, "op": "upsert",
                                                   "updatedAt": iso(t0), "record": ["description": "Pho"]]])
            #expect(created.results.map(\.status) == ["applied"])
            #expect(try await client.get("/api/v1/meals/\(id)").json(TestMeal.self).description == "Pho")
            // An older edit from another device loses and gets the server's record back.
            let older = try await push(client, device: "tablet", [["mutationId": "m2", "kind": "meal", "id": id.uuidString, "op": "upsert",
                                                                   "updatedAt": iso(t0.addingTimeInterval(-60)), "record": ["description": "Old pho"]]])
            #expect(older.results[0].status == "superseded")
            #expect(older.results[0].record?.description == "Pho")
            // A newer delete wins; an older update after it does not bring the meal back.
            clock.advance(by: 10)
            let deleted = try await push(client, device: "tablet", [["mutationId": "m3", "kind": "meal", "id": id.uuidString, "op": "delete",
                                                                     "updatedAt": iso(clock.now)]])
            #expect(deleted.results[0].status == "applied")
            #expect(try await client.get("/api/v1/meals/\(id)").status == .notFound)
            let stale = try await push(client, [["mutationId": "m4", "kind": "meal", "id": id.uuidString, "op": "upsert",
                                                 "updatedAt": iso(t0.addingTimeInterval(5)), "record": ["description": "Pho again"]]])
            #expect(stale.results[0].status == "superseded" && stale.results[0].record == nil, "the tombstone wins")
            // Sending a batch again answers the same and changes nothing.
            let before = try await feed(client)
            let again = try await push(client, [["mutationId": "m1", "kind": "meal", "id": id.uuidString, "op": "upsert",
                                                 "updatedAt": iso(t0), "record": ["description": "Pho"]]])
            #expect(again.results == created.results)
            #expect(try await feed(client).cursor == before.cursor)
        }
    }

    @Test func tombstonesAreKeptNinetyDaysThenOldCursorsPullEverything() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock, adjust: { $0.tokenLifetime = 365 * 86_400 }) { app in
            let client = try await app.signUp()
            let old = try await feed(client).cursor
            let soup = try await client.createMeal("Soup")
            #expect(try await client.send(.DELETE, "/api/v1/meals/\(soup.id)").status == .noContent)
            clock.advance(by: 89 * 86_400)
            #expect(try await Housekeeping.pruneTombstones(on: app.db, now: clock.now) == 0)
            #expect(try await feed(client, since: old).changes.map(\.op) == ["delete"], "within 90 days the deletion is there")
            clock.advance(by: 2 * 86_400)
            #expect(try await Housekeeping.pruneTombstones(on: app.db, now: clock.now) == 1)
            let gone = try await client.get("/api/v1/sync/changes?since=\(old)")
            #expect(gone.status == .gone)
            let everything = try await feed(client)
            #expect(everything.changes.map(\.kind).filter { $0 != "mealType" } == ["settings"], "a full pull has no tombstone and no soup")
            #expect(try await client.get("/api/v1/sync/changes?since=\(everything.cursor)").status == .ok)
            // The forgotten deletion was the newest change: the next change still gets a newer
            // number than it, so a device that pulled everything hears about it.
            let bread = try await client.createMeal("Bread")
            #expect(try await feed(client, since: everything.cursor).changes.map(\.id) == [bread.id])
        }
    }

    /// A cursor past the account's newest change was never handed to it (a restored backup, a
    /// tampered client): it is answered 410 like a forgotten one, not an empty page to wait on.
    @Test func aCursorAheadOfTheAccountsChangesPullsEverything() async throws {
        try await withForkcast(allowSignup: true) { app in
            let ana = try await app.signUp("ana@example.com")
            let bob = try await app.signUp("bob@example.com")
            _ = try await ana.createMeal("Soup")
            let head = try await feed(ana).cursor
            #expect(try await ana.get("/api/v1/sync/changes?since=\(head)").status == .ok, "the newest cursor is fine")
            let seq = try #require(Int(head.dropFirst()))
            for ahead in ["c\(seq + 1)", "c\(seq + 5000)", "c9223372036854775807"] {
                let answer = try await ana.get("/api/v1/sync/changes?since=\(ahead)")
                #expect(answer.status == .gone, "\(ahead): \(answer.status)")
                #expect(answer.problem?.detail.contains("Pull everything again") == true)
            }
            // Another account's newer numbers are not this one's cursors.
            for n in 0..<3 { _ = try await bob.createMeal("Bread \(n)") }
            let bobs = try await feed(bob).cursor
            #expect(try await ana.get("/api/v1/sync/changes?since=\(bobs)").status == .gone)
            // Signed in on the web (no head read with a token), the same cursors get the same answers.
            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            #expect(try await browser.send(.GET, "/api/v1/sync/changes?since=\(head)").status == .ok)
            for ahead in ["c\(seq + 1)", bobs] {
                #expect(try await browser.send(.GET, "/api/v1/sync/changes?since=\(ahead)").status == .gone, "\(ahead) on the web")
            }
            // A new change moves the head on, and the cursor it gives reads on.
            _ = try await ana.createMeal("Stew")
            let next = try await feed(ana, since: head)
            #expect(next.changes.count == 1 && next.cursor != head)
            #expect(try await ana.get("/api/v1/sync/changes?since=\(next.cursor)").status == .ok)
        }
    }

    @Test func aClockFarAheadCannotWinForever() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let id = UUID()
            _ = try await push(client, device: "broken-clock", [["mutationId": "a", "kind": "meal", "id": id.uuidString, "op": "upsert",
                                                                 "updatedAt": "2150-01-01T00:00:00Z", "record": ["description": "From the future"]]])
            let change = try #require(try await feed(client).changes.last)
            #expect(change.updatedAt <= clock.now, "no change is later than its receipt")
            clock.advance(by: 1)
            let fixed = try await push(client, [["mutationId": "b", "kind": "meal", "id": id.uuidString, "op": "upsert",
                                                 "updatedAt": iso(clock.now), "record": ["description": "Now"]]])
            #expect(fixed.results[0].status == "applied")
        }
    }

    @Test func aClockTwoMinutesFastLosesToAnEditMadeAfterIt() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            let meal = try await client.createMeal("Soup")
            // The phone, two minutes fast, edits at real time t; the laptop, honest, edits at t + 30 s
            // and pushes first; the phone pushes at t + 60 s (its clock reads t + 180 s).
            let t = clock.now
            clock.advance(by: 30)
            let honest = try await push(client, device: "laptop", sentAt: clock.now, [["mutationId": "l1", "kind": "meal", "id": meal.id.uuidString, "op": "upsert",
                                                                                       "updatedAt": iso(clock.now), "record": ["description": "Lentil soup"]]])
            #expect(honest.results[0].status == "applied")
            clock.advance(by: 30)
            let fast = try await push(client, device: "phone", sentAt: clock.now.addingTimeInterval(120), [["mutationId": "p1", "kind": "meal", "id": meal.id.uuidString,
                                                                                                           "op": "upsert", "updatedAt": iso(t.addingTimeInterval(120)),
                                                                                                           "record": ["description": "Pea soup"]]])
            #expect(fast.results[0].status == "superseded", "the phone's edit was made before the laptop's")
            #expect(try await client.get("/api/v1/meals/\(meal.id)").json(Feed.Record.self).description == "Lentil soup")
            // A later edit on the fast phone still wins, read on the server's clock.
            clock.advance(by: 10)
            let later = try await push(client, device: "phone", sentAt: clock.now.addingTimeInterval(120), [["mutationId": "p2", "kind": "meal", "id": meal.id.uuidString,
                                                                                                            "op": "upsert", "updatedAt": iso(clock.now.addingTimeInterval(115)),
                                                                                                            "record": ["description": "Pea soup"]]])
            #expect(later.results[0].status == "applied")
            let stamped = try #require(try await feed(client).changes.last)
            #expect(abs(stamped.updatedAt.timeIntervalSince(clock.now.addingTimeInterval(-5))) < 1.5, "stored on the server's clock")
        }
    }

    @Test func absurdDeviceClocksAreAnsweredNotStorageErrors() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            // The furthest clocks the API reads (years 1900 to 2200) are applied, stored on both
            // databases; beyond them the push is a 422 naming sentAt, never a storage error.
            for (index, (sentAt, updatedAt)) in [("2200-12-31T23:59:59Z", "2026-11-24T08:00:00Z"), ("2200-12-31T23:59:59Z", "1900-01-01T00:00:00Z"),
                                                 ("1900-01-01T00:00:00Z", "2200-12-31T23:59:59Z")].enumerated() {
                let body = try JSONSerialization.data(withJSONObject: ["deviceId": "broken", "sentAt": sentAt, "mutations": [
                    ["mutationId": "m\(index)", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": updatedAt, "record": ["description": "Soup \(index)"]],
                ]])
                let response = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
                #expect(response.status == .ok, "\(sentAt) / \(updatedAt): \(response.body.string)")
                #expect(try response.json(PushResult.self).results.first?.status == "applied")
            }
            let body = try JSONSerialization.data(withJSONObject: ["deviceId": "broken", "sentAt": "9999-12-31T23:59:59Z", "mutations": [
                ["mutationId": "far", "kind": "meal", "id": UUID().uuidString, "op": "upsert", "updatedAt": "2026-11-24T08:00:00Z", "record": ["description": "Far"]],
            ]])
            let far = try await client.send(.POST, "/api/v1/sync/push", raw: String(decoding: body, as: UTF8.self))
            #expect(far.status == .unprocessableEntity && far.problem?.message(for: "sentAt") != nil, "\(far.body.string)")
            #expect(try await feed(client).changes.filter { $0.kind == "meal" }.count == 3)
        }
    }

}
