import Fluent
import Foundation

/// A sign-in identity at Apple or an OpenID Connect provider linked to an account: the provider's
/// `sub` is the identity (an email can change or be a relay address; the subject does not).
final class ExternalIdentityModel: Model, @unchecked Sendable {
    static let schema = "external_identities"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserModel
    /// "apple" or "oidc".
    @Field(key: "provider") var provider: String
    @Field(key: "subject") var subject: String
    /// The address the provider gave when linked (shown in Settings), if any.
    @OptionalField(key: "email") var email: String?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    var properties: [any AnyProperty] { [$id, $user, $provider, $subject, $email, $createdAt] }

    init() {}

    init(userID: UUID, provider: String, subject: String, email: String?) {
        self.$user.id = userID
        self.provider = provider
        self.subject = subject
        self.email = email
    }
}

/// Identity-token nonces already used, kept until the token would have expired: a token signs in once.
final class UsedNonceModel: Model, @unchecked Sendable {
    static let schema = "identity_nonces"

    @ID(custom: "nonce_hash", generatedBy: .user) var id: String?
    @Field(key: "expires_at") var expiresAt: Date
    var properties: [any AnyProperty] { [$id, $expiresAt] }

    init() {}

    init(nonceHash: String, expiresAt: Date) {
        self.id = nonceHash
        self.expiresAt = expiresAt
    }
}
