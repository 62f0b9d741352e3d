import Fluent
import ForkcastApp
import ForkcastClient
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Sign in with Apple and OpenID Connect, against local stand-ins for the providers and
/// a real database: native apps' identity tokens, the browser flows, linking, the account rules,
/// password sign-in turned off, and deleting an account that has no password.
@Suite("Sign in with Apple and OpenID Connect", .serialized)
struct SignInTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sign-in-with-apple")

    func withProvider(_ kind: IdentityProviders.Kind, allowSignup: Bool = false, clock: TestClock? = nil,
                      adjust: @escaping (inout AppConfig) -> Void = { _ in },
                      _ body: (Application, FakeIdentityProvider) async throws -> Void) async throws {
        let fake = try await FakeIdentityProvider.start(kind)
        do {
            try await withForkcast(allowSignup: allowSignup, clock: clock, adjust: { config in fake.configure(&config); adjust(&config) }) { app in
                try await body(app, fake)
            }
        } catch {
            try await fake.stop()
            throw error
        }
        try await fake.stop()
    }

    struct AppleBody: Encodable { var identityToken: String; var nonce: String?; var displayName: String? }

    func apple(_ client: Client, _ token: String, nonce: String? = nil, name: String? = nil) async throws -> TestingHTTPResponse {
        try await client.send(.POST, "/api/v1/auth/apple", json: AppleBody(identityToken: token, nonce: nonce, displayName: name))
    }

    // MARK: Native apps: POST /api/v1/auth/apple

    @Test func anAppleTokenCreatesTheFirstAccountThenSignsItInAndSignsInOnce() async throws {
        try await withProvider(.apple) { app, fake in
            let token = try fake.mint(fake.claims(subject: "001.apple.sub", nonce: IdentityProviders.hashedNonce("n-1"),
                                                  email: "relay@privaterelay.appleid.com", emailVerified: "true"))
            let created = try await apple(app.anonymous, token, nonce: "n-1", name: "Ana <b>")
            #expect(created.status == .created, "\(created.body.string)")
            let session = try created.json(TestSession.self)
            #expect(session.user.email == "relay@privaterelay.appleid.com" && session.user.displayName == "Ana <b>")
            let me = try await Client(app: app, token: session.token).get("/api/v1/me/identities")
            #expect(me.status == .ok && me.body.string.contains("\"provider\":\"apple\"") && me.body.string.contains("\"password\":false"))

            // The same token again: refused, nothing created.
            let replay = try await apple(app.anonymous, token, nonce: "n-1")
            #expect(replay.status == .unauthorized && replay.problem?.detail.contains("used before") == true, "\(replay.body.string)")
            // A new sign-in of the same person: the same account.
            let again = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "001.apple.sub", nonce: IdentityProviders.hashedNonce("n-2"))), nonce: "n-2")
            let againID = try again.json(TestSession.self).user.id
            #expect(again.status == .ok && againID == session.user.id)
            // No password works for it.
            let password = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "relay@privaterelay.appleid.com", "password": ""])
            #expect(password.status == .unauthorized || password.status == .unprocessableEntity)
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
    }

    @Test func badTokensAreEachRefusedWithAClearProblemAndChangeNothing() async throws {
        try await withProvider(.apple) { app, fake in
            let good = fake.claims(subject: "sub-1", nonce: IdentityProviders.hashedNonce("n"))
            var wrongAudience = good; wrongAudience["aud"] = "com.example.other"
            var wrongIssuer = good; wrongIssuer["iss"] = "https://appleid.example.com"
            var expired = good; expired["exp"] = Int(Date().timeIntervalSince1970) - 3600
            let forged = try fake.mint(good, signer: .rsa(FakeIdentityProvider.rsaKey2))
            let cases: [(String, String?, String)] = [
                (try fake.mint(wrongAudience), "n", "meant for com.example.other"),
                (try fake.mint(wrongIssuer), "n", "issued by https://appleid.example.com"),
                (try fake.mint(expired), "n", "expired"),
                (forged, "n", "signature does not verify"),
                (try fake.mint(good, kid: "no-such-kid"), "n", "does not publish"),
                (try fake.mint(good), "other nonce", "nonce"),
                (try fake.mint(good), nil, "nonce"),
                // The token's own nonce claim sent back is not the app's nonce.
                (try fake.mint(good), IdentityProviders.hashedNonce("n"), "nonce"),
                ("not.a.token", nil, "not a well-formed token"),
                (String(repeating: "a", count: 20_000), nil, "longer than"),
            ]
            for (token, nonce, message) in cases {
                let response = try await apple(app.anonymous, token, nonce: nonce)
                #expect(response.status == .unauthorized, "\(message): \(response.status)")
                #expect(response.problem?.detail.contains(message) == true, "\(message): \(response.body.string)")
            }
            #expect(try await UserModel.query(on: app.db).count() == 0)
            #expect(try await ExternalIdentityModel.query(on: app.db).count() == 0)
            // The good one still works afterwards (nothing was spent by the refusals).
            #expect(try await apple(app.anonymous, try fake.mint(good), nonce: "n").status == .created)
        }
    }

    /// An ES256 signature (r, s) has a second valid form (r, n − s). Single use was keyed by
    /// the signature's bytes, so a token without a nonce could be spent twice.
    @Test func theSecondFormOfAnECDSASignatureIsTheSameToken() async throws {
        let fake = try await FakeIdentityProvider.start(.oidc)
        defer { Task { try? await fake.stop() } }
        let raw = try fake.mint(fake.claims(subject: "es-sub"))
        let token = try IdentityToken.parse(raw)
        #expect(token.header.algorithm == "ES256" && token.signature.count == 64)
        // n − s over P-256's group order, big-endian.
        let n: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                          0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51]
        let sBytes = Array(token.signature.suffix(32))
        var other = [UInt8](repeating: 0, count: 32), borrow = 0
        for i in (0..<32).reversed() {
            let d = Int(n[i]) - Int(sBytes[i]) - borrow
            other[i] = UInt8((d + 256) % 256)
            borrow = d < 0 ? 1 : 0
        }
        let parts = raw.split(separator: ".")
        let malleated = "\(parts[0]).\(parts[1]).\(Base64URL.encode(Array(token.signature.prefix(32)) + other))"
        let twin = try IdentityToken.parse(malleated)
        #expect(twin.signature != token.signature)
        // Both verify against the provider's key: the signature alone cannot tell them apart.
        guard case .p256(let signing)? = fake.published.first?.signer else { Issue.record("an ES256 provider"); return }
        let key = IdentityProviders.VerifyingKey.p256(signing.publicKey)
        #expect(key.verifies(token) && key.verifies(twin))
        #expect(UsedNonces.key(token) == UsedNonces.key(twin), "spent once, in either form")
        #expect(UsedNonces.key(token) != UsedNonces.key(try IdentityToken.parse(try fake.mint(fake.claims(subject: "someone else")))))
    }

    @Test func oneTokenSentByManyClientsAtOnceSignsInOnce() async throws {
        try await withProvider(.apple) { app, fake in
            _ = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "race", nonce: IdentityProviders.hashedNonce("warm-up"))), nonce: "warm-up")
            let token = try fake.mint(fake.claims(subject: "race", nonce: IdentityProviders.hashedNonce("once")))
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<8 { group.addTask { try await apple(app.anonymous, token, nonce: "once").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .unauthorized }.count == 7, "\(statuses)")
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
    }

    @Test func rotatedKeysAreFetchedOnceWhenAnUnknownKidAppears() async throws {
        let clock = TestClock(Date())
        try await withProvider(.apple, clock: clock) { app, fake in
            #expect(try await apple(app.anonymous, try fake.mint(fake.claims(subject: "s", issuedAt: clock.now))).status == .created)
            #expect(fake.keyFetches == 1)
            fake.rotate(kid: "apple-2", dropOld: true)
            // Within 30 s of the last fetch an unknown kid is refused without asking Apple again.
            let early = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "s", issuedAt: clock.now)))
            #expect(early.status == .unauthorized && fake.keyFetches == 1, "\(early.body.string)")
            clock.advance(by: 31)
            let rotated = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "s", issuedAt: clock.now)))
            #expect(rotated.status == .ok && fake.keyFetches == 2, "\(rotated.body.string)")
        }
    }

    /// With the provider's keys out of reach, 200 forged tokens made 200 fetches of 10 s
    /// each, and the 503 said "Open Food Facts unavailable".
    @Test func unreachableKeysAreFetchedOnceAndAnsweredAtOnceNamingTheProvider() async throws {
        let clock = TestClock(Date())
        try await withProvider(.apple, clock: clock) { app, fake in
            fake.keysDown = true
            let statuses = try await withThrowingTaskGroup(of: (HTTPStatus, String?).self) { group in
                for i in 0..<20 {
                    group.addTask {
                        let r = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "forged-\(i)", issuedAt: clock.now)))
                        return (r.status, r.problem?.title)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.0 == .serviceUnavailable }, "\(statuses)")
            #expect(statuses.allSatisfy { $0.1 == "Apple unavailable" }, "\(statuses)")
            #expect(fake.keyFetches == 1, "one fetch for all of them, not \(fake.keyFetches)")
            // Shortly after, still answered at once without asking again.
            clock.advance(by: 5)
            let soon = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "later", issuedAt: clock.now)))
            #expect(soon.status == .serviceUnavailable && soon.headers.first(name: .retryAfter) != nil)
            #expect(fake.keyFetches == 1)
            // Once the pause is over and Apple answers again, signing in works.
            fake.keysDown = false
            clock.advance(by: IdentityProviders.failedFetchPause)
            let back = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "back", issuedAt: clock.now)))
            #expect(back.status == .created, "\(back.body.string)")
            #expect(fake.keyFetches == 2)
        }
    }

    /// While Apple's key address hangs, the one fetch gives up after 3 s and every sign-in waiting
    /// for it is answered then (they waited 10 s for it).
    @Test func hangingKeysAreGivenUpOnWithinSeconds() async throws {
        let clock = TestClock(Date())
        try await withProvider(.apple, clock: clock) { app, fake in
            fake.keysHang = true
            let started = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for i in 0..<10 {
                    group.addTask { try await apple(app.anonymous, try fake.mint(fake.claims(subject: "waiting-\(i)", issuedAt: clock.now))).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let waited = ContinuousClock.now - started
            #expect(statuses.allSatisfy { $0 == .serviceUnavailable }, "\(statuses)")
            #expect(fake.keyFetches == 1)
            #expect(waited < .seconds(8), "answered after \(waited), not after the fetch's 3 s")
        }
    }

    @Test func aVerifiedEmailOfAnExistingAccountIsNeverLinkedSilently() async throws {
        try await withProvider(.apple) { app, fake in
            let owner = try await app.signUp("ana@example.com")
            let token = { (nonce: String) in try fake.mint(fake.claims(subject: "ana-apple", nonce: IdentityProviders.hashedNonce(nonce), email: "Ana@Example.com")) }
            let refused = try await apple(app.anonymous, try token("a"), nonce: "a")
            #expect(refused.status == .conflict && refused.problem?.detail.contains("never joins accounts by email") == true, "\(refused.body.string)")
            #expect(try await ExternalIdentityModel.query(on: app.db).count() == 0)
            // Signed in, the account links it itself; then Apple signs it in.
            let linked = try await apple(owner, try token("b"), nonce: "b")
            #expect(linked.status == .ok, "\(linked.body.string)")
            let signIn = try await apple(app.anonymous, try token("c"), nonce: "c")
            let signedInEmail = try signIn.json(TestSession.self).user.email
            #expect(signIn.status == .ok && signedInEmail == "ana@example.com")
            // Someone else's account cannot take it over.
            try await withForkcastSecondAccount(app) { bea in
                let taken = try await apple(bea, try token("d"), nonce: "d")
                #expect(taken.status == .conflict && taken.problem?.detail.contains("linked to another") == true)
            }
            // Unlinked, it no longer signs in; the password account keeps its password.
            #expect(try await owner.send(.DELETE, "/api/v1/me/identities/apple").status == .noContent)
            #expect(try await apple(app.anonymous, try token("e"), nonce: "e").status == .conflict)
        }
    }

    func withForkcastSecondAccount(_ app: Application, _ body: (Client) async throws -> Void) async throws {
        let user = UserModel(email: "bea@example.com", passwordHash: try app.password.hash("correct horse"), displayName: nil, timeZone: "UTC")
        try await CreateAccount.store(user, on: app.db, now: Date())
        let response = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "bea@example.com", "password": "correct horse"])
        try await body(Client(app: app, token: try response.json(TestSession.self).token))
    }

    @Test func signUpClosedRefusesNewAppleAccountsButNotTheFirst() async throws {
        try await withProvider(.apple) { app, fake in
            #expect(try await apple(app.anonymous, try fake.mint(fake.claims(subject: "first"))).status == .created)
            let second = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "second")))
            #expect(second.status == .forbidden && second.problem?.detail.contains("Sign-up is closed") == true)
            #expect(try await UserModel.query(on: app.db).count() == 1)
        }
    }

    /// ../shared/fixtures/sign-in-with-apple as they are: the real token's claims parse (booleans
    /// included), and it is refused because it expired; Apple's published key set parses.
    @Test func theRealAppleTokenParsesAndIsRefusedAsExpired() async throws {
        struct Fixture: Decodable { var token: String }
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("real_apple_identity_token_vapor_jwt_test.json")))
        let parsed = try IdentityToken.parse(fixture.token)
        #expect(parsed.header.algorithm == "RS256" && parsed.header.keyID == "dMlERBaFdK")
        #expect(parsed.claims.subject == "001542.b04100c51acb48d3a570684f17d6394d.1603")
        #expect(parsed.claims.email == "8ysbchvc2m@privaterelay.appleid.com" && parsed.claims.emailVerified && parsed.claims.isPrivateEmail)
        #expect(parsed.claims.audiences == ["dev.timc.siwa-demo.TILiOS"] && parsed.claims.issuer == "https://appleid.apple.com")
        let keys = try IdentityProviders.parseKeys(JSONDecoder().decode(IdentityProviders.KeySet.self,
            from: Data(contentsOf: Self.fixtures.appendingPathComponent("apple_auth_keys_jwks_sample.json"))))
        #expect(Set(keys.keys) == ["YuyXoY", "W6WcOKB", "fh6Bs8C"])

        try await withForkcast(adjust: { $0.apple = .init(clientID: nil, appIDs: ["dev.timc.siwa-demo.TILiOS"]) }) { app in
            let response = try await apple(app.anonymous, fixture.token)
            #expect(response.status == .unauthorized)
            #expect(response.problem?.detail.contains("expired at 2025-02-03") == true, "\(response.body.string)")
        }
    }

}
