import Fluent
import ForkcastCore
import Vapor

/// First-visit setup, sign in and sign out for the web app (session cookie).
struct WebAuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(use: home)
        routes.get("setup", use: setupForm)
        routes.post("setup", use: setup)
        routes.get("login", use: loginForm)
        routes.post("login", use: login)
        routes.post("logout", use: logout)
    }

    @Sendable func home(req: Request) async throws -> Response {
        if req.auth.has(UserModel.self) { return req.redirect(to: "/diary") }
        let hasUsers = try await UserModel.query(on: req.db).count() > 0
        return req.redirect(to: hasUsers ? SiteURL.login.path : SiteURL.setup.path)
    }

    @Sendable func setupForm(req: Request) async throws -> Response {
        guard try await UserModel.query(on: req.db).count() == 0 else { return req.redirect(to: SiteURL.login.path) }
        return SetupPage().render(layout: req.layout("Set up", .none).signedOut).response()
    }

    @Sendable func setup(req: Request) async throws -> Response {
        let form = FormData(req)
        var page = SetupPage(email: form["email"] ?? "", displayName: form["displayName"] ?? "")
        do {
            let user = try await req.accounts.register(
                .init(email: page.email, password: form["password"] ?? "", displayName: page.displayName, timeZone: form["timeZone"]),
                allowSignup: false)
            req.auth.login(user)
            req.session.authenticate(user)
            req.flash("Welcome! Start by adding a few meals you cook.")
            return req.redirect(to: SiteURL.meals().path, redirectType: .normal)
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
        if req.auth.has(UserModel.self) { return req.redirect(to: SiteURL.plan(start: nil).path) }
        if try await UserModel.query(on: req.db).count() == 0 { return req.redirect(to: SiteURL.setup.path) }
        return LoginPage(next: req.query[String.self, at: "next"]).render(layout: req.layout("Sign in", .none).signedOut).response()
    }

    @Sendable func login(req: Request) async throws -> Response {
        let form = FormData(req)
        var page = LoginPage(email: form["email"] ?? "", next: form["next"])
        do {
            let user = try await req.accounts.authenticate(email: page.email, password: form["password"] ?? "")
            req.auth.login(user)
            req.session.authenticate(user)
            return req.redirect(to: Self.safeNext(page.next), redirectType: .normal)
        } catch let error as AppError {
            page.message = error.problem.detail
            return page.render(layout: req.layout("Sign in", .none).signedOut).response(status: error.status)
        }
    }

    @Sendable func logout(req: Request) async throws -> Response {
        req.auth.logout(UserModel.self)
        req.session.unauthenticate(UserModel.self)
        req.session.destroy()
        return req.redirect(to: SiteURL.login.path, redirectType: .normal)
    }

    /// Only local paths: an open redirect would let other sites borrow our sign-in page.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\") else { return SiteURL.plan(start: nil).path }
        return next
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
