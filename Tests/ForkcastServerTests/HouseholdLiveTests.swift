import AsyncHTTPClient
import ForkcastContract
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// A member's change to something shared wakes the other members' open event streams (what the
/// planner, the shopping list and Today's plan reload on); a change to their own diary does not.
@Suite("Households: live")
struct HouseholdLiveTests {
    @Test func aSharedChangeReachesTheOtherMembersOpenStream() async throws {
        @Sendable func check(_ app: Application) async throws {
            let port = try #require(app.http.server.shared.localAddress?.port)
            let ana = try await app.signUp("ana@example.com"), ben = try await app.signUp("ben@example.com")
            let token = try #require(try await ana.send(.POST, "/api/v1/household/invitations").json([String: String?].self)["token"] ?? nil)
            #expect(try await ben.send(.POST, "/api/v1/household/join", json: ["token": token]).status == .ok)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/sync/events")
            request.headers.add(name: "Authorization", value: "Bearer \(try #require(ana.token))")
            let response = try await app.http.client.shared.execute(request, timeout: .seconds(120))
            #expect(response.status == .ok)
            let received = StreamText()
            let reader = Task { for try await chunk in response.body { received.append(String(buffer: chunk)) } }
            defer { reader.cancel() }
            #expect(try await received.waitFor("retry:", seconds: 10), "the stream opened")
            // Ben's own diary: nothing for Ana.
            let logged = try await ben.send(.POST, "/api/v1/diary/entries", json: DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 90), name: "Ben's"))
            #expect(logged.status == .created, "\(logged.body.string)")
            try await Task.sleep(for: .seconds(1))
            #expect(!received.text.contains("event: changes"), "another member's diary wakes nobody else")
            // A meal of the household's: Ana's stream hears of it.
            _ = try await ben.createMeal("Shared stew")
            #expect(try await received.waitFor("event: changes", seconds: 10), "the other member's stream was woken: \(received.text)")
        }
        try await withForkcast(allowSignup: true) { app in
            // On PostgreSQL, the LISTEN that wakes the streams (only it: booting every handler would
            // also index the food catalogue in the background, beside the other tests).
            let listener = SyncEvents.PostgresListener()
            try await listener.didBootAsync(app)
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            do { try await check(app) } catch { await app.server.shutdown(); await listener.shutdownAsync(app); throw error }
            await app.server.shutdown()
            await listener.shutdownAsync(app)
        }
    }
}
