import ForkcastContract
import Fluent
import ForkcastCore
import Vapor

/// `/api/v1/auth/*` and `/api/v1/me`.
struct AuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let auth = routes.grouped("auth")
        auth.post("register", use: register)
        auth.post("login", use: login)
        auth.post("apple", use: apple)
        auth.grouped(RequireUserMiddleware()).post("logout", use: logout)
        let me = routes.grouped(RequireUserMiddleware()).grouped("me")
        me.get(use: show)
        me.put(use: update)
    }

    @Sendable func register(req: Request) async throws -> Response {
        let input = try req.decodeJSON(RegisterInput.self)
        let config = req.application.forkcastConfig
        try req.requirePasswordLogin()
        let user = try await req.accounts.register(
            .init(email: input.email, password: input.password, displayName: input.displayName, timeZone: input.timeZone),
            allowSignup: config.allowSignup)
        try await LoginThrottle(db: req.db, now: req.now).remember(userID: try user.requireID(), client: req.clientIdentity)
        return try await session(for: user, req: req, status: .created)
    }

    @Sendable func login(req: Request) async throws -> Response {
        let input = try req.decodeJSON(LoginInput.self)
        try req.requirePasswordLogin()
        let user = try await req.accounts.authenticate(email: input.email, password: input.password, client: req.clientIdentity)
        return try await session(for: user, req: req, status: .ok)
    }

    /// Sign in with Apple from a native app: signs in, creates the account (where sign-up allows), or,
    /// sent with a bearer token, links Apple to that account.
    @Sendable func apple(req: Request) async throws -> Response {
        let input = try req.decodeJSON(AppleSignInInput.self)
        let claims = try await req.verifiedIdentity(.apple, token: input.identityToken, nonce: input.nonce, from: .app)
        let outcome: ExternalSignIn.Outcome
        do {
            outcome = try await req.externalSignIn.complete(.apple, providerName: "Apple", claims: claims,
                                                            signedIn: req.auth.get(UserModel.self), displayName: input.displayName)
        } catch let required as ExternalSignIn.LinkRequired {
            throw required.problem("Apple")
        }
        try await LoginThrottle(db: req.db, now: req.now).remember(userID: try outcome.user.requireID(), client: req.clientIdentity)
        if case .created = outcome { return try await session(for: outcome.user, req: req, status: .created) }
        return try await session(for: outcome.user, req: req, status: .ok)
    }

    /// The sign-in methods' operations (ForkcastContract's ``Identities``).
    static func register(_ routes: OperationRoutes) {
        routes.on(Identities.List.self) { req, _, _ in
            let user = try req.requireUser()
            return SignInMethods(
                password: user.hasPassword,
                identities: try await req.externalSignIn.identities(of: user).map {
                    .init(provider: SignInProvider(rawValue: $0.provider) ?? .oidc, email: $0.email, linkedAt: $0.createdAt)
                },
                available: req.application.identityProviders.providers.keys.sorted { $0.rawValue < $1.rawValue })
        }
        routes.on(Identities.Unlink.self) { req, parameters, _ in
            let user = try req.requireUser()
            let kind = parameters.provider
            try await req.externalSignIn.unlink(kind, providerName: kind == .apple ? "Apple" : "Single sign-on", from: user)
            return Nothing()
        }
    }

    @Sendable func logout(req: Request) async throws -> HTTPStatus {
        if let bearer = req.headers.bearerAuthorization {
            try await Tokens.revoke(bearer.token, on: req.db)
        }
        req.auth.logout(UserModel.self)
        if req.hasSession { try await req.rotateSession() }
        return .noContent
    }

    @Sendable func show(req: Request) async throws -> UserDTO {
        UserDTO(try req.requireUser())
    }

    @Sendable func update(req: Request) async throws -> UserDTO {
        let input = try req.decodeJSON(ProfileInput.self)
        let owner = try req.owner
        try await owner.updateSettings(displayName: input.displayName, timeZone: input.timeZone, currency: input.currency)
        return UserDTO(owner.user)
    }

    private func session(for user: UserModel, req: Request, status: HTTPStatus) async throws -> Response {
        let config = req.application.forkcastConfig
        let now = req.now
        let token = try await Tokens.issue(for: try user.requireID(), on: req.db, now: now, lifetime: config.tokenLifetime)
        let body = SessionDTO(user: UserDTO(user), token: token, expiresAt: now.addingTimeInterval(config.tokenLifetime))
        let response = Response(status: status)
        try response.content.encode(body)
        return response
    }
}
