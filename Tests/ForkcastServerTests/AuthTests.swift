import Fluent
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

@Suite("Accounts and sign-in")
struct AuthTests {
    @Test func theFirstAccountCanAlwaysBeCreated() async throws {
        try await withForkcast(allowSignup: false) { app in
            let owner = try await app.signUp("owner@example.com")
            let me = try await owner.get("/api/v1/me")
            #expect(me.status == .ok)
            #expect(try me.json(TestUser.self).email == "owner@example.com")
        }
    }

    @Test func laterSignUpsAreClosedByDefault() async throws {
        try await withForkcast(allowSignup: false) { app in
            _ = try await app.signUp("owner@example.com")
            let response = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "guest@example.com", "password": "password123"])
            #expect(response.status == .forbidden)
            #expect(response.problem?.detail.contains("FORKCAST_ALLOW_SIGNUP") == true)
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
    }

    @Test func laterSignUpsWorkWhenAllowed() async throws {
        try await withForkcast(allowSignup: true) { app in
            _ = try await app.signUp("owner@example.com")
            _ = try await app.signUp("guest@example.com")
            #expect(try await UserModel.query(on: app.db).count() == 2)
        }
    }

    @Test func anEmailCanOnlyRegisterOnceIgnoringCase() async throws {
        try await withForkcast(allowSignup: true) { app in
            _ = try await app.signUp("owner@example.com")
            let response = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "OWNER@Example.com", "password": "password123"])
            #expect(response.status == .conflict)
        }
    }

    @Test func registrationValidatesEveryField() async throws {
        try await withForkcast { app in
            let response = try await app.anonymous.send(.POST, "/api/v1/auth/register",
                                                        json: ["email": "not-an-email", "password": "short", "timeZone": "Mars/Olympus"])
            #expect(response.status == .unprocessableEntity)
            let problem = try #require(response.problem)
            #expect(problem.message(for: "email") != nil)
            #expect(problem.message(for: "password")?.contains("8") == true)
            #expect(problem.message(for: "timeZone") != nil)
            #expect(try await UserModel.query(on: app.db).count() == 0)
        }
    }

    @Test func passwordsAndTokensAreStoredHashed() async throws {
        try await withForkcast { app in
            let client = try await app.signUp("owner@example.com", password: "correct horse")
            let user = try #require(try await UserModel.query(on: app.db).first())
            #expect(user.passwordHash.hasPrefix("$2"))
            #expect(!user.passwordHash.contains("correct horse"))
            let token = try #require(try await TokenModel.query(on: app.db).first())
            #expect(token.tokenHash != client.token)
            #expect(token.tokenHash == Tokens.hash(client.token!))
        }
    }

    @Test func loginReturnsAWorkingToken() async throws {
        try await withForkcast { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            let login = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": " Owner@Example.com ", "password": "correct horse"])
            #expect(login.status == .ok)
            let session = try login.json(TestSession.self)
            #expect(session.user.email == "owner@example.com")
            let me = try await Client(app: app, token: session.token).get("/api/v1/me")
            #expect(me.status == .ok)
        }
    }

    @Test func wrongPasswordIsUnauthorized() async throws {
        try await withForkcast { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            let login = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "owner@example.com", "password": "wrong horse"])
            #expect(login.status == .unauthorized)
            #expect(login.headers.contentType?.subType == "problem+json")
            let unknown = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "nobody@example.com", "password": "wrong horse"])
            #expect(unknown.status == .unauthorized)
            #expect(unknown.problem?.detail == login.problem?.detail, "unknown emails look the same as wrong passwords")
        }
    }

    @Test func logoutRevokesTheToken() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            #expect(try await client.send(.POST, "/api/v1/auth/logout").status == .noContent)
            #expect(try await client.get("/api/v1/me").status == .unauthorized)
            #expect(try await client.get("/api/v1/meals").status == .unauthorized)
        }
    }

    @Test func tokensExpire() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            let client = try await app.signUp()
            clock.advance(by: 29 * 24 * 3600)
            #expect(try await client.get("/api/v1/me").status == .ok)
            clock.advance(by: 2 * 24 * 3600)
            #expect(try await client.get("/api/v1/me").status == .unauthorized)
        }
    }

    @Test func missingOrBogusTokensAreUnauthorized() async throws {
        try await withForkcast { app in
            _ = try await app.signUp()
            #expect(try await app.anonymous.get("/api/v1/meals").status == .unauthorized)
            #expect(try await Client(app: app, token: "not-a-token").get("/api/v1/meals").status == .unauthorized)
            #expect(try await app.anonymous.get("/api/v1/plan").status == .unauthorized)
        }
    }

    @Test func repeatedFailedLoginsAreSlowedDown() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock) { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            for _ in 0..<LoginThrottle.freeAttempts {
                let attempt = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "owner@example.com", "password": "guess"])
                #expect(attempt.status == .unauthorized)
            }
            // Even the right password must wait now.
            let blocked = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "owner@example.com", "password": "correct horse"])
            #expect(blocked.status == .tooManyRequests)
            let retryAfter = try #require(blocked.headers.first(name: .retryAfter).flatMap(Int.init))
            #expect(retryAfter > 0 && retryAfter <= 30)
            clock.advance(by: 31)
            let allowed = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "owner@example.com", "password": "correct horse"])
            #expect(allowed.status == .ok)
        }
    }

    @Test func theDelayGrowsWithEachFailure() {
        #expect(LoginThrottle.delay(afterFailures: 5) == 30)
        #expect(LoginThrottle.delay(afterFailures: 6) == 60)
        #expect(LoginThrottle.delay(afterFailures: 50) == LoginThrottle.maximumDelay)
    }

    @Test func usersCanSetTheirTimeZone() async throws {
        try await withForkcast { app in
            let client = try await app.signUp()
            let ok = try await client.send(.PUT, "/api/v1/me", json: ["timeZone": "Europe/Paris", "displayName": "Sam"])
            #expect(ok.status == .ok)
            #expect(try ok.json(TestUser.self).timeZone == "Europe/Paris")
            let bad = try await client.send(.PUT, "/api/v1/me", json: ["timeZone": "Nowhere/Special"])
            #expect(bad.status == .unprocessableEntity)
            #expect(try await client.get("/api/v1/me").json(TestUser.self).timeZone == "Europe/Paris")
        }
    }
}
