import NIOConcurrencyHelpers
import Vapor

/// Headers every answer carries: a Content-Security-Policy that allows only Forkcast's own files
/// (no inline script, no event-handler attributes, no framing), no MIME sniffing, no referrer to
/// other sites; on HTTPS also HSTS and `Secure` cookies (session, device, visitor).
///
/// This and the other middlewares that never wait for anything are `Middleware`, not
/// `AsyncMiddleware`: Vapor starts a task for each `AsyncMiddleware` on every request (docs/performance.md).
struct SecurityHeadersMiddleware: Middleware {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'", "manifest-src 'self'", "worker-src 'self'",
    ].joined(separator: "; ")

    let config: AppConfig

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).map { response in addHeaders(to: response, for: request) }
    }

    private func addHeaders(to response: Response, for request: Request) -> Response {
        let headers = [
            ("Content-Security-Policy", Self.contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        for (name, value) in headers {
            // A page may ask for a stricter referrer policy (a shared list's link never leaves it).
            if name == "Referrer-Policy", response.headers.first(name: name) == "no-referrer" { continue }
            response.headers.replaceOrAdd(name: name, value: value)
        }
        if isHTTPS(request) {
            response.headers.replaceOrAdd(name: .strictTransportSecurity, value: "max-age=31536000")
            for name in [Self.sessionCookie, Self.deviceCookie, CSRF.visitorCookie] {
                if var cookie = response.cookies[name] {
                    cookie.isSecure = true
                    response.cookies[name] = cookie
                }
            }
        }
        return response
    }

    /// HTTPS when the public URL says so, or when the trusted proxy reports it.
    func isHTTPS(_ request: Request) -> Bool { Self.isHTTPS(request, config: config) }

    static func isHTTPS(_ request: Request, config: AppConfig) -> Bool {
        if config.publicURLIsHTTPS { return true }
        if request.url.scheme == "https" { return true }
        guard config.trustProxy else { return false }
        return request.headers.first(name: "X-Forwarded-Proto")?.lowercased().split(separator: ",").first?
            .trimmingCharacters(in: .whitespaces) == "https"
    }

    static let sessionCookie = "forkcast-session"
    static let deviceCookie = "forkcast-device"
}

/// A path that exists answered with a method it does not take is a 405 naming the allowed ones,
/// not a 404.
struct MethodNotAllowedMiddleware: Middleware {
    /// The methods of each path that routes name in literal text only, by that path's segments
    /// joined with "/"; read from the routes at the first request (routes do not change after boot).
    private let constantRoutes = NIOLockedValueBox<[String: [HTTPMethod]]?>(nil)

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let path = request.url.path
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        // No file or route has a path segment this long; the file lookup would fail with an error.
        if path.utf8.count > 2048 || parts.contains(where: { $0.utf8.count > 255 }) {
            return request.eventLoop.makeFailedFuture(Abort(.notFound))
        }
        // `/meals/facets` is a path of its own even though `/meals/:id` would match it too.
        let exact = methods(ofConstant: parts.joined(separator: "/"), in: request.application.routes)
        if !exact.isEmpty, !exact.contains(request.method), !(request.method == .HEAD && exact.contains(.GET)) {
            return request.eventLoop.makeFailedFuture(Self.notAllowed(request, allowed: Self.withHead(exact)))
        }
        return next.respond(to: request).flatMapErrorThrowing { error in
            guard let abort = error as? any AbortError, abort.status == .notFound, exact.isEmpty else { throw error }
            let allowed = Self.allowedMethods(parts.map(String.init), in: request.application.routes)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            throw Self.notAllowed(request, allowed: allowed)
        }
    }

    static func notAllowed(_ request: Request, allowed: [HTTPMethod]) -> Abort {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .allow, value: allowed.map(\.rawValue).joined(separator: ", "))
        return Abort(.methodNotAllowed, headers: headers,
                     reason: "\(request.method.rawValue) is not allowed on \(request.url.path); use \(allowed.map(\.rawValue).joined(separator: " or ")).")
    }

    static func withHead(_ methods: [HTTPMethod]) -> [HTTPMethod] {
        methods.contains(.GET) && !methods.contains(.HEAD) ? methods + [.HEAD] : methods
    }

    /// Methods of the routes whose every path component is the literal text of `path`'s segments.
    private func methods(ofConstant path: String, in routes: Routes) -> [HTTPMethod] {
        constantRoutes.withLockedValue { table in
            if table == nil {
                var built: [String: [HTTPMethod]] = [:]
                for route in routes.all {
                    let literal = route.path.map { component -> String? in
                        if case .constant(let value) = component { return value }
                        return nil
                    }
                    guard !literal.contains(nil) else { continue }
                    let key = literal.compactMap { $0 }.joined(separator: "/")
                    if !built[key, default: []].contains(route.method) { built[key, default: []].append(route.method) }
                }
                table = built
            }
            return table?[path] ?? []
        }
    }

    /// Methods of every route that matches the path's segments, for a path no route answered.
    static func allowedMethods(_ parts: [String], in routes: Routes) -> [HTTPMethod] {
        var methods: [HTTPMethod] = []
        for route in routes.all where route.path.count == parts.count {
            let matches = zip(route.path, parts).allSatisfy { component, part in
                switch component {
                case .constant(let value): value == part
                case .parameter: true
                case .anything, .catchall: true
                }
            }
            if matches, !methods.contains(route.method) { methods.append(route.method) }
        }
        if methods.contains(.GET), !methods.contains(.HEAD) { methods.append(.HEAD) }
        return methods
    }
}
