import Foundation
import Vapor

struct RegisterInput: Content {
    var email: String
    var password: String
    var displayName: String?
    var timeZone: String?
}

struct LoginInput: Content {
    var email: String
    var password: String
}

struct UserDTO: Content {
    var id: UUID
    var email: String
    var displayName: String?
    var timeZone: String
    var currency: String
    var createdAt: Date?

    init(_ user: UserModel) {
        id = user.id!
        email = user.email
        displayName = user.displayName
        timeZone = user.timeZone
        currency = user.currency
        createdAt = user.createdAt
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(email, forKey: .email)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(currency, forKey: .currency)
        try c.encode(createdAt, forKey: .createdAt)
    }
}

struct SessionDTO: Content {
    var user: UserDTO
    var token: String
    var expiresAt: Date
}

/// `PUT /api/v1/me` body: what a user may change about themselves.
struct ProfileInput: Content {
    var displayName: String?
    var timeZone: String?
    var currency: String?
}

/// `POST /api/v1/auth/apple` body: the identity token an Apple platform app received.
struct AppleSignInInput: Decodable {
    var identityToken: String
    /// The raw nonce the app generated (the token carries it, or its SHA-256).
    var nonce: String?
    /// Apple tells an app the person's name on the first sign-in only; the app passes it on.
    var displayName: String?
}
