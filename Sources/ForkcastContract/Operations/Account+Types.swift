import ForkcastCore
import Foundation

/// `GET /healthz`: whether the server and its database can be used.
public struct HealthReport: Codable, Sendable, Hashable, SchemaDocumented {
    public enum Status: String, Codable, Sendable, CaseIterable, SchemaLeaf { case ok, unavailable, readOnly = "read-only" }
    public enum Database: String, Codable, Sendable, CaseIterable, SchemaLeaf { case sqlite, postgresql }

    public var status: Status
    public var database: Database
    /// Whether a write can be committed now (a full disk or a lock held elsewhere says no).
    public var writable: Bool

    public init(status: Status, database: Database, writable: Bool) {
        self.status = status
        self.database = database
        self.writable = writable
    }

    public static let schemaName = "Health"
    public static var fieldNotes: [String: FieldNote] { ["writable": FieldNote("Whether a write can be committed now")] }
}

/// A person's account, as the API answers it.
public struct UserAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var email: String
    public var displayName: String?
    public var timeZone: String
    public var currency: String
    public var createdAt: Date?

    public init(id: UUID, email: String, displayName: String?, timeZone: String, currency: String, createdAt: Date?) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.timeZone = timeZone
        self.currency = currency
        self.createdAt = createdAt
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(email, forKey: .email)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(currency, forKey: .currency)
        try c.encode(createdAt, forKey: .createdAt)
    }

    public static let schemaName = "User"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["timeZone": FieldNote("The IANA time zone \"today\" is counted in", example: "Europe/Paris"),
         "currency": FieldNote("The ISO 4217 code prices are in", example: "EUR")]
    }
}

/// A signed-in session: the bearer token to send as `Authorization: Bearer …`.
public struct SessionAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var user: UserAnswer
    public var token: String
    public var expiresAt: Date

    public init(user: UserAnswer, token: String, expiresAt: Date) {
        self.user = user
        self.token = token
        self.expiresAt = expiresAt
    }

    public static let schemaName = "Session"
}

/// `POST /api/v1/auth/register`.
public struct RegisterInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var email: String
    public var password: String
    public var displayName: String?
    public var timeZone: String?
    /// An invitation link's token (its `invite=`): creates the account while sign-up is closed.
    public var invitation: String?

    public init(email: String, password: String, displayName: String? = nil, timeZone: String? = nil, invitation: String? = nil) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.timeZone = timeZone
        self.invitation = invitation
    }

    public static let schemaName = "RegisterInput"
    public static var fieldNotes: [String: FieldNote] {
        ["email": FieldNote(maxLength: 254, format: "email", example: "ada@example.com"),
         "password": FieldNote(schema: AccountSchemas.password),
         "displayName": FieldNote(maxLength: AccountRules.maximumDisplayNameLength),
         "timeZone": FieldNote("Default UTC", schema: AccountSchemas.nullable("TimeZone")),
         "invitation": FieldNote("The token of an invitation link the owner made (Settings › Invite someone): works once, while sign-up is closed too", maxLength: 200)]
    }
}

/// `POST /api/v1/auth/login`.
public struct LoginInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public static let schemaName = "LoginInput"
}

/// `PUT /api/v1/me`: what a person may change about themselves (only the fields sent).
public struct ProfileInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var displayName: String?
    public var timeZone: String?
    public var currency: String?

    public init(displayName: String? = nil, timeZone: String? = nil, currency: String? = nil) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.currency = currency
    }

    public static let schemaName = "ProfileInput"
    public static var fieldNotes: [String: FieldNote] {
        ["displayName": FieldNote("Empty clears it", maxLength: AccountRules.maximumDisplayNameLength),
         "timeZone": FieldNote(schema: AccountSchemas.nullable("TimeZone")),
         "currency": FieldNote(schema: AccountSchemas.nullable("Currency"))]
    }
}

