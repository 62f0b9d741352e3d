@_exported import ForkcastContract
import ForkcastCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; swappable so apps can use their own networking and tests can cut the
/// line at the worst moment.
public protocol ForkcastTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The platform's URLSession.
public struct URLSessionTransport: ForkcastTransport {
    public let session: URLSession
    public init(session: URLSession = .shared) { self.session = session }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ForkcastError.transport("not an HTTP answer") }
        return (data, http)
    }
}

/// What went wrong, as a person or an app can act on it.
public enum ForkcastError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an RFC 9457 problem.
    case problem(status: Int, title: String, detail: String, fields: [ValidationError.Field])
    /// The server could not be reached (nothing is known to have been saved).
    case transport(String)
    /// The answer could not be read.
    case decoding(String)

    public var description: String {
        switch self {
        case .problem(let status, let title, let detail, _): "\(title) (\(status)): \(detail)"
        case .transport(let why): "Forkcast could not be reached: \(why)"
        case .decoding(let why): "Unexpected answer: \(why)"
        }
    }
}

/// Typed calls for Forkcast's API v1: each sends one of ForkcastContract's operations with the
/// contract's request and answer types (Foundation only, so an iOS or macOS app links it beside
/// ForkcastCore without a generator plugin in its build).
public struct ForkcastAPI: Sendable {
    public let baseURL: URL
    public var token: String?
    public let transport: any ForkcastTransport

    public init(baseURL: URL, token: String? = nil, transport: any ForkcastTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
    }

    // MARK: Shapes

    /// The signed-in person (ForkcastContract's answer).
    public typealias User = UserAnswer
    /// A session: the bearer token and who it signs in.
    public typealias Session = SessionAnswer

    /// A meal of the library (ForkcastContract's answer).
    public typealias Meal = MealAnswer
    /// A food of the library (ForkcastContract's answer).
    public typealias Food = FoodAnswer

    /// One page of a list (ForkcastContract's paging envelope).
    public typealias Page<Item: Codable & Sendable> = ForkcastContract.Page<Item>

    /// One change of the feed, its record as JSON (ForkcastContract's).
    public typealias Change = SyncChange<JSON>
    public typealias Changes = SyncChanges<JSON>
    /// One change a device pushes.
    public typealias Mutation = PushedMutation
    public typealias PushResult = SyncPushResult

    /// A meal planned on a day, in a meal slot or none (ForkcastContract's answer).
    public typealias Assignment = AssignmentAnswer

    /// Something eaten, as the diary keeps it (ForkcastContract's answer).
    public typealias DiaryEntry = DiaryEntryAnswer
    public typealias PhotoRef = PhotoRefAnswer
    public typealias Photo = PhotoAnswer

    /// A meal type (seed 004): the id stays when it is renamed.
    /// A meal type (ForkcastContract's answer); `MealType.Window` is its suggestion window.
    public typealias MealType = MealTypeAnswer

    /// What was eaten under one meal type on one day (ForkcastContract's answer).
    public typealias Occasion = OccasionAnswer

    /// An RFC 9457 problem answer (ForkcastContract's).
    public typealias Problem = ForkcastContract.Problem

    // MARK: Operations of ForkcastContract

