import Fluent
import ForkcastCore
import Foundation

/// A key for another program (``APIKey``): only a hash of it is kept.
final class APIKeyModel: Model, @unchecked Sendable {
    static let schema = "api_keys"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "name") var name: String
    @Field(key: "access") var access: String
    /// The areas, comma-separated (`plan,shopping`).
    @Field(key: "areas") var areas: String
    @Field(key: "expires_at") var expiresAt: Date
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?
    var properties: [any AnyProperty] { [$id, $ownerID, $tokenHash, $name, $access, $areas, $expiresAt, $createdAt, $lastUsedAt] }

    init() {}

    init(_ key: APIKey, ownerID: UUID) {
        id = key.id
        self.ownerID = ownerID
        tokenHash = key.tokenHash
        name = key.name
        access = key.access.rawValue
        areas = key.areas.sorted().map(\.rawValue).joined(separator: ",")
        expiresAt = key.expiresAt
        createdAt = key.createdAt
        lastUsedAt = key.lastUsedAt
    }

    var domain: APIKey {
        APIKey(id: id!, tokenHash: tokenHash, name: name, access: APIKey.Access(rawValue: access) ?? .read,
               areas: Set(areas.split(separator: ",").compactMap { APIKey.Area(rawValue: String($0)) }), expiresAt: expiresAt,
               createdAt: createdAt, lastUsedAt: lastUsedAt)
    }
}
