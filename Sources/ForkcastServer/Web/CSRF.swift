import ForkcastCore
import Vapor

/// Cross-site request forgery protection for everything a session cookie can do.
///
/// Each session holds a random token. Forms carry it in `_csrf`; scripts send it as
/// `X-CSRF-Token`. A state-changing request signed in by cookie without the right token is a 403.
/// Bearer-token API calls are not affected (a browser never attaches those by itself).
enum CSRF {
    static let field = "_csrf"
    static let header = "X-CSRF-Token"

    static func token(for request: Request) -> String {
        if let token = request.session.data["csrf"] { return token }
        let token = Tokens.generate()
        request.session.data["csrf"] = token
        return token
    }

    static func isValid(_ request: Request) -> Bool {
        guard let expected = request.hasSession ? request.session.data["csrf"] : nil else { return false }
        let sent = request.headers.first(name: header) ?? bodyToken(request)
            ?? (request.headers.contentType?.subType == "form-data" ? try? request.query.get(String.self, at: field) : nil)  // file uploads
        guard let sent else { return false }
        return IdentityTokenRules.constantTimeEquals(sent, expected)
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
        do { try check(request) } catch { return request.eventLoop.makeFailedFuture(error) }
        return next.respond(to: request)
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