    /// Calls one operation of API v1 as ForkcastContract defines it: its path and query from
    /// `parameters`, its body, and its typed answer. An operation removed from the contract no longer
    /// builds here.
    public func send<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, body: Op.Body) async throws -> Op.Answer {
        precondition(Op.rawBody == nil && Op.rawAnswer == nil, "\(Op.id) sends or answers bytes: call upload or download")
        let data = try await bytes(Op.self, parameters, body: Op.Body.self == Nothing.self ? nil : try Self.encoder.encode(body),
                                   contentType: "application/json")
        if Op.Answer.self == Nothing.self { return Nothing() as! Op.Answer }
        return try Self.answer(Op.Answer.self, from: data)
    }

    /// Calls an operation whose body is bytes (``APIOperation/rawBody``: a photo, an archive).
    public func upload<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, _ data: Data, contentType: String,
                                         timeout: TimeInterval = 120) async throws -> Op.Answer {
        let answer = try await bytes(Op.self, parameters, body: data, contentType: contentType, timeout: timeout)
        if Op.Answer.self == Nothing.self { return Nothing() as! Op.Answer }
        return try Self.answer(Op.Answer.self, from: answer)
    }

    /// Calls an operation whose answer is bytes (``APIOperation/rawAnswer``: a file).
    public func download<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, timeout: TimeInterval = 120) async throws -> Data {
        try await bytes(Op.self, parameters, body: nil, contentType: "application/json", timeout: timeout)
    }

    /// The answer's bytes of one operation: its path and query from `parameters`.
    private func bytes<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters, body: Data?, contentType: String,
                                         timeout: TimeInterval = 30) async throws -> Data {
        var values: [String: String] = [:]
        var query: [URLQueryItem] = []
        let inPath = Set(Op.path.parameterNames)
        for (name, value) in try ParameterEncoder.encode(parameters) {
            if inPath.contains(name) { values[name] = value } else { query.append(URLQueryItem(name: name, value: value)) }
        }
        let path = String(Op.path.filled(values).dropFirst())
        guard Op.headerParameters.contains(.idempotencyKey) else {
            return try await send(Op.method.rawValue, path, query: query, body: body, contentType: contentType, timeout: timeout)
        }
        // A change is sent again once, under the same key, when its answer never came or its
        // outcome is unknown: the server then answers as it did the first time, making nothing twice.
        let key = ["Idempotency-Key": UUID().uuidString]
        do {
            return try await send(Op.method.rawValue, path, query: query, body: body, contentType: contentType, timeout: timeout, headers: key)
        } catch ForkcastError.transport(_), ForkcastError.problem(status: 503, title: _, detail: _, fields: _) {
            return try await send(Op.method.rawValue, path, query: query, body: body, contentType: contentType, timeout: timeout, headers: key)
        }
    }

    public func send<Op: APIOperation>(_ operation: Op.Type, _ parameters: Op.Parameters) async throws -> Op.Answer where Op.Body == Nothing {
        try await send(operation, parameters, body: Nothing())
    }

    public func send<Op: APIOperation>(_ operation: Op.Type, body: Op.Body) async throws -> Op.Answer where Op.Parameters == Nothing {
        try await send(operation, Nothing(), body: body)
    }

    /// A page of weighings, newest first.
    public func weights(page: Int? = nil, per: Int? = nil) async throws -> Page<WeightEntry> {
        try await send(Weights.List.self, PageQuery(page: page, per: per))
    }

    /// Records a weighing (kg, or pounds when kg is nil); refused with 409 when one exists at that instant.
    public func recordWeight(_ input: WeightInput) async throws -> WeightEntry {
        try await send(Weights.Record.self, body: input)
    }

    public func deleteWeight(_ id: UUID) async throws {
        _ = try await send(Weights.Delete.self, IDParameter(id))
    }

    // MARK: Plumbing

    /// Instants with milliseconds, so two changes in the same second keep their order.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Instant.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an instant: \(text)"))
            }
            return date
        }
        return decoder
    }()

    /// An answer's body as `T`; one that does not read is ``ForkcastError/decoding(_:)``.
    private static func answer<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do { return try decoder.decode(T.self, from: data) } catch { throw ForkcastError.decoding(String(describing: error)) }
    }

    /// The answer's bytes; a problem answer is thrown as ``ForkcastError/problem(status:title:detail:fields:)``.
    private func send(_ method: String, _ path: String, query: [URLQueryItem], body: Data?, contentType: String,
                      timeout: TimeInterval = 30, headers: [String: String] = [:]) async throws -> Data {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        // An operation's path is already percent-encoded (PathTemplate.filled): appended as it is.
        components.percentEncodedPath = String(components.percentEncodedPath.trimmingSuffix("/")) + "/" + path
        if !query.isEmpty {
            components.queryItems = query
            // URLComponents leaves "+" as it is, which a server reads as a space ("C++" would be "C  ").
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let data: Data, response: HTTPURLResponse
        do { (data, response) = try await transport.send(request) } catch let error as ForkcastError { throw error } catch {
            throw ForkcastError.transport(String(describing: error))
        }
        guard (200..<300).contains(response.statusCode) else {
            if let problem = try? Self.decoder.decode(Problem.self, from: data) {
                throw ForkcastError.problem(status: problem.status, title: problem.title, detail: problem.detail, fields: problem.errors ?? [])
            }
            throw ForkcastError.problem(status: response.statusCode, title: "HTTP \(response.statusCode)", detail: String(decoding: data.prefix(300), as: UTF8.self), fields: [])
        }
        return data
    }
}

/// Records travel as JSON in the shape of their resource (ForkcastCore's JSONValue).
public typealias JSON = JSONValue

extension StringProtocol {
    /// The text without one trailing `suffix` (a base URL's "/").
    func trimmingSuffix(_ suffix: String) -> SubSequence { hasSuffix(suffix) ? dropLast(suffix.count) : self[...] }
}
