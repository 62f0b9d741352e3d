import ForkcastCore
import Foundation
import Vapor

/// Sign in with Apple and OpenID Connect in the browser: the authorization-code flow with
/// a `state`, a `nonce` and (OpenID Connect) a PKCE verifier kept in the browser's session; Settings ›
/// Sign-in methods to link and unlink; and the fresh sign-in that confirms deleting an account
/// without a password.
struct WebIdentityController: RouteCollection {
    /// What the person set out to do.
    enum Intent: String, Codable {
        case signIn = "signin", link, confirm
    }

    /// One sign-in in progress, in the session until it returns (once).
    struct Pending: Codable {
        var provider: IdentityProviders.Kind
        var state: String
        var nonce: String
        var verifier: String?
        var intent: Intent
        var next: String?
        var startedAt: Date
    }

    /// An identity whose email matches an account: linked once that account signs in here.
    struct PendingLink: Codable {
        var provider: IdentityProviders.Kind
        var subject: String
        var email: String?
        var userID: UUID
    }

    static let sessionKey = "identity.pending"
    static let linkKey = "identity.link"
    static let confirmedKey = "identity.confirmedAt"
    /// A sign-in started longer ago than this is refused when it returns.
    static let pendingLifetime: TimeInterval = 10 * 60

    func boot(routes: any RoutesBuilder) throws {
        for kind in IdentityProviders.Kind.allCases {
            routes.get(SiteURL.identityStart(kind)) { req in try await start(req, kind) }
            routes.get(SiteURL.identityReturn(kind)) { req in try await finish(req, kind) }
        }
    }

    /// Signed-in pages: Settings › Sign-in methods.
    struct Settings: RouteCollection {
        func boot(routes: any RoutesBuilder) throws {
            routes.get(SiteURL.signInMethods, use: page)
            for kind in IdentityProviders.Kind.allCases {
                routes.post(SiteURL.unlinkIdentity(kind)) { req in try await unlink(req, kind) }
            }
        }

        @Sendable func page(req: Request) async throws -> Response {
            let user = try req.webUser
            return SignInMethodsPage(user: user, identities: try await req.externalSignIn.identities(of: user),
                                     providers: req.application.identityProviders.webProviders)
                .render(layout: req.layout("Sign-in methods", .settings)).response()
        }

        func unlink(_ req: Request, _ kind: IdentityProviders.Kind) async throws -> Response {
            let user = try req.webUser
            let provider = try req.application.identityProviders.provider(kind)
            do {
                try await req.externalSignIn.unlink(kind, providerName: provider.name, from: user)
                req.flash("\(provider.name) is no longer linked; it cannot sign you in now.")
            } catch let error as AppError {
                req.flash(error.problem.detail)
            }
            return req.redirect(to: SiteURL.signInMethods.path, redirectType: .normal)
        }
    }

    /// Apple answers with a cross-site POST (`response_mode=form_post`), which carries no SameSite
    /// cookie: so no session here. It hands the answer to ``finish`` as a top-level GET, which does
    /// carry the session the state and nonce are bound to. Registered outside the CSRF check (Apple
    /// cannot know our token); the state is the check.
    struct AppleFormPost: RouteCollection {
        func boot(routes: any RoutesBuilder) throws {
            routes.post(SiteURL.identityCallback(.apple), use: receive)
        }

        @Sendable func receive(req: Request) async throws -> Response {
            struct Answer: Decodable { var code: String?; var state: String?; var error: String?; var user: String? }
            let answer = (try? req.content.decode(Answer.self)) ?? Answer()
            // Apple sends the person's name (once, on the first sign-in) as JSON in `user`.
            struct AppleUser: Decodable { struct Name: Decodable { var firstName: String?; var lastName: String? }; var name: Name? }
            let name = answer.user.flatMap { try? JSONDecoder().decode(AppleUser.self, from: Data($0.utf8)) }?.name
                .map { [$0.firstName, $0.lastName].compactMap { $0 }.joined(separator: " ") }
            var items: [(String, String)] = []
            for (key, value) in [("code", answer.code), ("state", answer.state), ("error", answer.error), ("name", name)] {
                if let value, !value.isEmpty { items.append((key, String(value.prefix(key == "name" ? 100 : 2048)))) }
            }
            return req.redirect(to: SiteURL.identityReturn(.apple).path + SiteURL.query(items), redirectType: .normal)
        }
    }

    // MARK: The flow

