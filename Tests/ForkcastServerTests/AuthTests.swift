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
            let response = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "guest@example.com", "password": "guest horse 12"])
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
            let response = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "OWNER@Example.com", "password": "guest horse 12"])
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

    /// Sign-in attempts from one client address, as a trusted proxy reports it.
    private func login(_ app: Application, from address: String, _ email: String, _ password: String) async throws -> TestingHTTPResponse {
        try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": email, "password": password],
                                     headers: ["X-Forwarded-For": address])
    }

    @Test func strangersFailingNeverLockTheOwnerOut() async throws {
        let clock = TestClock()
        try await withForkcast(clock: clock, adjust: { $0.trustProxy = true }) { app in
            let signUp = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "owner@example.com", "password": "correct horse"],
                                                      headers: ["X-Forwarded-For": "198.51.100.1"])
            #expect(signUp.status == .created)
            var statuses: [HTTPStatus] = []
            for _ in 0..<8 { statuses.append(try await login(app, from: "203.0.113.7", "owner@example.com", "guess").status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized })
            #expect(statuses.dropFirst(5).allSatisfy { $0 == .tooManyRequests })
            // The owner's known address still gets in with the right password, at once.
            #expect(try await login(app, from: "198.51.100.1", "owner@example.com", "correct horse").status == .ok)
            // The stranger's network must wait, even with the right password.
            let held = try await login(app, from: "203.0.113.7", "Owner@Example.com", "correct horse")
            #expect(held.status == .tooManyRequests)
            let retryAfter = try #require(held.headers.first(name: .retryAfter).flatMap(Int.init))
            #expect(retryAfter > 0 && retryAfter <= 300)
            // The owner on a new network (a phone on mobile data: no device cookie, an address
            // never used) gets in at once while the stranger keeps failing.
            #expect(try await login(app, from: "192.0.2.50", "Owner@Example.com", "correct horse").status == .ok)
            #expect(try await login(app, from: "2001:db8:5:6:1::9", "owner@example.com", "correct horse").status == .ok)
            #expect(try await login(app, from: "203.0.113.7", "owner@example.com", "guess").status == .tooManyRequests)
            clock.advance(by: 301)
            #expect(try await login(app, from: "203.0.113.7", "owner@example.com", "correct horse").status == .ok)
        }
    }

    @Test func aNetworkIsAnIPv4AddressOrAnIPv6Slash64() {
        func network(_ address: String) -> String { ClientIdentity(address: address).network }
        #expect(network("203.0.113.7") == "203.0.113.7")
        // A dual-stack socket reports IPv4 clients IPv4-mapped: each is its own network still.
        #expect(network("::ffff:203.0.113.7") == "203.0.113.7")
        #expect(network("::ffff:203.0.113.8") != network("::ffff:203.0.113.7"))
        #expect(network("2001:db8:1:2::1") == network("2001:0DB8:0001:0002:ffff:1:2:3"))
        #expect(network("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(network("2001:db8:1:3::1") != network("2001:db8:1:2::1"))
        #expect(network("unknown") == "unknown")
    }

    @Test func parallelGuessesAreChargedAtomically() async throws {
        try await withForkcast(clock: TestClock(), adjust: { $0.trustProxy = true }) { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            // One network: the IPv6 addresses of one /64 are one phone or household.
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for i in 0..<16 {
                    group.addTask { try await self.login(app, from: "2001:db8:1:2::\(i + 1)", "owner@example.com", "guess \(i)").status }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == LoginThrottle.perAccountNetwork.capacity.asInt)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 16 - LoginThrottle.perAccountNetwork.capacity.asInt)
        }
    }

    @Test func guessesSpreadOverManyNetworksAreBoundedPerAccount() async throws {
        try await withForkcast(clock: TestClock(), adjust: { $0.trustProxy = true }) { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            let total = LoginThrottle.perAccount.capacity.asInt + 10
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for i in 0..<total {
                    group.addTask { try await self.login(app, from: "198.18.\(i / 200).\(i % 200 + 1)", "owner@example.com", "guess \(i)").status }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == LoginThrottle.perAccount.capacity.asInt)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 10)
        }
    }

    @Test func oneAddressCannotSprayGuesses() async throws {
        // A clock that stands still: on a slow machine 24 attempts must not earn a refill.
        try await withForkcast(clock: TestClock(), adjust: { $0.trustProxy = true }) { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            var statuses: [HTTPStatus] = []
            for i in 0..<24 { statuses.append(try await login(app, from: "203.0.113.9", "someone\(i)@example.com", "guess").status) }
            #expect(statuses.prefix(20).allSatisfy { $0 == .unauthorized })
            #expect(statuses.dropFirst(20).allSatisfy { $0 == .tooManyRequests })
        }
    }

    @Test func aCorrectPasswordGivesTheTokensBack() async throws {
        try await withForkcast(adjust: { $0.trustProxy = true }) { app in
            _ = try await app.signUp("owner@example.com", password: "correct horse")
            // Many successful sign-ins from one known address never run out.
            for _ in 0..<30 {
                #expect(try await login(app, from: "198.51.100.1", "owner@example.com", "correct horse").status == .ok)
            }
        }
    }

    @Test func commonAndBlankPasswordsAndBadEmailsAreRefused() async throws {
        try await withForkcast { app in
            for (email, password, field) in [("a@example.com", "password123", "password"), ("a@example.com", "         ", "password"),
                                             ("a@example.com", "a@example.com", "password"), ("a@example", "correct horse", "email"),
                                             ("a b@example.com", "correct horse", "email"), ("<a>@example.com", "correct horse", "email"),
                                             ("a@@example.com", "correct horse", "email"), ("a@-example.com", "correct horse", "email")] {
                let response = try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": email, "password": password])
                #expect(response.status == .unprocessableEntity, "\(email) / \(password)")
                #expect(response.problem?.message(for: field) != nil, "\(email) / \(password): \(response.body.string)")
            }
            // JSON's \u0000 is read as U+FFFD, which no address holds: refused, not stored as x\u{FFFD}@….
            for raw in [#"{"email": "x\u0000@example.com", "password": "correct horse"}"#, #"{"email": "x\ufffd@example.com", "password": "correct horse"}"#] {
                let response = try await app.anonymous.send(.POST, "/api/v1/auth/register", raw: raw)
                #expect(response.status == .unprocessableEntity && response.problem?.message(for: "email") != nil, "\(raw): \(response.body.string)")
            }
            #expect(try await app.anonymous.send(.POST, "/api/v1/auth/register", json: ["email": "Ann.Lee+food@example.co.uk", "password": "correct horse"]).status == .created)
        }
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

private extension Double {
    var asInt: Int { Int(self) }
}
