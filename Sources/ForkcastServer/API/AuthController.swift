import Fluent
import ForkcastCore
import Vapor

/// `/api/v1/auth/*` and `/api/v1/me`.
struct AuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let auth = routes.grouped("auth")
        auth.post("register", use: register)
        auth.post("login", use: login)
        auth.grouped(RequireUserMiddleware()).post("logout", use: logout)
        let me = routes.grouped(RequireUserMiddleware()).grouped("me")
        me.get(use: show)
        me.put(use: update)
    }

    @Sendable func register(req: Request) async throws -> Response {
        let input = try req.decodeJSON(RegisterInput.self)
        let config = req.application.forkcastConfig
        let user = try await req.accounts.register(
            .init(email: input.email, password: input.password, displayName: input.displayName, timeZone: input.timeZone),
            allowSignup: config.allowSignup)
        try await LoginThrottle(db: req.db, now: req.now).remember(userID: try user.requireID(), client: req.clientIdentity)
        return try await session(for: user, req: req, status: .created)
    }

    @Sendable func login(req: Request) async throws -> Response {
        let input = try req.decodeJSON(LoginInput.self)
        let user = try await req.accounts.authenticate(email: input.email, password: input.password, client: req.clientIdentity)
        return try await session(for: user, req: req, status: .ok)
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
        let user = try req.requireUser()
        let input = try req.decodeJSON(ProfileInput.self)
        return UserDTO(try await AccountSettings.update(user, displayName: input.displayName, timeZone: input.timeZone,
                                                        currency: input.currency, db: req.db, now: req.now))
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