    func start(_ req: Request, _ kind: IdentityProviders.Kind) async throws -> Response {
        let providers = req.application.identityProviders
        let provider = try providers.provider(kind)
        let intent = req.query[String.self, at: "intent"].flatMap(Intent.init(rawValue:)) ?? .signIn
        if intent != .signIn, !req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.login.path) }
        if intent == .signIn, req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.diary().path) }
        let pending = Pending(provider: kind, state: Tokens.generate(), nonce: Tokens.generate(),
                              verifier: provider.usesPKCE ? Tokens.generate() : nil, intent: intent,
                              next: AccountRules.localRedirectPath(req.query[String.self, at: "next"]), startedAt: req.now)
        let url = try await providers.authorizationURL(provider, redirectURI: redirectURI(req, kind), state: pending.state,
                                                       nonce: pending.nonce, codeVerifier: pending.verifier, http: req.client, now: req.now)
        req.session.data[Self.sessionKey] = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
        return req.redirect(to: url, redirectType: .normal)
    }

    func finish(_ req: Request, _ kind: IdentityProviders.Kind) async throws -> Response {
        let provider = try req.application.identityProviders.provider(kind)
        let pending = req.session.data[Self.sessionKey].flatMap { try? JSONDecoder().decode(Pending.self, from: Data($0.utf8)) }
        req.session.data[Self.sessionKey] = nil  // one return per sign-in
        guard let pending, pending.provider == kind, req.now.timeIntervalSince(pending.startedAt) < Self.pendingLifetime,
              let state = req.query[String.self, at: "state"], IdentityTokenRules.constantTimeEquals(state, pending.state) else {
            return failed(req, "This sign-in expired or was started in another browser. Start again.", status: .badRequest, intent: pending?.intent)
        }
        if let error = req.query[String.self, at: "error"] {
            let cancelled = error == "user_cancelled_authorize" || error == "access_denied"
            return failed(req, cancelled ? "Signing in with \(provider.name) was cancelled." : "\(provider.name) did not sign you in (\(error.prefix(60))).",
                          status: .unauthorized, intent: pending.intent)
        }
        do {
            guard let code = req.query[String.self, at: "code"], !code.isEmpty else {
                throw AppError.badRequest("\(provider.name) sent no sign-in code. Start again.")
            }
            let providers = req.application.identityProviders
            let token = try await providers.exchange(provider, code: code, redirectURI: redirectURI(req, kind),
                                                     codeVerifier: pending.verifier, http: req.client, now: req.now)
            let claims = try await req.verifiedIdentity(kind, token: token, nonce: pending.nonce, from: .server)
            switch pending.intent {
            case .confirm:
                try await ExternalSignIn.requireFresh(claims, kind: kind, of: try req.webUser, on: req.db, now: req.now)
                req.session.data[Self.confirmedKey] = String(req.now.timeIntervalSince1970)
                req.flash("Confirmed with \(provider.name). You can delete the account in the next ten minutes.")
                return req.redirect(to: SiteURL.accountData.path + "#delete-title", redirectType: .normal)
            case .link:
                _ = try await req.externalSignIn.complete(kind, providerName: provider.name, claims: claims, signedIn: try req.webUser, displayName: nil)
                req.flash("\(provider.name) is linked: you can sign in with it now.")
                return req.redirect(to: SiteURL.signInMethods.path, redirectType: .normal)
            case .signIn:
                let outcome: ExternalSignIn.Outcome
                do {
                    outcome = try await req.externalSignIn.complete(kind, providerName: provider.name, claims: claims, signedIn: nil,
                                                                    displayName: req.query[String.self, at: "name"])
                } catch let required as ExternalSignIn.LinkRequired {
                    let link = PendingLink(provider: kind, subject: claims.subject, email: claims.email, userID: required.userID)
                    req.session.data[Self.linkKey] = String(decoding: try JSONEncoder().encode(link), as: UTF8.self)
                    return WebAuthController.render(LoginPage(email: required.email,
                        message: required.problem(provider.name).problem.detail + " Sign in below and \(provider.name) is linked."),
                        req, status: .conflict)
                }
                return try await WebAuthController.signIn(outcome.user, req: req, next: pending.next,
                                                          welcome: { if case .created = outcome { true } else { false } }())
            }
        } catch let error as AppError {
            if case .storageUnavailable = error { throw error }
            return failed(req, error.problem.detail, status: error.status, intent: pending.intent)
        }
    }

    /// Back where the person started, saying what went wrong.
    private func failed(_ req: Request, _ message: String, status: HTTPStatus, intent: Intent?) -> Response {
        switch intent {
        case .link?, .confirm?:
            guard req.auth.has(UserModel.self) else { fallthrough }
            req.flash(message)
            return req.redirect(to: (intent == .confirm ? SiteURL.accountData : SiteURL.signInMethods).path, redirectType: .normal)
        default:
            return WebAuthController.render(LoginPage(message: message), req, status: status)
        }
    }

    /// The address the provider sends the browser back to: Apple's form_post lands on the callback.
    func redirectURI(_ req: Request, _ kind: IdentityProviders.Kind) -> String {
        req.publicBaseURL + (kind == .apple ? SiteURL.identityCallback(kind) : SiteURL.identityReturn(kind)).path
    }
}

extension Request {
    /// This server's address as people reach it: FORKCAST_PUBLIC_URL, else what the request says.
    var publicBaseURL: String {
        let config = application.forkcastConfig
        if let url = config.publicURL { return url.hasSuffix("/") ? String(url.dropLast()) : url }
        let scheme = SecurityHeadersMiddleware.isHTTPS(self, config: config) ? "https" : "http"
        // Only a host name and port: anything else in the header is not ours to echo.
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        let host = headers.first(name: .host).flatMap { $0.isEmpty || $0.count > 255 || $0.unicodeScalars.contains { !allowed.contains($0) } ? nil : $0 } ?? "localhost"
        return "\(scheme)://\(host)"
    }
}
