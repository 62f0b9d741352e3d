import FluentKit
import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Maps every error to an HTTP answer in one place: problem+json, never a stack trace.
///
/// Malformed or mistyped JSON is a 400/422 naming the field; a database that cannot be used is a
/// 503 saying nothing was saved; anything unexpected is logged and answered with a plain 500.
struct ProblemMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapErrorThrowing { error in Self.answer(error, to: request) }
    }

    /// The answer to a request that failed with `error`: an HTML page for a browser, problem+json otherwise.
    static func answer(_ error: any Error, to request: Request) -> Response {
        let (problem, headers) = problem(for: error, request: request)
        if request.wantsHTML {
            let layout = Layout(title: problem.title, csrf: request.hasSession ? CSRF.token(for: request) : nil,
                                signedIn: request.auth.has(UserModel.self))
            let response = ErrorPage(problem: problem).render(layout: layout)
                .response(status: HTTPResponseStatus(statusCode: problem.status))
            for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
        return response(problem, headers: headers)
    }

    static func response(_ problem: ProblemDetails, headers extra: HTTPHeaders = [:]) -> Response {
        var headers = extra
        headers.contentType = HTTPMediaType(type: "application", subType: "problem+json", parameters: ["charset": "utf-8"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(problem)) ?? Data()
        return Response(status: HTTPResponseStatus(statusCode: problem.status), headers: headers, body: .init(data: body))
    }

    static func problem(for error: any Error, request: Request) -> (ProblemDetails, HTTPHeaders) {
        switch error {
        case let error as AppError:
            var headers = HTTPHeaders()
            if case .tooManyRequests(_, let seconds) = error { headers.replaceOrAdd(name: .retryAfter, value: String(seconds)) }
            if case .upstreamUnavailable(_, let seconds?, _) = error { headers.replaceOrAdd(name: .retryAfter, value: String(seconds)) }
            if case .unauthorized = error { headers.replaceOrAdd(name: .wwwAuthenticate, value: "Bearer") }
            if case .storageUnavailable = error { request.logger.error("storage unavailable") }
            return (error.problem, headers)
        case let error as ValidationError:
            return (AppError.validation(error).problem, [:])
        case let refusal as Refusal:
            return (AppError(refusal).problem, [:])
        case let error as DecodingError:
            return (decodingProblem(error), [:])
        case let abort as any AbortError:
            let status = abort.status
            let detail: String
            switch status {
            case .payloadTooLarge:
                // The route's own limit (a photo's, a sync push's), not the default for JSON bodies.
                let limit = request.route?.bodyLimit ?? request.application.routes.defaultMaxBodySize.value
                detail = "The request body is too large; send at most \(limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit >> 10) KB")."
            case .notFound: detail = "There is nothing at \(request.url.path)."
            case .unsupportedMediaType: detail = "Send JSON with Content-Type: application/json."
            default: detail = abort.reason
            }
            let type = status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "-")
            return (ProblemDetails(type: type, title: status.reasonPhrase, status: status, detail: detail), abort.headers)
        case let error as any DatabaseError where error.isConstraintFailure:
            // Two requests raced for the same unique value: nothing was saved by the second one.
            return (AppError.conflict("That conflicts with something already saved (perhaps by another request at the same moment). Nothing was changed; reload and try again.").problem, [:])
        default:
            if StorageFailure.isStorageFailure(error) {
                request.logger.error("database error: \(String(reflecting: error))")
                return ((StorageFailure.isDiskFull(error) ? AppError.storageFull : .storageUnavailable).problem, [:])
            }
            request.logger.report(error: error)
            return (ProblemDetails(type: "internal", title: "Something went wrong", status: .internalServerError,
                                   detail: "The server hit an unexpected error; nothing was changed. The error has been logged."), [:])
        }
    }

    /// A 400 for JSON that does not parse, a 422 naming the field for JSON of the wrong shape.
    static func decodingProblem(_ error: DecodingError) -> ProblemDetails {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            fieldName(context.codingPath + (key.map { [$0] } ?? []))
        }
        let field: String, message: String
        switch error {
        case .keyNotFound(let key, let context):
            field = path(context, key)
            message = "\(field) is required."
        case .valueNotFound(_, let context):
            field = path(context)
            message = "\(field) must not be null."
        case .typeMismatch(let type, let context):
            field = path(context)
            message = "\(field.isEmpty ? "The body" : field) must be \(describe(type))."
        case .dataCorrupted(let context):
            field = path(context)
            if field.isEmpty {
                return ProblemDetails(type: "malformed-json", title: "The request could not be read", status: .badRequest,
                                      detail: "The body is not valid JSON. Send a JSON object with Content-Type: application/json.")
            }
            // Foundation's words for a bad id name its own types; a person needs to know what an id looks like.
            message = context.debugDescription.contains("UUID") ? "\(field) must be an id: a UUID such as 0192f0c1-7d3a-7c55-a1b2-3c4d5e6f7a8b."
                : "\(field): \(context.debugDescription)"
        @unknown default:
            return ProblemDetails(type: "malformed-json", title: "The request could not be read", status: .badRequest, detail: "\(error)")
        }
        let validation = ValidationError(field: field, message)
        return AppError.validation(validation).problem
    }

    /// A field as problems name it: `items[2].servings`.
    static func fieldName(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : (String(describing: type).contains("Dictionary") ? "an object" : "a \(type)")
        }
    }
}
