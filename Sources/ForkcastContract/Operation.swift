import ForkcastCore
import Foundation

/// One operation of API v1, defined once: the server registers its handler from it, ForkcastClient
/// calls it through it, and the OpenAPI document describes it from it. Removing an operation breaks
/// the build of whatever still names it.
///
/// `Parameters` holds the path and query parameters (a name in the ``OperationSpec/path`` written `{name}` is a path
/// parameter, every other key a query parameter), `Body` the JSON request body, `Answer` the JSON
/// answer of its ``OperationSpec/success``. ``Nothing`` stands for none of them.
public protocol APIOperation: Sendable {
    associatedtype Parameters: Codable & Sendable = Nothing
    associatedtype Body: Codable & Sendable = Nothing
    associatedtype Answer: Codable & Sendable = Nothing

    /// What the operation is, said once: its method, path, document text and statuses.
    static var spec: OperationSpec { get }
    /// Types a ``OperationSpec/rawAnswer`` refers to as components (`#/components/schemas/…`),
    /// described with it.
    static var rawAnswerTypes: [any Decodable.Type] { get }
}

extension APIOperation {
    public static var rawAnswerTypes: [any Decodable.Type] { [] }
    public static var id: String { spec.id }
    public static var method: HTTPVerb { spec.method }
    public static var path: PathTemplate { spec.path }
    public static var summary: String { spec.summary }
    public static var tag: String { spec.tag }
    public static var success: Outcome { spec.success }
    public static var failures: [Outcome] { spec.failures }
    public static var signedIn: Bool { spec.signedIn }
    public static var parameterNotes: [String: FieldNote] { spec.parameterNotes }
    public static var requiredParameters: Set<String> { spec.requiredParameters }
    public static var headerParameters: [HeaderParameter] { spec.headerParameters }
    public static var rawBody: [String: JSONValue]? { spec.rawBody }
    public static var rawAnswer: [String: JSONValue]? { spec.rawAnswer }
    public static var answerHeaders: [String: String] { spec.answerHeaders }
    public static var otherAnswers: [Outcome] { spec.otherAnswers }
}

/// An operation's description besides its types.
public struct OperationSpec: Sendable {
    public var method: HTTPVerb
    public var path: PathTemplate
    /// The OpenAPI operationId.
    public var id: String
    /// The document's group (tag).
    public var tag: String
    public var summary: String
    /// The status of a successful answer (200, 201 or 204).
    public var success: Outcome
    /// Every other status the operation answers, each with the reason a client can act on.
    public var failures: [Outcome]
    /// Notes on the parameters, by name (description, bounds, default).
    public var parameterNotes: [String: FieldNote]
    /// Request headers the operation reads (`If-None-Match`, `Last-Event-ID`, `Idempotency-Key`).
    public var headerParameters: [HeaderParameter]
    /// Headers the success answer carries, with what they say.
    public var answerHeaders: [String: String]
    /// Other statuses answered with the same answer as `success` (a dry run's 200 beside the
    /// import's 201, a 304 without a body, the health check's 503).
    public var otherAnswers: [Outcome]
    /// Whether it needs a signed-in person (a bearer token or the web session).
    public var signedIn: Bool
    /// Query parameters the document marks required although `Parameters` reads them as optional,
    /// so that leaving one out is answered by the handler's own message.
    public var requiredParameters: Set<String>
    /// A body that is not JSON (an upload), by media type with its schema; `Body` is then
    /// ``Nothing`` and the handler reads the bytes itself.
    public var rawBody: [String: JSONValue]?
    /// A success answer that is not JSON (a file, a stream), by media type with its schema;
    /// `Answer` is then ``Nothing`` and the handler writes it.
    public var rawAnswer: [String: JSONValue]?

    public init(_ method: HTTPVerb, _ path: PathTemplate, _ id: String, tag: String, summary: String,
                success: Outcome, failures: [Outcome], parameterNotes: [String: FieldNote] = [:],
                headerParameters: [HeaderParameter] = [], answerHeaders: [String: String] = [:],
                otherAnswers: [Outcome] = [], signedIn: Bool = true, requiredParameters: Set<String> = [],
                rawBody: [String: JSONValue]? = nil, rawAnswer: [String: JSONValue]? = nil) {
        self.method = method
        self.path = path
        self.id = id
        self.tag = tag
        self.summary = summary
        self.success = success
        self.failures = failures
        self.parameterNotes = parameterNotes
        self.headerParameters = headerParameters
        self.answerHeaders = answerHeaders
        self.otherAnswers = otherAnswers
        self.signedIn = signedIn
        self.requiredParameters = requiredParameters
        self.rawBody = rawBody
        self.rawAnswer = rawAnswer
    }
}

