import Fluent
import ForkcastCore
import Foundation

/// A client (device cookie or address, hashed) that signed in to an account before.
final class KnownClientModel: Model, @unchecked Sendable {
    static let schema = "known_clients"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "key_hash") var keyHash: String
    @Field(key: "last_seen_at") var lastSeenAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $userID, $keyHash, $lastSeenAt] }

    init() {}

    init(userID: UUID, keyHash: String, lastSeenAt: Date) {
        self.id = UUID.timeOrdered()
        self.userID = userID
        self.keyHash = keyHash
        self.lastSeenAt = lastSeenAt
    }
}

/// A web session: the SHA-256 of the cookie value, its data, and when it stops working.
final class WebSessionModel: Model, @unchecked Sendable {
    static let schema = "web_sessions"

    @ID(key: .id) var id: UUID?
    @Field(key: "key_hash") var keyHash: String
    @Field(key: "data") var data: String
    @Field(key: "expires_at") var expiresAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $keyHash, $data, $expiresAt] }

    init() {}

    init(keyHash: String, data: String, expiresAt: Date) {
        self.id = UUID.timeOrdered()
        self.keyHash = keyHash
        self.data = data
        self.expiresAt = expiresAt
    }
}
