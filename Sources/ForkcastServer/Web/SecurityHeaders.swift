import Vapor

/// Headers every answer carries: a Content-Security-Policy that allows only Forkcast's own files
/// (no inline script, no event-handler attributes, no framing), no MIME sniffing, no referrer to
/// other sites; on HTTPS also HSTS and a `Secure` session cookie.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
        "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'", "manifest-src 'self'", "worker-src 'self'",
    ].joined(separator: "; ")

    let config: AppConfig

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        let headers = [
            ("Content-Security-Policy", Self.contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
        if isHTTPS(request) {
            response.headers.replaceOrAdd(name: .strictTransportSecurity, value: "max-age=31536000")
            for name in [Self.sessionCookie, Self.deviceCookie] {
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
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // No file or route has a path segment this long; the file lookup would fail with an error.
        if request.url.path.utf8.count > 2048 || request.url.path.split(separator: "/").contains(where: { $0.utf8.count > 255 }) {
            throw Abort(.notFound)
        }
        // `/meals/facets` is a path of its own even though `/meals/:id` would match it too.
        let exact = Self.constantRoutes(for: request)
        if !exact.isEmpty, !exact.contains(request.method), !(request.method == .HEAD && exact.contains(.GET)) {
            throw Self.notAllowed(request, allowed: Self.withHead(exact))
        }
        do {
            return try await next.respond(to: request)
        } catch let abort as any AbortError where abort.status == .notFound {
            let allowed = Self.allowedMethods(for: request)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw abort }
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

    /// Methods of the routes whose every path component is this path's literal text.
    static func constantRoutes(for request: Request) -> [HTTPMethod] {
        let parts = request.url.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var methods: [HTTPMethod] = []
        for route in request.application.routes.all where route.path.count == parts.count {
            let exact = zip(route.path, parts).allSatisfy { component, part in
                if case .constant(let value) = component { return value == part }
                return false
            }
            if exact, !methods.contains(route.method) { methods.append(route.method) }
        }
        return methods
    }

    static func allowedMethods(for request: Request) -> [HTTPMethod] {
        let exact = constantRoutes(for: request)
        if !exact.isEmpty { return withHead(exact) }
        let parts = request.url.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var methods: [HTTPMethod] = []
        for route in request.application.routes.all where route.path.count == parts.count {
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
