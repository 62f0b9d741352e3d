import Fluent
import ForkcastApp
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
        routes.get(SiteURL.signup(), use: signupForm)
        routes.post(SiteURL.signup(), use: signup)
    }

    // --- Creating an account: open sign-up, or an invitation's one-time link ---

    @Sendable func signupForm(req: Request) async throws -> Response {
        if req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.diary().path) }
        if try await !req.accounts.hasAccounts() { return req.redirect(to: SiteURL.setup.path) }
        let invite = req.query[String.self, at: "invite"].flatMap { $0.trimmed.isEmpty ? nil : $0.trimmed }
        let layout = req.layout("Create account", .none).signedOut
        guard req.application.forkcastConfig.passwordLogin else {
            return SignupPage.closed(layout: layout, message: "This server signs in only with its sign-in providers; create your account from the sign-in page.").response(status: .forbidden)
        }
        if let invite {
            // Checked again when the account is created; this only spares a form that cannot work.
            guard try await req.inviteMember.isOpen(tokenHash: Tokens.hash(invite)) else {
                return SignupPage.closed(layout: layout, message: Invitation.notGood).response(status: .notFound)
            }
        } else if !req.application.forkcastConfig.allowSignup {
            return SignupPage.closed(layout: layout, message: CreateAccount.signupClosedForPeople).response(status: .forbidden)
        }
        return SignupPage(invite: invite).render(layout: layout).response()
    }

    @Sendable func signup(req: Request) async throws -> Response {
        let form = FormData(req)
        let invite = (form["invite"] ?? "").trimmed
        var page = SignupPage(email: form["email"] ?? "", displayName: form["displayName"] ?? "", invite: invite.isEmpty ? nil : invite)
        let layout = req.layout("Create account", .none).signedOut
        do {
            try req.requirePasswordLogin()
            let user = try await req.accounts.register(
                .init(email: page.email, password: form["password"] ?? "", displayName: page.displayName, timeZone: form["timeZone"]),
                allowSignup: req.application.forkcastConfig.allowSignup, invitation: page.invite)
            return try await Self.signIn(user, req: req, next: nil, welcome: true)
        } catch AppError.validation(let errors) {
            page.errors = errors
            return page.render(layout: layout).response(status: .unprocessableEntity)
        } catch let error as AppError {
            if case .forbidden = error, page.invite == nil {
                return SignupPage.closed(layout: layout, message: CreateAccount.signupClosedForPeople).response(status: .forbidden)
            }
            page.message = error.problem.detail
            return page.render(layout: layout).response(status: error.status)
        }
    }

    @Sendable func home(req: Request) async throws -> Response {
        if req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.diary().path) }
        let hasUsers = try await req.accounts.hasAccounts()
        return req.redirect(to: hasUsers ? SiteURL.login.path : SiteURL.setup.path)
    }

    @Sendable func setupForm(req: Request) async throws -> Response {
        guard try await !req.accounts.hasAccounts() else { return req.redirect(to: SiteURL.login.path) }
        return render(SetupPage(), req)
    }

    private func render(_ page: SetupPage, _ req: Request, status: HTTPStatus = .ok) -> Response {
        page.render(layout: req.layout("Set up", .none).signedOut, passwordLogin: req.application.forkcastConfig.passwordLogin,
                    providers: req.application.identityProviders.webProviders).response(status: status)
    }

    /// The sign-in page with this server's ways in (also where a provider's sign-in ends when it fails).
    static func render(_ page: LoginPage, _ req: Request, status: HTTPStatus = .ok) -> Response {
        var page = page
        page.signupOpen = req.application.forkcastConfig.allowSignup
        return page.render(layout: req.layout("Sign in", .none).signedOut, passwordLogin: req.application.forkcastConfig.passwordLogin,
                    providers: req.application.identityProviders.webProviders).response(status: status)
    }

    @Sendable func setup(req: Request) async throws -> Response {
        let form = FormData(req)
        var page = SetupPage(email: form["email"] ?? "", displayName: form["displayName"] ?? "")
        do {
            try req.requirePasswordLogin()
            let user = try await req.accounts.register(
                .init(email: page.email, password: form["password"] ?? "", displayName: page.displayName, timeZone: form["timeZone"]),
                allowSignup: false)
            return try await Self.signIn(user, req: req, next: nil, welcome: true)
        } catch AppError.validation(let errors) {
            page.errors = errors
            return render(page, req, status: .unprocessableEntity)
        } catch AppError.forbidden(let message) {
            guard try await req.accounts.hasAccounts() else {
                page.message = message
                return render(page, req, status: .forbidden)
            }
            return req.redirect(to: SiteURL.login.path)
        } catch let error where StorageFailure.isStorageFailure(error) || (error as? AppError)?.isStorage == true {
            page.message = AppError.storageUnavailable.problem.detail
            return render(page, req, status: .serviceUnavailable)
        }
    }

    @Sendable func loginForm(req: Request) async throws -> Response {
        if req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.diary().path) }
        if try await !req.accounts.hasAccounts() { return req.redirect(to: SiteURL.setup.path) }
        return Self.render(LoginPage(next: req.query[String.self, at: "next"]), req)
    }

    @Sendable func login(req: Request) async throws -> Response {
        let form = FormData(req)
        var page = LoginPage(email: form["email"] ?? "", next: form["next"])
        do {
            try req.requirePasswordLogin()
            let device = Self.deviceToken(req)
            let user = try await req.accounts.authenticate(email: page.email, password: form["password"] ?? "",
                                                           client: ClientIdentity(address: req.clientIdentity.address, device: device))
            // An Apple or OpenID Connect sign-in that matched this account's email waits for this
            // sign-in to be linked (never silently).
            let waiting = req.session.data[WebIdentityController.linkKey]
                .flatMap { try? JSONDecoder().decode(WebIdentityController.PendingLink.self, from: Data($0.utf8)) }
            var linked: String?
            if let waiting, waiting.userID == user.id, let provider = try? req.application.identityProviders.provider(waiting.provider) {
                try await req.externalSignIn.link(waiting.provider, providerName: provider.name, subject: waiting.subject,
                                                  email: waiting.email, to: user)
                linked = provider.name
            }
            let response = try await Self.signIn(user, req: req, next: page.next, welcome: false, device: device, rememberClient: false)
            if let linked { req.flash("\(linked) is linked to your account: you can sign in with it from now on.") }
            return response
        } catch let error as AppError {
            page.message = error.problem.detail
            return Self.render(page, req, status: error.status)
        }
    }

    /// Starts a signed-in session for `user` (a password, Apple or OpenID Connect sign-in): a new
    /// session id, the device cookie, and on to `next` (or the diary).
    static func signIn(_ user: UserModel, req: Request, next: String?, welcome: Bool, device: String? = nil,
                       rememberClient: Bool = true) async throws -> Response {
        let device = device ?? deviceToken(req)
        if rememberClient {  // a password sign-in remembered it already (``AccountService/authenticate``)
            try await LoginThrottle(db: req.db, now: req.now)
                .remember(userID: try user.requireID(), client: ClientIdentity(address: req.clientIdentity.address, device: device))
        }
        try await req.rotateSession()
        req.auth.login(user)
        req.session.authenticate(user)
        if welcome {
            req.flash("Welcome! Log what you eat here, add the meals you cook under Meals, and plan them in the Planner.")
        }
        return withDeviceCookie(req.redirect(to: safeNext(next), redirectType: .normal), device)
    }

    @Sendable func logout(req: Request) async throws -> Response {
        req.auth.logout(UserModel.self)
        // The session ends and no new one starts: a visitor needs no server state.
        if req.hasSession, let old = req.session.id {
            try await req.db.write { tx in try await WebSessionModel.query(on: tx).filter(\.$keyHash == Tokens.hash(old.string)).delete() }
        }
        req.session.destroy()
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
