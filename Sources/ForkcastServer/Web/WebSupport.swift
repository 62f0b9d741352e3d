import Fluent
import SQLKit
import Vapor

extension Request {
    /// The signed-in user of a web page (the guard makes sure there is one).
    var webUser: UserModel {
        get throws { try requireUser() }
    }

    /// True when a script asked only for one part of a page (`X-Fragment: name`).
    func fragment(_ name: String) -> Bool {
        headers.first(name: "X-Fragment") == name
    }

    /// Whether the caller is a browser page rather than an API client.
    var wantsHTML: Bool {
        let path = url.path
        if path.hasPrefix("/api/") || path == "/healthz" || headers.first(name: "X-Fragment") != nil { return false }
        return true
    }

    /// A flash message shown once on the next page.
    func flash(_ message: String) { session.data["flash"] = message }

    func takeFlash() -> String? {
        guard hasSession, let message = session.data["flash"] else { return nil }
        session.data["flash"] = nil
        return message
    }

    func layout(_ title: String, _ section: Layout.Section, scripts: [String] = [], cursor: String? = nil) -> Layout {
        Layout(title: title, section: section, csrf: CSRF.token(for: self), signedIn: auth.has(UserModel.self),
               account: auth.get(UserModel.self)?.id, flash: takeFlash(), scripts: scripts, cursor: cursor)
    }

    /// Where the signed-in person's change feed stands. A page that follows changes (Today, the
    /// planner, a shopping list) reads it before its contents and opens its event stream from it,
    /// so a change made between the page's reads and the stream's start still reaches it.
    func changesCursor() async throws -> String {
        SyncController.cursor(try await feedHead(of: try requireUserID()))
    }
}

/// Sends visitors who are not signed in to the setup page (no account yet) or the sign-in page.
struct WebAuthGuard: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.auth.has(UserModel.self) { return try await next.respond(to: request) }
        if try await !request.accounts.hasAccounts() {
            return request.redirect(to: SiteURL.setup.path)
        }
        let next = request.url.path + (request.url.query.map { "?" + $0 } ?? "")
        return request.redirect(to: SiteURL.login.path + SiteURL.query([("next", next)]))
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
