import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VaporTesting

/// Keys for other programs through the Swift client, on SQLite and PostgreSQL: a read-only plan
/// key reads the plan and is refused when it writes or reaches elsewhere, a key manages no keys
/// and no account, and a revoked or expired key opens nothing.
@Suite("API keys")
struct APIKeyTests {
    static func status(_ call: () async throws -> Void) async -> Int {
        do { try await call(); return 200 } catch ForkcastError.problem(let status, _, _, _) { return status } catch { return -1 }
    }

    @Test func aReadOnlyKeyReadsThePlanAndIsRefusedElsewhere() async throws {
        try await withServer(allowSignup: true) { app, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana")
            let soup = try await ana.api.createMeal(MealInput(description: "Soup"))
            let today = try await ana.api.plan().today
            _ = try await ana.api.assign(mealId: soup.id, date: today, mealType: "dinner")

            let made = try await ana.api.createAPIKey(APIKeyInput(name: "Kitchen display <b>", access: .read, areas: ["plan"]))
            let token = try #require(made.key)
            #expect(token.hasPrefix("fck_") && made.areas == ["plan"] && made.access == .read)
            let script = ForkcastAPI(baseURL: url, token: token, transport: .patient)
            #expect(try await script.plan(start: today).days.first?.assignments.map(\.mealId) == [soup.id], "reads the plan")
            #expect(try await script.meals().items.count == 1, "and the meals it is made of")
            // Writing, another area, keys and the account: 403, nothing saved.
            #expect(await Self.status { _ = try await script.assign(mealId: soup.id, date: today.adding(days: 1), mealType: "lunch") } == 403)
            #expect(await Self.status { _ = try await script.diaryDay(today) } == 403)
            #expect(await Self.status { _ = try await script.createAPIKey(APIKeyInput(name: "more", access: .write, areas: ["plan"])) } == 403)
            #expect(await Self.status { _ = try await script.apiKeys() } == 403)
            #expect(await Self.status { _ = try await script.me() } == 403)
            #expect(await Self.status { _ = try await script.createCalendarFeed(scope: .me) } == 403)
            #expect(try await ana.api.plan(start: today.adding(days: 1)).days.first?.assignments.isEmpty == true)
            let listed = try await ana.api.apiKeys()
            #expect(listed.count == 1 && listed[0].key == nil && listed[0].lastUsedAt != nil, "listed with its last use, never the key")

            // A write key in its area writes; a bad key is refused as made.
            let writeKey = try await ana.api.createAPIKey(APIKeyInput(name: "Pantry bot", access: .write, areas: ["pantry", "plan"]))
            let writer = ForkcastAPI(baseURL: url, token: writeKey.key, transport: .patient)
            let lunch = try await writer.assign(mealId: soup.id, date: today.adding(days: 2), mealType: "lunch")
            #expect(await Self.status { _ = try await script.suggestions(SuggestionsInput(start: today)) } == 200, "suggestions change nothing")
            // What reaches beyond the key's areas, or makes a public link, or signs in: refused.
            #expect(await Self.status { _ = try await writer.logEaten(lunch.id) } == 403, "writes diaries: needs the diary too")
            #expect(await Self.status { _ = try await writer.shareRecipe(soup.id) } == 403)
            var apple = URLRequest(url: url.appendingPathComponent("api/v1/auth/apple"))
            apple.httpMethod = "POST"
            apple.setValue("Bearer \(writeKey.key ?? "")", forHTTPHeaderField: "Authorization")
            apple.setValue("application/json", forHTTPHeaderField: "Content-Type")
            apple.httpBody = Data(#"{"identityToken":"x.y.z"}"#.utf8)
            let (_, signIn) = try await URLSession.shared.data(for: apple)
            #expect((signIn as? HTTPURLResponse)?.statusCode == 403, "a key never reaches sign-in (it would link an identity)")
            for bad in [APIKeyInput(name: " ", access: .read, areas: ["plan"]), APIKeyInput(name: "x", access: .read, areas: []),
                        APIKeyInput(name: "x", access: .read, areas: ["account"]), APIKeyInput(name: "x", access: .read, areas: ["plan"], expiresAt: Date(timeIntervalSince1970: 0)),
                        APIKeyInput(name: String(repeating: "k", count: 101), access: .read, areas: ["plan"])] {
                #expect(await Self.status { _ = try await ana.api.createAPIKey(bad) } == 422, "\(bad)")
            }
            // Revoked: 401 at once.
            try await ana.api.revokeAPIKey(made.id)
            #expect(await Self.status { _ = try await script.plan(start: today) } == 401)
            #expect(await Self.status { try await ana.api.revokeAPIKey(made.id) } == 404)
            // Expired: 401.
            let stale = try await ana.api.createAPIKey(APIKeyInput(name: "Soon gone", access: .read, areas: ["plan"], expiresAt: Date().addingTimeInterval(1)))
            try await Task.sleep(for: .seconds(1.5))
            #expect(await Self.status { _ = try await ForkcastAPI(baseURL: url, token: stale.key!, transport: .patient).plan(start: today) } == 401)
            _ = app
        }
    }
}
