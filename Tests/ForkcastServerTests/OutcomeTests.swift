@testable import ForkcastServer
import Foundation
import SQLKit
import Testing
import VaporTesting

/// A write whose connection dies after its COMMIT was sent may have been saved or not: the answer
/// says so instead of "nothing was saved", which a client would answer by sending it again.
@Suite("A COMMIT whose outcome cannot be known")
struct OutcomeTests {
    @Test func aConnectionLostDuringCommitIsAnUnknownOutcome() async throws {
        guard TestDatabase.postgresURL != nil else { return }  // SQLite commits in-process: there is no connection to lose
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
        }
    }
}
