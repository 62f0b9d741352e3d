import FluentKit
import FluentPostgresDriver
@testable import ForkcastServer
import Foundation
import NIOConcurrencyHelpers
import Testing
import VaporTesting

private func json(_ response: TestingHTTPResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
}

/// Requests that need the token read while one is in flight share the next one
/// (``SharedQuery``, PostgreSQL's ``BearerStatement``): each answered with its own row, and
/// only by a read sent after it arrived.
@Suite("Shared queries") struct SharedQueryTests {
    /// A fetch that records what it was asked and, while `held`, waits before answering.
    final class Recorder: Sendable {
        private let state = NIOLockedValueBox((asked: [[String]](), held: true))
        var asked: [[String]] { state.withLockedValue { $0.asked } }
        func release() { state.withLockedValue { $0.held = false } }

        /// Answers each key with "<key>@<number of this query>", except keys starting with "none".
        func fetch(_ keys: [String]) async throws -> [String: String] {
            let number = state.withLockedValue { state in state.asked.append(keys); return state.asked.count }
            while state.withLockedValue({ $0.held }) { try await Task.sleep(for: .milliseconds(5)) }
            if keys.contains("fail") { throw Failed() }
            return Dictionary(uniqueKeysWithValues: keys.filter { !$0.hasPrefix("none") }.map { ($0, "\($0)@\(number)") })
        }

        struct Failed: Error {}
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            #expect(Date() < deadline, "waited 10 s")
            if Date() >= deadline { return }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func whoArrivesWhileAQueryIsInFlightSharesTheNextOneAndIsAnsweredByItAlone() async throws {
        let recorder = Recorder()
        let shared = SharedQuery<String, String, Int>(lanes: 1) { keys, _ in try await recorder.fetch(keys) }
        async let first = shared.value(for: "a", context: 0)
        try await waitUntil { recorder.asked.count == 1 }
        // Eleven requests arrive while the first read is in flight, "a" among them again.
        let keys = ["a", "b", "c", "b", "d", "none-1", "e", "f", "a", "g", "h"]
        let answers = Task {
            try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for (index, key) in keys.enumerated() { group.addTask { (index, try await shared.value(for: key, context: index)) } }
                var answers = [Int: String?]()
                for try await (index, answer) in group { answers[index] = answer }
                return answers
            }
        }
        try await waitUntil { shared.statistics.waiting == keys.count }
        recorder.release()
        #expect(try await first == "a@1")
        let got = try await answers.value
        // One more read, for each key once; every request gets its own key's value from it, the
        // second "a" too (the first read was sent before it arrived).
        #expect(recorder.asked.count == 2)
        #expect(recorder.asked[1].sorted() == Set(keys).sorted())
        for (index, key) in keys.enumerated() {
            #expect(got[index] == (key.hasPrefix("none") ? .some(nil) : .some("\(key)@2")), "\(key)")
        }
        #expect(shared.statistics == .init(queries: 2, answered: 12, waiting: 0))
    }

    @Test func aFailedReadFailsTheRequestsThatSharedItAndTheNextReadIsSentAfresh() async throws {
        let recorder = Recorder()
        let shared = SharedQuery<String, String, Int>(lanes: 1) { keys, _ in try await recorder.fetch(keys) }
        async let first = shared.value(for: "a", context: 0)
        try await waitUntil { recorder.asked.count == 1 }
        let failing = Task { try await shared.value(for: "fail", context: 1) }
        let sharing = Task { try await shared.value(for: "b", context: 2) }
        try await waitUntil { shared.statistics.waiting == 2 }
        recorder.release()
        #expect(try await first == "a@1")
        let failed = await failing.result, shared2 = await sharing.result
        #expect(throws: Recorder.Failed.self) { try failed.get() }
        #expect(throws: Recorder.Failed.self) { try shared2.get() }
        // The lane was given back: the next request asks at once.
        #expect(try await shared.value(for: "b", context: 3) == "b@3")
        #expect(shared.statistics.waiting == 0)
    }

