import Crypto
import ForkcastCore
import Vapor

/// Cross-site request forgery protection for everything a session cookie can do.
///
/// Each session holds a random token. Forms carry it in `_csrf`; scripts send it as
/// `X-CSRF-Token`. A state-changing request signed in by cookie without the right token is a 403.
/// Bearer-token API calls are not affected (a browser never attaches those by itself).
///
/// Visitors (the sign-in and setup pages) get no server state: their token is a random value in a
/// cookie of its own (``visitorCookie``, SameSite=Strict, HttpOnly) that the form repeats (double
/// submit), so looking at /login or /setup stores nothing.
enum CSRF {
    static let field = "_csrf"
    static let header = "X-CSRF-Token"

    static let visitorCookie = "forkcast-visitor"

    private struct VisitorToken: StorageKey { typealias Value = String }

    static func token(for request: Request) -> String {
        // A stored session (or a signed-in person) keeps its token there; anyone else is a visitor,
        // also one whose stale or made-up session cookie found no session.
        guard (request.hasSession && request.session.id != nil) || request.auth.has(UserModel.self) else { return visitorToken(for: request) }
        // A stored session's token follows from its id: nothing to store, so two requests at once
        // (a page and the one before it, still finishing) cannot each store a different one and
        // leave a form with the token that lost.
        if request.hasSession, let id = request.session.id { return derived(id.string) }
        if let token = request.session.data["csrf"] { return token }
        let token = Tokens.generate()
        request.session.data["csrf"] = token
        return token
    }

    /// The token of a stored session: a hash of its (secret, HttpOnly) id under a purpose of its own,
    /// so the session table's key hash says nothing about it.
    static func derived(_ sessionID: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(("forkcast-csrf\u{0}" + sessionID).utf8))))
    }

    /// The visitor's token: the cookie's, or a new one that ``CSRFMiddleware`` sets on the answer.
    private static func visitorToken(for request: Request) -> String {
        if let kept = request.storage[VisitorToken.self] { return kept }
        let token = request.cookies[visitorCookie]?.string.nilIfLooksWrong ?? Tokens.generate()
        request.storage[VisitorToken.self] = token
        return token
    }

    static func setVisitorCookie(on response: Response, for request: Request) {
        guard let token = request.storage[VisitorToken.self], request.cookies[visitorCookie]?.string != token else { return }
        response.cookies[visitorCookie] = HTTPCookies.Value(string: token, maxAge: 24 * 3600, path: "/", isSecure: false,
                                                            isHTTPOnly: true, sameSite: .strict)
    }

    static func isValid(_ request: Request) -> Bool {
        guard let sent = request.headers.first(name: header) ?? bodyToken(request) else {
            // A file's form streams in after this check, its token with it: the browser's word
            // that the form is this site's stands in (no token in the upload's address).
            return request.headers.contentType?.subType == "form-data" && (isSameOrigin(request) || isShareSheet(request))
        }
        if request.hasSession, let id = request.session.id, IdentityTokenRules.constantTimeEquals(sent, derived(id.string)) { return true }
        // The token of a page made in the request that started the session (its id came later).
        if request.hasSession, let expected = request.session.data["csrf"], IdentityTokenRules.constantTimeEquals(sent, expected) { return true }
        // Nobody signed in: the visitor's cookie and the form must carry the same token.
        guard !request.auth.has(UserModel.self), let visitor = request.cookies[visitorCookie]?.string.nilIfLooksWrong else { return false }
        return IdentityTokenRules.constantTimeEquals(sent, visitor)
    }

    /// `Sec-Fetch-Site: same-origin`, which no page can set on a request it makes; from a browser
    /// that does not send it, an `Origin` naming this server as the request reached it.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers.first(name: "Sec-Fetch-Site") { return site == "same-origin" }
        guard let origin = request.headers.first(name: .origin).flatMap(URLComponents.init(string:)), let host = origin.host,
              let served = request.headers.first(name: "X-Forwarded-Host") ?? request.headers.first(name: .host) else { return false }
        return served.lowercased() == (host + (origin.port.map { ":\($0)" } ?? "")).lowercased()
    }

    /// The phone's share sheet posting to the installed app's share target: `Sec-Fetch-Site: none`
    /// (the person started it, no page did), and only to the target, which reads and saves nothing.
    static func isShareSheet(_ request: Request) -> Bool {
        request.url.path == SiteURL.importShared.path && request.headers.first(name: "Sec-Fetch-Site") == "none"
    }

    private struct TokenField: Decodable { var _csrf: String }

    /// The token in a form body. A multipart body is read with ``MultipartForm``, never with
    /// Vapor's decoder: multipart-kit traps on some malformed forms, and this runs before sign-in.
    private static func bodyToken(_ request: Request) -> String? {
        if request.headers.contentType?.type == "multipart" {
            guard let boundary = request.headers.contentType?.parameters["boundary"], let body = request.body.data,
                  let form = try? MultipartForm(body: body, boundary: boundary) else { return nil }
            return form.first(field).map { String(decoding: $0.data, as: UTF8.self) }
        }
        return (try? request.content.get(String.self, at: field)) ?? (try? request.content.decode(TokenField.self)._csrf)
    }
}

/// Rejects unsafe requests that arrive with a session cookie but without the session's token.
struct CSRFMiddleware: Middleware {
    enum Mode: Sendable {
        /// Web pages: every unsafe request needs the token.
        case web
        /// The API: only requests signed in by the session cookie (not by a bearer token) need it.
        case api
    }

    var mode: Mode = .web

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        // A page's form carries its token in the body, which may not have arrived with the headers
        // (a browser sends a longer form in a packet of its own): read it first, as the route would.
        if mode == .web, !CSRFMiddleware.safe.contains(request.method), request.headers.contentType == .urlEncodedForm,
           request.headers.first(name: CSRF.header) == nil, request.body.data == nil {
            return request.body.collect(max: request.application.routes.defaultMaxBodySize.value).flatMap { _ in
                checkAndRespond(to: request, chainingTo: next)
            }
        }
        return checkAndRespond(to: request, chainingTo: next)
    }

    private static let safe: [HTTPMethod] = [.GET, .HEAD, .OPTIONS]

    private func checkAndRespond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        do { try check(request) } catch { return request.eventLoop.makeFailedFuture(error) }
        return next.respond(to: request).map { response in
            CSRF.setVisitorCookie(on: response, for: request)
            return response
        }
    }

    private func check(_ request: Request) throws {
        let safe: [HTTPMethod] = [.GET, .HEAD, .OPTIONS]
        if !safe.contains(request.method) {
            let needsToken = switch mode {
            case .web: true
            // Sessions are only loaded without an Authorization header, so a signed-in user with no
            // such header came by cookie; a present but invalid header signs nobody in (401).
            case .api: request.headers[.authorization].isEmpty && request.auth.has(UserModel.self)
            }
            if needsToken, !CSRF.isValid(request) {
                throw AppError.forbidden("This form has expired or did not come from Forkcast. Reload the page and try again.")
            }
        }
    }
}

private extension String {
    /// A token as ``Tokens/generate()`` makes them (base64url, 43 characters); anything else is ignored.
    var nilIfLooksWrong: String? {
        count == 43 && allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) ? self : nil
    }
}
