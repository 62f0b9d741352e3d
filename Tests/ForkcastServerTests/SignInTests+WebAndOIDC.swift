import Fluent
import ForkcastApp
import ForkcastClient
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

extension SignInTests {
    // MARK: The browser: Apple's form_post flow

    @Test func theAppleWebFlowBindsStateAndNonceToTheBrowserAndSignsTheSecret() async throws {
        try await withProvider(.apple) { app, fake in
            var browser = Browser(app: app)
            #expect(try await browser.send(.GET, "/setup").body.string.contains("Continue with Apple"))
            let start = try await browser.send(.GET, "/auth/apple/start?next=/meals")
            #expect(start.status == .seeOther)
            let location = try #require(start.headers.first(name: .location))
            #expect(location.hasPrefix(fake.baseURL + "/auth/authorize?") && location.contains("response_mode=form_post")
                    && location.contains("scope=name%20email") && location.contains("client_id=org.forkcast.web"))
            let (code, state) = try fake.approve(location, subject: "web-sub", email: "web@privaterelay.appleid.com")

            // Another browser cannot finish this sign-in (the state is bound to the session).
            var stranger = Browser(app: app)
            let hijack = try await stranger.send(.POST, "/auth/apple/callback", form: ["code": code, "state": state])
            let stolen = try await stranger.send(.GET, try #require(hijack.headers.first(name: .location)))
            #expect(stolen.status == .badRequest && stolen.body.string.contains("started in another browser"))

            // Apple's cross-site POST carries no cookie; it hands on to a GET that does.
            var apple = Browser(app: app)
            let posted = try await apple.send(.POST, "/auth/apple/callback", form: [
                "code": code, "state": state, "user": #"{"name":{"firstName":"Zoë","lastName":"O'Brien"},"email":"web@privaterelay.appleid.com"}"#])
            #expect(posted.status == .seeOther)
            let back = try await browser.send(.GET, try #require(posted.headers.first(name: .location)))
            #expect(back.status == .seeOther && back.headers.first(name: .location) == "/meals", "\(back.body.string)")
            let user = try #require(try await UserModel.query(on: app.db).first())
            #expect(user.displayName == "Zoë O'Brien" && !user.hasPassword)
            #expect(try await browser.send(.GET, "/meals").status == .ok)
            // The client secret was an ES256 JWT by the team key (the stand-in refuses anything else).
            #expect(fake.tokenRequests.last?["client_secret"]?.split(separator: ".").count == 3)

            // Returning twice does nothing: the sign-in was spent.
            let twice = try await browser.send(.GET, try #require(posted.headers.first(name: .location)))
            #expect(twice.status == .badRequest && twice.body.string.contains("Start again"), "\(twice.status)")
        }
    }

    // MARK: OpenID Connect

    @Test func openIDConnectUsesDiscoveryPKCEAndTheAllowedGroups() async throws {
        try await withProvider(.oidc, adjust: { $0.oidc?.allowedGroups = ["forkcast"] }) { app, fake in
            var browser = Browser(app: app)
            #expect(try await browser.send(.GET, "/setup").body.string.contains("Continue with Authelia"))
            // Not in an allowed group: refused, no account.
            var location = try #require(try await browser.send(.GET, "/auth/oidc/start").headers.first(name: .location))
            #expect(location.hasPrefix(fake.baseURL + "/authorize?") && location.contains("code_challenge_method=S256"))
            var (code, state) = try fake.approve(location, subject: "kc-1", email: "kim@example.com", groups: ["staff"])
            let refused = try await browser.send(.GET, "/auth/oidc/return?code=\(code)&state=\(state)")
            #expect(refused.status == .forbidden && refused.body.string.contains("not in a group allowed"), "\(refused.body.string)")
            #expect(try await UserModel.query(on: app.db).count() == 0)
            #expect(!fake.tokenAuthorization.isEmpty && fake.tokenAuthorization.allSatisfy { $0?.hasPrefix("Basic ") == true })
            // A code issued to another sign-in (another PKCE challenge) is refused by the provider,
            // even carried back with this sign-in's state: the verifier binds the code to its browser.
            let first = try #require(try await browser.send(.GET, "/auth/oidc/start").headers.first(name: .location))
            let (otherCode, _) = try fake.approve(first, subject: "kc-1", email: "kim@example.com", groups: ["forkcast"])
            let second = try #require(try await browser.send(.GET, "/auth/oidc/start").headers.first(name: .location))
            let (_, secondState) = try fake.approve(second, subject: "kc-1", email: "kim@example.com", groups: ["forkcast"])
            let swapped = try await browser.send(.GET, "/auth/oidc/return?code=\(otherCode)&state=\(secondState)")
            #expect(swapped.status == .unauthorized && swapped.body.string.contains("refused the sign-in (invalid_grant)"), "\(swapped.body.string)")
            #expect(try await UserModel.query(on: app.db).count() == 0)
            // In the group: the first account is created and signed in.
            location = try #require(try await browser.send(.GET, "/auth/oidc/start").headers.first(name: .location))
            (code, state) = try fake.approve(location, subject: "kc-1", email: "kim@example.com", groups: ["forkcast", "staff"])
            let back = try await browser.send(.GET, "/auth/oidc/return?code=\(code)&state=\(state)")
            #expect(back.status == .seeOther && back.headers.first(name: .location) == "/diary", "\(back.body.string)")
            #expect(try await UserModel.query(on: app.db).first()?.email == "kim@example.com")
            #expect(fake.tokenRequests.last?["code_verifier"] != nil)
        }
    }

    @Test func linkAndUnlinkInSettingsAndPasswordlessAccountsKeepOneWayIn() async throws {
        try await withProvider(.oidc) { app, fake in
            _ = try await app.signUp("ana@example.com")
            var browser = Browser(app: app)
            _ = try await browser.signIn("ana@example.com")
            #expect(try await browser.send(.GET, "/settings/sign-in").body.string.contains("Link Authelia"))
            let location = try #require(try await browser.send(.GET, "/auth/oidc/start?intent=link").headers.first(name: .location))
            let (code, state) = try fake.approve(location, subject: "ana-sso", email: "someone-else@example.com")
            let linked = try await browser.send(.GET, "/auth/oidc/return?code=\(code)&state=\(state)")
            #expect(linked.headers.first(name: .location) == "/settings/sign-in")
            let page = try await browser.send(.GET, "/settings/sign-in").body.string
            #expect(page.contains("Unlink Authelia") && page.contains("someone-else@example.com"))
            let csrf = try await browser.csrf(from: "/settings/sign-in")
            _ = try await browser.send(.POST, "/settings/sign-in/oidc/unlink", form: ["_csrf": csrf])
            #expect(try await ExternalIdentityModel.query(on: app.db).count() == 0)

            // An account made by single sign-on cannot unlink its only way in.
            let user = UserModel(email: "sso@example.com", passwordHash: "", displayName: nil, timeZone: "UTC")
            try await CreateAccount.store(user, on: app.db, now: Date(), identity: LinkedIdentity(provider: "oidc", subject: "only", email: nil))
            await #expect(throws: AppError.self) {
                try await ExternalSignIn(db: app.db, now: Date(), allowSignup: false).unlink(.oidc, providerName: "Authelia", from: user)
            }
            #expect(try await ExternalIdentityModel.query(on: app.db).count() == 1)
        }
    }

    // MARK: Password sign-in off; deleting an account without a password

    @Test func passwordSignInCanBeTurnedOffOnlyWithAnotherWayIn() async throws {
        #expect(throws: ConfigError.self) { try AppConfig.fromEnvironment(["FORKCAST_PASSWORD_LOGIN": "false"]) }
        let config = try AppConfig.fromEnvironment(["FORKCAST_PASSWORD_LOGIN": "false", "FORKCAST_OIDC_ISSUER": "https://sso.example.com",
                                                    "FORKCAST_OIDC_CLIENT_ID": "forkcast", "FORKCAST_OIDC_ALLOWED_GROUPS": "a, b"])
        #expect(!config.passwordLogin && config.oidc?.allowedGroups == ["a", "b"])
        try await withProvider(.oidc, adjust: { $0.passwordLogin = false }) { app, _ in
            // `forkcast user create` still makes accounts (recovery).
            let user = try await AccountService(db: app.db, passwords: app.password.async, now: Date())
                .register(.init(email: "ops@example.com", password: "correct horse"), allowSignup: false, force: true)
            #expect(user.hasPassword)
            let api = try await app.anonymous.send(.POST, "/api/v1/auth/login", json: ["email": "ops@example.com", "password": "correct horse"])
            #expect(api.status == .forbidden && api.problem?.detail.contains("turned off") == true)
            var browser = Browser(app: app)
            let page = try await browser.send(.GET, "/login").body.string
            #expect(page.contains("Sign in with Authelia") && !page.contains("type=\"password\""))
            let csrf = try await browser.csrf(from: "/login")
            let web = try await browser.send(.POST, "/login", form: ["_csrf": csrf, "email": "ops@example.com", "password": "correct horse"])
            #expect(web.status == .forbidden)
        }
    }

    @Test func anAccountWithoutAPasswordIsDeletedAfterAFreshSignInAndLeavesNothing() async throws {
        let clock = TestClock(Date())
        try await withProvider(.apple, clock: clock) { app, fake in
            let session = try await apple(app.anonymous, try fake.mint(fake.claims(subject: "del-sub", email: "del@example.com", issuedAt: clock.now)))
            let client = Client(app: app, token: try session.json(TestSession.self).token)
            let id = try session.json(TestSession.self).user.id
            // A password does not confirm it; an old sign-in does not either.
            #expect(try await client.send(.DELETE, "/api/v1/me", json: ["password": "x"]).status == .forbidden)
            clock.advance(by: 11 * 60)
            // An older sign-in than the first (a token of the same second would be the same token).
            var old = fake.claims(subject: "del-sub", issuedAt: clock.now.addingTimeInterval(-11 * 60 - 5))
            old["exp"] = Int(clock.now.timeIntervalSince1970) + 600
            let stale = try await client.send(.DELETE, "/api/v1/me", json: ["identityToken": try fake.mint(old)])
            #expect(stale.status == .forbidden && stale.problem?.detail.contains("last ten minutes") == true, "\(stale.body.string)")
            // Someone else's fresh token does not either.
            let other = try await client.send(.DELETE, "/api/v1/me", json: ["identityToken": try fake.mint(fake.claims(subject: "other", issuedAt: clock.now))])
            #expect(other.status == .forbidden)
            #expect(try await UserModel.find(id, on: app.db) != nil)
            let deleted = try await client.send(.DELETE, "/api/v1/me", json: ["identityToken": try fake.mint(fake.claims(subject: "del-sub", issuedAt: clock.now))])
            #expect(deleted.status == .noContent, "\(deleted.body.string)")
            let before = try await AccountDataTests.rowsNaming([id], email: "del-sub", in: app)
            #expect(before.isEmpty, "rows of the deleted account: \(before)")
        }
    }

    @Test func theWebDeletePageAsksAPasswordlessAccountToSignInAgain() async throws {
        try await withProvider(.apple) { app, fake in
            var browser = Browser(app: app)
            var location = try #require(try await browser.send(.GET, "/auth/apple/start").headers.first(name: .location))
            var (code, state) = try fake.approve(location, subject: "web-del", email: "webdel@example.com")
            _ = try await browser.send(.GET, "/auth/apple/return?code=\(code)&state=\(state)")
            let page = try await browser.send(.GET, "/settings/data").body.string
            #expect(page.contains("Confirm with Apple") && !page.contains("name=\"password\""))
            var csrf = try await browser.csrf(from: "/settings/data")
            let early = try await browser.send(.POST, "/settings/data/delete", form: ["_csrf": csrf, "confirm": "yes"])
            let stillThere = try await UserModel.query(on: app.db).count()
            #expect(early.status == .forbidden && stillThere == 1)
            location = try #require(try await browser.send(.GET, "/auth/apple/start?intent=confirm").headers.first(name: .location))
            (code, state) = try fake.approve(location, subject: "web-del")
            let confirmed = try await browser.send(.GET, "/auth/apple/return?code=\(code)&state=\(state)")
            #expect(confirmed.headers.first(name: .location)?.hasPrefix("/settings/data") == true, "\(confirmed.body.string)")
            csrf = try await browser.csrf(from: "/settings/data")
            let gone = try await browser.send(.POST, "/settings/data/delete", form: ["_csrf": csrf, "confirm": "yes"])
            #expect(gone.status == .seeOther, "\(gone.body.string)")
            #expect(try await UserModel.query(on: app.db).count() == 0)
            #expect(try await ExternalIdentityModel.query(on: app.db).count() == 0)
        }
    }

    // MARK: The Swift client

    @Test func theSwiftClientSignsInWithAppleListsMethodsAndDeletesWithAFreshToken() async throws {
        try await withProvider(.apple) { app, fake in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let url = URL(string: "http://127.0.0.1:\(app.http.server.shared.localAddress!.port!)")!
            do {
                let nonce = "raw-nonce-\(UUID())"
                let token = try fake.mint(fake.claims(subject: "client-sub", nonce: IdentityProviders.hashedNonce(nonce), email: "c@example.com"))
                let session = try await ForkcastAPI(baseURL: url, transport: .patient).signInWithApple(identityToken: token, nonce: nonce, displayName: "Cy")
                #expect(session.user.email == "c@example.com")
                let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
                let methods = try await api.signInMethods()
                #expect(!methods.password && methods.identities.map(\.provider) == [.apple] && methods.available == [.apple])
                do {
                    try await api.unlinkIdentity(.apple)
                    Issue.record("the only way in must not be unlinked")
                } catch ForkcastError.problem(let status, _, _, _) {
                    #expect(status == 409)
                }
                try await api.deleteAccount(identityToken: try fake.mint(fake.claims(subject: "client-sub")), nonce: nil)
                await #expect(throws: ForkcastError.self) { try await api.me() }
                #expect(try await UserModel.query(on: app.db).count() == 0)
            } catch {
                await app.server.shutdown()
                throw error
            }
            await app.server.shutdown()
        }
    }
}
