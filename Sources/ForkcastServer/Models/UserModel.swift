import Fluent
import ForkcastApp
import Foundation
import Vapor

/// An account. Every other row belongs to one.
final class UserModel: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    @Field(key: "email") var email: String
    /// Lower-cased email: the unique login key.
    @Field(key: "email_key") var emailKey: String
    /// bcrypt hash; empty for an account that signs in only with Apple or OpenID Connect.
    @Field(key: "password_hash") var passwordHash: String
    @OptionalField(key: "display_name") var displayName: String?
    /// IANA time zone name; "today" is computed in it.
    @Field(key: "time_zone") var timeZone: String
    /// ISO 4217 code prices are in.
    @Field(key: "currency") var currency: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $email, $emailKey, $passwordHash, $displayName, $timeZone, $currency, $createdAt, $updatedAt] }

    init() {}

    init(id: UUID? = nil, email: String, passwordHash: String, displayName: String?, timeZone: String) {
        self.id = id
        self.email = email
        self.emailKey = Account.emailKey(email)
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.timeZone = timeZone
        self.currency = "EUR"
    }

    /// An account as stored, from a row read without Fluent (``BearerAuthenticator/Found``).
    convenience init(stored id: UUID, email: String, emailKey: String, passwordHash: String, displayName: String?, timeZone: String,
                     currency: String, createdAt: Date?, updatedAt: Date?) {
        self.init()
        self.id = id
        $id.exists = true
        self.email = email
        self.emailKey = emailKey
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.timeZone = timeZone
        self.currency = currency
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    var hasPassword: Bool { !passwordHash.isEmpty }

    var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
}

extension UserModel: Authenticatable {}
extension UserModel: SessionAuthenticatable {
    var sessionID: UUID { id! }
}