    @Test func withALaneFreeARequestAsksAtOnce() async throws {
        let recorder = Recorder()
        recorder.release()
        let shared = SharedQuery<String, String, Int>(lanes: 2) { keys, _ in try await recorder.fetch(keys) }
        for number in 1...5 { #expect(try await shared.value(for: "k", context: number) == "k@\(number)") }
        #expect(recorder.asked == Array(repeating: ["k"], count: 5))
    }

    /// PostgreSQL's statement for several tokens at once (`= ANY($1)`): each token's own row, in
    /// its own columns, and nothing for a token nobody has.
    @Test(.enabled(if: TestDatabase.postgresURL != nil, "PostgreSQL only: SQLite reads each token alone"))
    func severalTokensReadTogetherAreEachAnsweredWithTheirOwnRow() async throws {
        try await withForkcast(allowSignup: true) { app in
            let emails = ["first@example.com", "second@example.com"]
            var hashes = [String]()
            for email in emails { hashes.append(Tokens.hash(try #require(try await app.signUp(email).token))) }
            let source = BearerStatement.Shared.Source(db: try #require(app.db as? any PostgresDatabase), logger: app.logger)
            for writes in [false, true] {
                // One lane: while the first read is in flight the other three wait and are asked for together.
                let shared = BearerStatement.Shared(lanes: 1)
                let query = writes ? shared.writes : shared.reads
                var sharedOnce = false
                for _ in 0..<20 where !sharedOnce {
                    let before = query.statistics
                    let asked = hashes + [Tokens.hash("nobody's token"), hashes[0]]
                    let rows = try await withThrowingTaskGroup(of: (Int, BearerStatement.Columns?).self) { group in
                        for (index, hash) in asked.enumerated() { group.addTask { (index, try await query.value(for: hash, context: source)) } }
                        var rows = [Int: BearerStatement.Columns?]()
                        for try await (index, row) in group { rows[index] = row }
                        return rows
                    }
                    for (index, email) in (emails + [nil, emails[0]]).enumerated() {
                        let row = try #require(rows[index])
                        #expect(row?.email == email, "\(writes ? "write" : "read") \(index)")
                        if let row {
                            #expect(row.feedHead > 0)
                            #expect((row.versions != nil) == writes)
                            let found = try row.found()
                            #expect(found.user.email == email && !found.user.hasChanges)
                        }
                    }
                    let after = query.statistics
                    // Four requests in two reads or one: one read asked for two tokens or more.
                    sharedOnce = after.queries - before.queries <= 2
                }
                #expect(sharedOnce, "the tokens were read together at least once in 20 tries")
            }
        }
    }

    /// The token read the server runs (on PostgreSQL, shared): many people's requests at once, each
    /// signed in as its own person; and a change followed by a read, with everyone else reading
    /// meanwhile, reads the change.
    @Test func manyPeopleAtOnceAreEachSignedInAsThemselvesAndReadTheirOwnWrites() async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-21T08:30:00Z")!)
        try await withForkcast(allowSignup: true, clock: clock) { app in
            var clients = [(email: String, client: Client)]()
            for number in 0..<12 {
                let email = "person\(number)@example.com"
                clients.append((email, try await app.signUp(email)))
            }
            let food = try await clients[0].client.createFood(FoodsAPITests.oats).json(TestFood.self)
            let before = app.bearerShared?.reads.statistics
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (email, client) in clients {
                    for _ in 0..<8 {
                        group.addTask {
                            let response = try await client.get("/api/v1/me")
                            #expect(response.status == .ok)
                            #expect(try response.json(TestUser.self).email == email)
                        }
                    }
                }
                try await group.waitForAll()
            }
            if let before, let after = app.bearerShared?.reads.statistics {
                // PostgreSQL: 96 requests, fewer reads.
                #expect(after.answered - before.answered == 96)
                #expect(after.queries - before.queries < 96, "some requests shared a read: \(after)")
            }

            let owner = clients[0].client
            let day = "2026-11-21"
            for round in 0..<10 {
                #expect(try await owner.get("/api/v1/diary?date=\(day)").status == .ok)  // kept from here on
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (_, client) in clients.dropFirst() {
                        group.addTask {
                            for _ in 0..<3 {
                                let status = try await client.get("/api/v1/diary?date=\(day)").status
                                #expect(status == .ok)
                            }
                        }
                    }
                    group.addTask {
                        let logged = try await owner.sendJSON(.POST, "/api/v1/diary/entries", [
                            "foodId": try #require(food.id).uuidString, "quantity": 40 + round, "unit": "g", "mealType": "breakfast",
                        ])
                        #expect(logged.status == .created)
                        let read = try json(try await owner.get("/api/v1/diary?date=\(day)"))
                        let groups = try #require(read["entries"] as? [[String: Any]])
                        let breakfast = groups.first { $0["mealType"] as? String == "breakfast" }?["entries"] as? [[String: Any]]
                        #expect(breakfast?.count == round + 1, "round \(round): the read after the write has it")
                    }
                    try await group.waitForAll()
                }
            }
        }
    }
}
