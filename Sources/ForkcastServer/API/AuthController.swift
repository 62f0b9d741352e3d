import ForkcastContract
import Fluent
import ForkcastCore
import Vapor

/// `/api/v1/auth/*` and `/api/v1/me`, as ForkcastContract's ``Auth``, ``Me`` and ``Identities``
/// operations.
enum AuthController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Auth.Register.self) { req, _, input in
            let config = req.application.forkcastConfig
            try req.requirePasswordLogin()
            let user = try await req.accounts.register(
                .init(email: input.email, password: input.password, displayName: input.displayName, timeZone: input.timeZone),
                allowSignup: config.allowSignup, invitation: input.invitation)
            try await LoginThrottle(db: req.db, now: req.now).remember(userID: try user.requireID(), client: req.clientIdentity)
            return try await session(for: user, req: req)
        }
        routes.on(Auth.Login.self) { req, _, input in
            try req.requirePasswordLogin()
            let user = try await req.accounts.authenticate(email: input.email, password: input.password, client: req.clientIdentity)
            return try await session(for: user, req: req)
        }
        // Sign in with Apple from a native app: signs in, creates the account (where sign-up allows),
        // or, sent with a bearer token, links Apple to that account.
        routes.on(Auth.Apple.self) { req, _, input in
            let claims = try await req.verifiedIdentity(.apple, token: input.identityToken, nonce: input.nonce, from: .app)
            let outcome: ExternalSignIn.Outcome
            do {
                outcome = try await req.externalSignIn.complete(.apple, providerName: "Apple", claims: claims,
                                                                signedIn: req.auth.get(UserModel.self), displayName: input.displayName)
            } catch let required as ExternalSignIn.LinkRequired {
                throw required.problem("Apple")
            }
            try await LoginThrottle(db: req.db, now: req.now).remember(userID: try outcome.user.requireID(), client: req.clientIdentity)
            let status: HTTPStatus = if case .created = outcome { .created } else { .ok }
            return .value(try await session(for: outcome.user, req: req), status: status)
        }
        routes.on(Auth.Logout.self) { req, _, _ in
            if let bearer = req.headers.bearerAuthorization {
                try await Tokens.revoke(bearer.token, on: req.db)
            }
            req.auth.logout(UserModel.self)
            if req.hasSession { try await req.rotateSession() }
            return Nothing()
        }

        routes.on(Me.Get.self) { req, _, _ in UserAnswer(try req.requireUser()) }
        routes.on(Me.Update.self) { req, _, input in
            let owner = try req.owner
            try await owner.updateSettings(displayName: input.displayName, timeZone: input.timeZone, currency: input.currency)
            return UserAnswer(owner.user)
        }

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

    private static func session(for user: UserModel, req: Request) async throws -> SessionAnswer {
        let config = req.application.forkcastConfig
        let now = req.now
        let token = try await Tokens.issue(for: try user.requireID(), on: req.db, now: now, lifetime: config.tokenLifetime)
        return SessionAnswer(user: UserAnswer(user), token: token, expiresAt: now.addingTimeInterval(config.tokenLifetime))
    }
}

extension UserAnswer {
    init(_ user: UserModel) {
        self.init(id: user.id!, email: user.email, displayName: user.displayName, timeZone: user.timeZone,
                  currency: user.currency, createdAt: user.createdAt)
    }
}
