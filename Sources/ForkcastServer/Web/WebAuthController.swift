import Fluent
import ForkcastCore
import Vapor

/// First-visit setup, sign in and sign out for the web app (session cookie).
struct WebAuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.home, use: home)
        routes.get(SiteURL.setup, use: setupForm)
        routes.post(SiteURL.setup, use: setup)
        routes.get(SiteURL.login, use: loginForm)
        routes.post(SiteURL.login, use: login)
        routes.post(SiteURL.logout, use: logout)
    }

    @Sendable func home(req: Request) async throws -> Response {
        if req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.diary().path) }
        let hasUsers = try await req.accounts.hasAccounts()
        return req.redirect(to: hasUsers ? SiteURL.login.path : SiteURL.setup.path)
    }

    @Sendable func setupForm(req: Request) async throws -> Response {
        guard try await !req.accounts.hasAccounts() else { return req.redirect(to: SiteURL.login.path) }
        return SetupPage().render(layout: req.layout("Set up", .none).signedOut).response()
    }

    @Sendable func setup(req: Request) async throws -> Response {
        let form = FormData(req)
        var page = SetupPage(email: form["email"] ?? "", displayName: form["displayName"] ?? "")
        do {
            let user = try await req.accounts.register(
                .init(email: page.email, password: form["password"] ?? "", displayName: page.displayName, timeZone: form["timeZone"]),
                allowSignup: false)
            let device = Self.deviceToken(req)
            try await LoginThrottle(db: req.db, now: req.now)
                .remember(userID: try user.requireID(), client: ClientIdentity(address: req.clientIdentity.address, device: device))
            try await req.rotateSession()
            req.auth.login(user)
            req.session.authenticate(user)
            req.flash("Welcome! Log what you eat here, add the meals you cook under Meals, and plan them in the Planner.")
            return Self.withDeviceCookie(req.redirect(to: SiteURL.diary().path, redirectType: .normal), device)
        } catch AppError.validation(let errors) {
            page.errors = errors
            return page.render(layout: req.layout("Set up", .none).signedOut).response(status: .unprocessableEntity)
        } catch AppError.forbidden {
            return req.redirect(to: SiteURL.login.path)
        } catch let error where StorageFailure.isStorageFailure(error) || (error as? AppError)?.isStorage == true {
            page.message = AppError.storageUnavailable.problem.detail
            return page.render(layout: req.layout("Set up", .none).signedOut).response(status: .serviceUnavailable)
        }
    }

    @Sendable func loginForm(req: Request) async throws -> Response {
        if req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.diary().path) }
        if try await !req.accounts.hasAccounts() { return req.redirect(to: SiteURL.setup.path) }
        return LoginPage(next: req.query[String.self, at: "next"]).render(layout: req.layout("Sign in", .none).signedOut).response()
    }

    @Sendable func login(req: Request) async throws -> Response {
        let form = FormData(req)
        var page = LoginPage(email: form["email"] ?? "", next: form["next"])
        do {
            let device = Self.deviceToken(req)
            let user = try await req.accounts.authenticate(email: page.email, password: form["password"] ?? "",
                                                           client: ClientIdentity(address: req.clientIdentity.address, device: device))
            try await req.rotateSession()
            req.auth.login(user)
            req.session.authenticate(user)
            return Self.withDeviceCookie(req.redirect(to: Self.safeNext(page.next), redirectType: .normal), device)
        } catch let error as AppError {
            page.message = error.problem.detail
            return page.render(layout: req.layout("Sign in", .none).signedOut).response(status: error.status)
        }
    }

    @Sendable func logout(req: Request) async throws -> Response {
        req.auth.logout(UserModel.self)
        try await req.rotateSession()
        return req.redirect(to: SiteURL.login.path, redirectType: .normal)
    }

    /// Only paths on this site: an open redirect would let other sites borrow our sign-in page.
    static func safeNext(_ next: String?) -> String {
        AccountRules.localRedirectPath(next) ?? SiteURL.diary().path
    }

    /// The browser's device token (a random value in a long-lived cookie), or a new one.
    static func deviceToken(_ req: Request) -> String {
        req.clientIdentity.device ?? Tokens.generate()
    }

    /// Sets the device cookie (one year): this browser then counts as known to the account, so
    /// strangers' failed guesses never lock it out (``LoginThrottle``).
    static func withDeviceCookie(_ response: Response, _ device: String) -> Response {
        response.cookies[SecurityHeadersMiddleware.deviceCookie] = HTTPCookies.Value(
            string: device, expires: Date().addingTimeInterval(365 * 24 * 3600), maxAge: 365 * 24 * 3600,
            path: "/", isSecure: false, isHTTPOnly: true, sameSite: .lax)
        return response
    }
}

extension Layout {
    var signedOut: Layout {
        var copy = self
        copy.signedIn = false
        return copy
    }
}

extension AppError {
    var isStorage: Bool {
        if case .storageUnavailable = self { return true }
        return false
    }
}
