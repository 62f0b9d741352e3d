@testable import ForkcastServer
import Foundation
import PostgresNIO
import SQLKit
import Testing
import VaporTesting

/// A write whose connection dies after its COMMIT was sent may have been saved or not: the answer
/// says so instead of "nothing was saved", which a client would answer by sending it again.
@Suite("A COMMIT whose outcome cannot be known, and changes sent again")
struct OutcomeTests {
    @Test func aConnectionLostDuringCommitIsAnUnknownOutcome() async throws {
        guard TestDatabase.postgresURL != nil else { return }  // SQLite commits in-process: there is no connection to lose
        // PostgreSQL's own message, should a statement of the test itself fail (PSQLError hides it).
        do { try await connectionLostDuringCommit() } catch let error as PSQLError {
            Issue.record("\(String(reflecting: error))")
        }
    }

    private func connectionLostDuringCommit() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let sql = app.db as! any SQLDatabase
            // COMMIT sleeps in a deferred trigger, long enough to end its connection from outside.
            try await sql.raw("CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$").run()
            try await sql.raw("CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON foods DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()").run()
            async let created = client.createFood(["name": "Rolled oats", "basis": "g", "per100": ["energyKcal": 372]])
            var ended = false
            for _ in 0..<100 where !ended {
                try await Task.sleep(for: .milliseconds(50))
                let rows = try await sql.raw("""
                    SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query = 'COMMIT' AND wait_event = 'PgSleep'
                    """).all()
                ended = !rows.isEmpty
            }
            #expect(ended, "the COMMIT was seen and its connection ended")
            let answer = try await created
            #expect(answer.status == .serviceUnavailable, "\(answer.body.string)")
            #expect(answer.problem?.type.hasSuffix("outcome-unknown") == true, "\(answer.status) \(answer.body.string)")
            #expect(answer.problem?.detail.contains("may or may not have been saved") == true)
            // Sent again as told, under its key: made once, whatever the first COMMIT did.
            try await sql.raw("DROP TRIGGER slow_commit ON foods").run()
            let again = try await client.createFood(["name": "Rolled oats", "basis": "g", "per100": ["energyKcal": 372]], key: "oats-1")
            let twice = try await client.createFood(["name": "Rolled oats", "basis": "g", "per100": ["energyKcal": 372]], key: "oats-1")
            #expect(again.status == .created && twice.status == .created, "\(again.body.string) \(twice.body.string)")
            #expect(try await foodCount(sql, "Rolled oats") == 1)
        }
    }

    /// A statement PostgreSQL leaves unanswered does not leave the person waiting: past the
    /// deadline a change is answered "may or may not have been saved" (here it is, later).
    @Test func anUnansweredChangeIsAnsweredAtTheDeadline() async throws {
        guard TestDatabase.postgresURL != nil else { return }  // the deadline guards PostgreSQL's connections
        try await withForkcast(adjust: { $0.postgresConnectionWaitLimit = .seconds(1); $0.postgresConnectTimeout = .seconds(1) }) { app in
            let client = try await app.signUp()
            let sql = app.db as! any SQLDatabase
            // The INSERT sleeps (not the COMMIT: the test beside this one ends sleeping COMMITs).
            try await sql.raw("CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(7); RETURN NEW; END $$").run()
            try await sql.raw("CREATE TRIGGER slow_insert BEFORE INSERT ON foods FOR EACH ROW EXECUTE FUNCTION slow_insert()").run()
            let started = ContinuousClock.now
            let answer = try await client.createFood(["name": "Rolled oats", "basis": "g", "per100": ["energyKcal": 372]])
            let waited = ContinuousClock.now - started
            #expect(answer.status == .serviceUnavailable && answer.problem?.type.hasSuffix("outcome-unknown") == true,
                    "\(answer.status) \(answer.body.string)")
            #expect(waited < .seconds(7), "answered at the 5 s deadline, before the INSERT ended (\(waited))")
            try await Task.sleep(for: .seconds(4))
            #expect(try await foodCount(sql, "Rolled oats") == 1, "the change committed after its answer, as the answer allowed")
            try await sql.raw("DROP TRIGGER slow_insert ON foods").run()
        }
    }

    @Test func aChangeSentAgainWithItsKeyIsAnsweredAsTheFirstTime() async throws {
        try await withForkcast(allowSignup: true) { app in
            let client = try await app.signUp()
            let sql = app.db as! any SQLDatabase
            let oats: [String: Any] = ["name": "Rolled oats", "basis": "g", "per100": ["energyKcal": 372]]
            let first = try await client.createFood(oats, key: "5f0c1d2e-oats")
            // The same JSON with its fields in another order is the same request.
            let again = try await client.send(.POST, "/api/v1/foods", raw: #"{"per100":{"energyKcal":372},"basis":"g","name":"Rolled oats"}"#,
                                              headers: ["Idempotency-Key": "5f0c1d2e-oats"])
            #expect(first.status == .created && again.status == .created, "\(again.body.string)")
            #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(first.headers.first(name: "Idempotent-Replayed") == nil)
            #expect(again.body.string == first.body.string)
            #expect(again.headers.first(name: .location) == first.headers.first(name: .location))
            #expect(try await foodCount(sql, "Rolled oats") == 1)

            // The same key for another change is refused, naming the header; it changes nothing.
            let other = try await client.createFood(["name": "Barley", "basis": "g", "per100": ["energyKcal": 354]], key: "5f0c1d2e-oats")
            #expect(other.status == .unprocessableEntity)
            #expect(other.problem?.errors?.first?.field == "Idempotency-Key", "\(other.body.string)")
            #expect(try await foodCount(sql, "Barley") == 0)

            // A refused change keeps no answer: the key is free for the corrected request.
            let refused = try await client.createFood(["name": "", "basis": "g"], key: "k2")
            #expect(refused.status == .unprocessableEntity)
            #expect(try await client.createFood(["name": "Barley", "basis": "g", "per100": ["energyKcal": 354]], key: "k2").status == .created)

            // Without a key, each request is a change of its own; a key that is not visible ASCII is a 400.
            _ = try await client.createFood(["name": "Rye", "basis": "g"])
            _ = try await client.createFood(["name": "Rye", "basis": "g"])
            #expect(try await foodCount(sql, "Rye") == 2)
            #expect(try await client.createFood(["name": "Spelt", "basis": "g"], key: "two words").status == .badRequest)
            #expect(try await client.createFood(["name": "Spelt", "basis": "g"], key: String(repeating: "k", count: 256)).status == .badRequest)
            #expect(try await foodCount(sql, "Spelt") == 0)

            // Another person's same key is theirs alone.
            let other2 = try await app.signUp("second@example.com")
            #expect(try await other2.createFood(oats, key: "5f0c1d2e-oats").headers.first(name: "Idempotent-Replayed") == nil)
        }
    }

    @Test func theSameLoggingSentAtOnceIsLoggedOnce() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let answers = try await withThrowingTaskGroup(of: TestingHTTPResponse.self) { group in
                for _ in 0..<8 { group.addTask {
                    try await client.sendJSON(.POST, "/api/v1/diary/entries", ["quickAdd": ["energyKcal": 3], "mealType": "snack", "name": "Espresso"], key: "espresso-1")
                }  }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == .created }, "\(answers.map(\.body.string))")
            #expect(Set(answers.map(\.body.string)).count == 1)
            #expect(answers.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 7)
            let rows = try await (app.db as! any SQLDatabase).raw("SELECT COUNT(*) AS n FROM diary_entries").first()
            #expect(try rows?.decode(column: "n", as: Int.self) == 1)
        }
    }

    private func foodCount(_ sql: any SQLDatabase, _ name: String) async throws -> Int {
        try await sql.raw("SELECT COUNT(*) AS n FROM foods WHERE name = \(bind: name)").first()?.decode(column: "n", as: Int.self) ?? -1
    }
}

extension Client {
    /// Sends a creating POST with an `Idempotency-Key`.
    func createFood(_ body: [String: Any], key: String) async throws -> TestingHTTPResponse {
        try await sendJSON(.POST, "/api/v1/foods", body, key: key)
    }

    func sendJSON(_ method: HTTPMethod, _ path: String, _ body: [String: Any], key: String) async throws -> TestingHTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await send(method, path, raw: String(decoding: data, as: UTF8.self), headers: ["Idempotency-Key": key])
    }
}
