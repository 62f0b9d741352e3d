import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// What an operation's handler answers: its typed answer (encoded here with the operation's success
/// status), or bytes already encoded from that same type (the read cache's kept answers).
enum Reply<Answer: Encodable & Sendable>: Sendable {
    /// `status` stands in for the operation's success status when it declares another answer
    /// (``APIOperation/otherAnswers``).
    case value(Answer, headers: HTTPHeaders = [:], status: HTTPResponseStatus? = nil)
    case encoded(ByteBuffer)
}

/// The builders operations register on: the API's middleware without a path prefix (an operation
/// carries its whole path), with and without a signed-in person.
struct OperationRoutes {
    let open: any RoutesBuilder
    let signedIn: any RoutesBuilder

    /// Registers `Op`'s handler at its path and method: the parameters and body are read as `Op`
    /// declares them (a bad path parameter is a 404, a bad query parameter a 400, a bad body a
    /// 400/415/422 problem), and the answer is written with `Op`'s success status.
    @discardableResult
    func on<Op: APIOperation>(_ operation: Op.Type, body: HTTPBodyStreamStrategy = .collect,
                              use handler: @escaping @Sendable (Request, Op.Parameters, Op.Body) async throws -> Reply<Op.Answer>) -> Route {
        let builder = Op.signedIn ? signedIn : open
        let idempotent = Op.headerParameters.contains(.idempotencyKey)
        return builder.on(HTTPMethod(rawValue: Op.method.rawValue), Op.path.pathComponents, body: body) { req async throws -> Response in
            try APIKeysController.check(Op.self, req)
            guard idempotent else { return try await Self.respond(Op.self, req, handler) }
            return try await IdempotencyKey.answer(req) { req in try await Self.respond(Op.self, req, handler) }
        }.noting(body)
    }

    private static func respond<Op: APIOperation>(_ operation: Op.Type, _ req: Request,
                                                  _ handler: @escaping @Sendable (Request, Op.Parameters, Op.Body) async throws -> Reply<Op.Answer>) async throws -> Response {
        let parameters = try Self.parameters(Op.self, req)
        let body: Op.Body = Op.Body.self == Nothing.self ? Nothing() as! Op.Body : try req.decodeJSON(Op.Body.self)
        let reply = try await handler(req, parameters, body)
        var status = HTTPResponseStatus(statusCode: Op.success.status)
        switch reply {
        case .encoded(let bytes):
            return Response(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .init(buffer: bytes))
        case .value(let answer, let headers, let other):
            if let other { status = other }
            guard Op.Answer.self != Nothing.self else { return Response(status: status, headers: headers) }
            var headers = headers
            var bytes = req.byteBufferAllocator.buffer(capacity: 256)
            try JSONEncoder.forkcastSorted.encode(answer, to: &bytes, headers: &headers)
            return Response(status: status, headers: headers, body: .init(buffer: bytes))
        }
    }

    /// The same, for a handler that answers the typed value alone.
    @discardableResult
    func on<Op: APIOperation>(_ operation: Op.Type, body: HTTPBodyStreamStrategy = .collect,
                              use handler: @escaping @Sendable (Request, Op.Parameters, Op.Body) async throws -> Op.Answer) -> Route {
        on(operation, body: body) { req, parameters, body in .value(try await handler(req, parameters, body)) }
    }

    /// Registers `Op`'s handler for what is not JSON both ways (an upload read as it streams in,
    /// a file, an event stream): the parameters are read as `Op` declares them; the handler reads
    /// the body and writes the whole answer.
    @discardableResult
    func raw<Op: APIOperation>(_ operation: Op.Type, body: HTTPBodyStreamStrategy = .collect,
                               use handler: @escaping @Sendable (Request, Op.Parameters) async throws -> Response) -> Route {
        let builder = Op.signedIn ? signedIn : open
        return builder.on(HTTPMethod(rawValue: Op.method.rawValue), Op.path.pathComponents, body: body) { req async throws -> Response in
            try APIKeysController.check(Op.self, req)
            return try await handler(req, try Self.parameters(Op.self, req))
        }.noting(body)
    }

    static func parameters<Op: APIOperation>(_ operation: Op.Type, _ req: Request) throws -> Op.Parameters {
        var values = req.queryParameters.all
        let inPath = Op.path.parameterNames
        for name in inPath { values[name] = req.parameters.get(name).map { [$0] } }
        do {
            let parameters = try ParameterDecoder.decode(Op.Parameters.self, from: values)
            // The bounds the document declares are the bounds: handlers do not check them again.
            for (name, note) in Op.parameterNotes where note.minimum != nil || note.maximum != nil {
                guard let raw = values[name]?.last, let value = Decimal(string: raw) else { continue }
                if note.minimum.map({ value < $0 }) == true || note.maximum.map({ value > $0 }) == true {
                    let bounds = [note.minimum.map { "at least \($0)" }, note.maximum.map { "at most \($0)" }].compactMap { $0 }.joined(separator: " and ")
                    throw ParameterError(name: name, message: "\(name) must be \(bounds); got \(raw.prefix(40)).")
                }
            }
            return parameters
        } catch let error as ParameterError where inPath.contains(error.name) {
            throw AppError.notFound("Nothing at \(req.url.path) exists in your account: \(error.message)")
        } catch let error as ParameterError {
            throw AppError.badRequest(error.message)
        }
    }
}

extension Request {
    /// The page a list operation asks for, checked (a 400 naming page or per).
    func paging(_ query: PageQuery) throws -> Paging { try Self.paging(page: query.page, per: query.per) }
}

extension PathTemplate {
    /// The route Vapor registers for this path.
    var pathComponents: [PathComponent] {
        segments.map { segment in
            switch segment {
            case .literal(let text): .constant(text)
            case .parameter(let name): .parameter(name)
            }
        }
    }
}

extension Route {
    /// Keeps the most a route collects (`body: .collect(maxSize:)`), so that its 413 problem says
    /// that limit, not the default for JSON bodies: Vapor keeps it inside the route's responder.
    @discardableResult
    func noting(_ body: HTTPBodyStreamStrategy) -> Route {
        if case .collect(let limit?) = body { userInfo["bodyLimit"] = limit.value }
        return self
    }

    /// The most this route collects, when it says (``noting(_:)``).
    var bodyLimit: Int? { userInfo["bodyLimit"] as? Int }
}