/// `POST /api/v1/auth/apple`: the identity token an Apple platform app received.
public struct AppleSignInInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var identityToken: String
    /// The raw nonce the app generated (the token carries it, or its SHA-256).
    public var nonce: String?
    /// Apple tells an app the person's name on the first sign-in only; the app passes it on.
    public var displayName: String?

    public init(identityToken: String, nonce: String? = nil, displayName: String? = nil) {
        self.identityToken = identityToken
        self.nonce = nonce
        self.displayName = displayName
    }

    public static let schemaName = "AppleSignInInput"
    public static var fieldNotes: [String: FieldNote] {
        ["identityToken": FieldNote("The JWT Apple gave the app (tokens over 16 KB are refused with 401)"),
         "nonce": FieldNote("The raw nonce the app generated, whose SHA-256 the token carries; required when the token carries a nonce. The token's own nonce claim sent back is refused."),
         "displayName": FieldNote("The name Apple told the app on the first sign-in", maxLength: AccountRules.maximumDisplayNameLength)]
    }
}

/// `DELETE /api/v1/me`: the password, or for an account without one a fresh identity token of a
/// linked provider.
public struct DeleteAccountInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var password: String?
    public var identityToken: String?
    public var nonce: String?

    public init(password: String? = nil, identityToken: String? = nil, nonce: String? = nil) {
        self.password = password
        self.identityToken = identityToken
        self.nonce = nonce
    }

    public static let schemaName = "DeleteAccountInput"
    public static var fieldNotes: [String: FieldNote] {
        ["identityToken": FieldNote("For an account without a password: an identity token from a sign-in in the last ten minutes with a linked provider")]
    }
    public static var schemaExtras: [String: JSONValue] {
        ["anyOf": [["required": ["password"], "properties": ["password": ["type": "string"]]],
                   ["required": ["identityToken"], "properties": ["identityToken": ["type": "string"]]]]]
    }
}

/// What an account import created (or, in a dry run, would create), by the export's field names.
public struct AccountImportReport: Codable, Sendable, Hashable, SchemaDocumented {
    public var dryRun: Bool
    public var created: [String: Int]
    public var photoBytes: Int

    public init(dryRun: Bool, created: [String: Int], photoBytes: Int) {
        self.dryRun = dryRun
        self.created = created
        self.photoBytes = photoBytes
    }

    public static let schemaName = "AccountImportReport"
    public static var fieldNotes: [String: FieldNote] {
        ["created": FieldNote("Records created (or that would be), by the export's field names: mealTypes, foods, meals, plan, diary, photos, weights, goals, bodyProfile, shoppingLists, pantry, recipePhotos",
                              schema: ["type": "object", "additionalProperties": ["type": "integer", "minimum": 0]]),
         "photoBytes": FieldNote("The photo files' bytes as the export holds them (thumbnails aside)", minimum: 0)]
    }
}

/// `?dryRun=`: check everything and report, changing nothing.
public struct DryRunQuery: Codable, Sendable, Hashable {
    public var dryRun: Bool?
    public init(dryRun: Bool? = nil) { self.dryRun = dryRun }
}

/// Schemas of account fields the Swift types hold as text.
public enum AccountSchemas {
    /// The `TimeZone` and `Currency` components.
    public static var components: [String: JSONValue] {
        ["TimeZone": ["type": "string", "description": "An IANA time zone name such as Europe/Paris",
                      "enum": .array(Set(TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"]).sorted().map { .string($0) })],
         "Currency": ["type": "string", "description": "An ISO 4217 currency code such as EUR (case-insensitive on input)",
                      "enum": .array(Set(Locale.commonISOCurrencyCodes + Currency.common).sorted().map { .string($0) })]]
    }

    static func nullable(_ component: String) -> JSONValue {
        ["anyOf": [["$ref": .string("#/components/schemas/\(component)")], ["type": "null"]]]
    }

    /// A password the rules accept: its length, not a common one, not one character repeated.
    static var password: JSONValue {
        ["type": "string", "minLength": .number(Double(AccountRules.minimumPasswordLength)),
         "maxLength": .number(Double(AccountRules.maximumPasswordLength)),
         "description": .string("\(AccountRules.minimumPasswordLength) to \(AccountRules.maximumPasswordLength) characters; not only spaces, not one character repeated, not a common password (case-insensitive), not the email"),
         "not": ["anyOf": [["enum": .array(CommonPasswords.all.sorted().map { .string($0) })], ["pattern": "^(.)\\1*$"]]]]
    }
}