/// A request header an operation reads.
public struct HeaderParameter: Sendable, Hashable {
    public var name: String
    public var description: String
    public var schema: JSONValue
    public init(_ name: String, _ description: String, schema: JSONValue = ["type": "string"]) {
        self.name = name
        self.description = description
        self.schema = schema
    }
}

extension HeaderParameter {
    /// A creating POST's key of the client's choosing: the change and its answer are kept together,
    /// so the same request sent again (after a timeout, or a 503 whose outcome is unknown) is
    /// answered as the first was and changes nothing twice.
    public static let idempotencyKey = HeaderParameter(
        "Idempotency-Key",
        "1 to 255 visible ASCII characters, new for each change (a UUID). The same key again within 90 days is answered with the first answer (header Idempotent-Replayed: true); with another body, 422",
        schema: ["type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"])
}

/// Schemas of bodies and answers that are bytes rather than JSON.
public enum RawMedia {
    /// Bytes of a file (an upload must not be empty).
    public static let file: JSONValue = ["type": "string", "format": "binary"]
    public static let upload: JSONValue = ["type": "string", "format": "binary", "minLength": 1]
    /// The same schema for each of `types`.
    public static func each(_ types: [String], _ schema: JSONValue) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: types.map { ($0, schema) })
    }
    /// The photo formats Forkcast stores.
    public static let imageTypes = ["image/jpeg", "image/png", "image/webp", "image/heic"]
}

/// The body, parameters or answer an operation does not have.
public struct Nothing: Codable, Sendable, Hashable {
    public init() {}
}

public enum HTTPVerb: String, Sendable, CaseIterable {
    case get = "GET", post = "POST", put = "PUT", delete = "DELETE"
}

/// A status an operation answers, and why.
public struct Outcome: Sendable, Hashable {
    public var status: Int
    public var reason: String
    /// Headers this answer carries, with what they say (`Retry-After`).
    public var headers: [String: String]
    public init(_ status: Int, _ reason: String, headers: [String: String] = [:]) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// A `Retry-After` header's meaning, for a 429 or an upstream's 503.
    public static let retryAfter = ["Retry-After": "Seconds to wait before trying again"]

    // The reasons every operation of a kind shares, written once.
    public static let deleted = Outcome(204, "Deleted")
    public static let malformed = Outcome(400, "Malformed JSON or bad parameter")
    public static let notSignedIn = Outcome(401, "Not signed in (no token, or an unknown or expired one)")
    public static let csrf = Outcome(403, "Signed in by the web session cookie without a valid X-CSRF-Token")
    public static let tooLarge = Outcome(413, "Body over the size limit (64 KB by default)")
    public static let notJSON = Outcome(415, "Not JSON (send Content-Type: application/json)")
    public static let invalid = Outcome(422, "Invalid fields")
    public static let unavailable = Outcome(503, "The database is unavailable: nothing was saved (type storage-unavailable), or it went away while committing and the change may or may not be saved (type outcome-unknown: read it back before sending it again)")

    /// What any signed-in read can also answer.
    public static let read: [Outcome] = [.notSignedIn, .unavailable]
    /// What any signed-in write can also answer (besides its own refusals).
    public static let write: [Outcome] = [.notSignedIn, .csrf, .unavailable]
    /// What any signed-in write with a JSON body can also answer.
    public static let writeJSON: [Outcome] = [.malformed, .notSignedIn, .csrf, .tooLarge, .notJSON, .invalid, .unavailable]
}

/// A route's path, `/api/v1/weights/{id}`: its literal segments and named parameters.
public struct PathTemplate: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public let segments: [Segment]

    public init(stringLiteral value: String) {
        segments = value.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    /// `/api/v1/weights/{id}`, as the document writes it.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The path with its parameters filled in (percent-encoded), for a Location header or a call.
    public func filled(_ values: [String: String]) -> String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name):
                (values[name] ?? "").addingPercentEncoding(withAllowedCharacters: Self.parameterAllowed) ?? ""
            }
        }.joined(separator: "/")
    }

    /// What a parameter keeps unencoded: a path's characters but `/`. Made once: building the set
    /// took about 2 % of logging an entry (its Location header; docs/performance.md).
    private static let parameterAllowed = CharacterSet.urlPathAllowed.subtracting(["/"])
}
