import ForkcastCore
import Foundation

extension APIKey.Access: SchemaLeaf {}

/// `POST /api/v1/api-keys`: a key for another program.
public struct APIKeyInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var name: String
    public var access: APIKey.Access
    public var areas: [String]
    public var expiresAt: Date?

    public init(name: String, access: APIKey.Access, areas: [String], expiresAt: Date? = nil) {
        self.name = name
        self.access = access
        self.areas = areas
        self.expiresAt = expiresAt
    }

    public static let schemaName = "APIKeyInput"
    public static var fieldNotes: [String: FieldNote] {
        ["name": FieldNote("What uses it (\"Home Assistant\")", minLength: 1, maxLength: APIKey.maximumNameLength),
         "access": FieldNote("read: GET only; write: also changes"),
         "areas": FieldNote("What it may reach: diary (and history, photos, body), plan (and meals, foods), shopping, pantry",
                            schema: ["type": "array", "minItems": 1, "uniqueItems": true,
                                     "items": ["type": "string", "enum": .array(APIKey.Area.allCases.map { .string($0.rawValue) })]]),
         "expiresAt": FieldNote("Within \(APIKey.maximumLifetimeDays) days (default \(APIKey.defaultLifetimeDays) days from now)")]
    }
}

/// A key as its person sees it; the key itself is in the answer that made it only.
public struct APIKeyAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var name: String
    public var access: APIKey.Access
    public var areas: [String]
    public var expiresAt: Date
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var key: String?

    public init(_ apiKey: APIKey, key: String? = nil) {
        id = apiKey.id
        name = apiKey.name
        access = apiKey.access
        areas = apiKey.areas.sorted().map(\.rawValue)
        expiresAt = apiKey.expiresAt
        createdAt = apiKey.createdAt
        lastUsedAt = apiKey.lastUsedAt
        self.key = key
    }

    public static let schemaName = "APIKey"
    public static var fieldNotes: [String: FieldNote] {
        ["key": FieldNote("Send as Authorization: Bearer <key>; in the answer that made it only"),
         "lastUsedAt": FieldNote("To the minute; absent: never used")]
    }
}

/// `/api/v1/api-keys`: keys for other programs (docs/api-keys.md). Managed with a session only: a
/// key cannot make, list or revoke keys.
public enum APIKeys {
    public enum Create: APIOperation {
        public typealias Body = APIKeyInput
        public typealias Answer = APIKeyAnswer
        public static let spec = OperationSpec(.post, "/api/v1/api-keys", "createAPIKey", tag: "api keys",
            summary: "Make a key for another program: read or write, in the areas chosen, until it expires; the key is in this answer only",
            success: Outcome(201, "Made"),
            failures: [Outcome(409, "\(APIKey.openLimit) keys exist already")] + Outcome.writeJSON)
    }

    public enum List: APIOperation {
        public typealias Answer = [APIKeyAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/api-keys", "listAPIKeys", tag: "api keys",
            summary: "Your keys not expired, newest first, with when each was last used", success: Outcome(200, "The keys"),
            failures: Outcome.read)
    }

    public enum Revoke: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/api-keys/{id}", "revokeAPIKey", tag: "api keys",
            summary: "Revoke a key: it stops working at once", success: Outcome(204, "Revoked"),
            failures: [Outcome(404, "No such key of yours")] + Outcome.write, parameterNotes: ["id": FieldNote("The key's id")])
    }
}
