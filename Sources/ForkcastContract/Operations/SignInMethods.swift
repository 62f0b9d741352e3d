import ForkcastCore
import Foundation

/// A way to sign in besides the password.
public enum SignInProvider: String, Sendable, Codable, CaseIterable, SchemaLeaf {
    case apple, oidc
}

/// How an account signs in: its password, linked identities, and what this server offers.
public struct SignInMethods: Codable, Sendable, Hashable, SchemaDocumented {
    public struct Identity: Codable, Sendable, Hashable, SchemaDocumented {
        public var provider: SignInProvider
        public var email: String?
        public var linkedAt: Date?

        public init(provider: SignInProvider, email: String?, linkedAt: Date?) {
            self.provider = provider
            self.email = email
            self.linkedAt = linkedAt
        }

        public static let schemaName = "LinkedIdentity"
    }

    public var password: Bool
    public var identities: [Identity]
    /// Providers this server offers (to link).
    public var available: [SignInProvider]

    public init(password: Bool, identities: [Identity], available: [SignInProvider]) {
        self.password = password
        self.identities = identities
        self.available = available
    }

    public static let schemaName = "SignInMethods"
    public static var fieldNotes: [String: FieldNote] {
        ["password": FieldNote("Whether the account has a password"),
         "available": FieldNote("The providers this server offers, to link")]
    }
}

/// `{provider}` in a path.
public struct ProviderParameter: Codable, Sendable, Hashable {
    public var provider: SignInProvider
    public init(_ provider: SignInProvider) { self.provider = provider }
}

/// `/api/v1/me/identities`: the ways the signed-in account signs in.
public enum Identities {
    public enum List: APIOperation {
        public typealias Answer = SignInMethods
        public static let spec = OperationSpec(.get, "/api/v1/me/identities", "signInMethods", tag: "auth",
            summary: "How the signed-in account signs in: whether it has a password, the Apple or OpenID Connect identities linked, and the providers this server offers",
            success: Outcome(200, "Sign-in methods"), failures: Outcome.read)
    }

    public enum Unlink: APIOperation {
        public typealias Parameters = ProviderParameter
        public static let spec = OperationSpec(.delete, "/api/v1/me/identities/{provider}", "unlinkIdentity", tag: "auth",
            summary: "Unlink Apple or the OpenID Connect provider; refused when it is the account's only way to sign in",
            success: Outcome(204, "Unlinked"),
            failures: [Outcome(404, "No such provider, or it is not linked to this account"),
                Outcome(409, "It is the only way this account signs in")] + Outcome.write)
    }
}
