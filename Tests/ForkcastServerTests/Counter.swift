import AsyncHTTPClient
@testable import ForkcastServer
import ForkcastCore
import SQLKit
import Foundation
import Testing
import VaporTesting

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }

    /// A change nobody in this process was told of (written by `forkcast` commands in a process of
    /// their own, or a write that lost its wake-up) reaches an open event stream at its next check
    /// of the person's newest change, every 15 s in production.
    @Test func aChangeNobodyAnnouncedReachesAnOpenStreamAtTheNextCheck() async throws {
        @Sendable func check(_ app: Application) async throws {
            let port = try #require(app.http.server.shared.localAddress?.port)
            let client = try await app.signUp()
            let owner = try await client.get("/api/v1/me").json(TestUser.self).id
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/sync/events")
            request.headers.add(name: "Authorization", value: "Bearer \(try #require(client.token))")
            let response = try await app.http.client.shared.execute(request, timeout: .seconds(120))
            #expect(response.status == .ok)
            let received = StreamText()
            let reader = Task {
                for try await chunk in response.body {
                    received.append(String(buffer: chunk))
                    if received.text.contains("event: changes") { return }
                }
            }
            #expect(try await received.waitFor("retry:", seconds: 10), "the stream opened")
            // Without a Last-Event-ID the stream starts from the head it read on opening: its checks
            // send nothing for the account's first changes, only heartbeats (CI once saw the first
            // check send that head before the write below, and the test read the wrong cursor).
            // The waits are long: in the whole suite, four tests at once on two cores, a check every
            // 300 ms was once seen to send three heartbeats in ten seconds (CI of stop 58).
            #expect(try await received.waitFor(": heartbeat", seconds: 30), "a check ran")
            try await Task.sleep(for: .milliseconds(700))
            #expect(!received.text.contains("event: changes"), "nothing changed since the stream opened")
            // Written outside every gate, as a command's write in another process: nobody is woken.
            let record = UUID()
            try await SyncLog.record(.food, [record], op: .delete, owner: owner, on: app.db, now: Date())
            let head = try await SyncLog.lastSequence(owner: owner, on: app.db as! any SQLDatabase)
            #expect(try await received.waitFor("event: changes", seconds: 30), "the check sent the change: \(received.text)")
            #expect(received.text.contains("data: {\"cursor\":\"\(SyncController.cursor(head))\"}"), "with the newest cursor")
            reader.cancel()
        }
        try await withForkcast(allowSignup: true, adjust: { $0.eventStreamCheck = .milliseconds(300) }) { app in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            do { try await check(app) } catch { await app.server.shutdown(); throw error }
            await app.server.shutdown()
        }
    }
}
