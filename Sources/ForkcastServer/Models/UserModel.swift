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

    /// An account as stored, from a row read without Fluent (``BearerAuthenticator/Found``). The
    /// values are the model's output, as if Fluent had read the row: a later `save` writes only the
    /// fields changed since (a settings change must not write back a password hash another request
    /// changed meanwhile).
    convenience init(stored id: UUID, email: String, emailKey: String, passwordHash: String, displayName: String?, timeZone: String,
                     currency: String, createdAt: Date?, updatedAt: Date?) throws {
        self.init()
        try output(from: StoredRow(values: [
            "id": id, "email": email, "email_key": emailKey, "password_hash": passwordHash, "display_name": displayName,
            "time_zone": timeZone, "currency": currency, "created_at": createdAt, "updated_at": updatedAt,
        ]))
    }

    /// A row's values by column, handed to Fluent as a database's output.
    private struct StoredRow: DatabaseOutput {
        let values: [String: (any Sendable)?]

        func schema(_ schema: String) -> any DatabaseOutput { self }
        func contains(_ key: FieldKey) -> Bool { values.keys.contains(key.description) }
        func decodeNil(_ key: FieldKey) throws -> Bool { (values[key.description] ?? nil) == nil }
        func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
            guard let value = values[key.description] ?? nil, let typed = value as? T else {
                throw FluentError.invalidField(name: key.description, valueType: T.self, error: Mismatch())
            }
            return typed
        }
        var description: String { "stored row \(values.keys.sorted())" }
        struct Mismatch: Error {}
    }

    var hasPassword: Bool { !passwordHash.isEmpty }

    var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
}

extension UserModel: Authenticatable {}
extension UserModel: SessionAuthenticatable {
    var sessionID: UUID { id! }
}
