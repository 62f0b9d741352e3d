import Foundation

/// A signed identity token (a JWT) from Sign in with Apple or an OpenID Connect provider, taken
/// apart but not yet trusted: ``IdentityTokenRules`` checks its claims and the server checks its
/// signature against the provider's published keys.
public struct IdentityToken: Sendable, Equatable {
    public struct Header: Sendable, Equatable {
        public var algorithm: String
        public var keyID: String?
    }

    public var header: Header
    public var claims: IdentityClaims
    /// `base64url(header) "." base64url(payload)`: the bytes the signature covers.
    public var signingInput: Data
    public var signature: Data

    /// Longest token accepted (real ones are 1-2 KB; a provider adding many groups stays far below).
    public static let maximumLength = 16_384

    public static func parse(_ token: String) throws(IdentityTokenError) -> IdentityToken {
        let text = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.utf8.count <= maximumLength else { throw .malformed("the token is longer than \(maximumLength) bytes") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a token has three dot-separated parts") }
        guard let headerData = Base64URL.decode(parts[0]), let payloadData = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else { throw .malformed("a part is not base64url") }
        struct HeaderFields: Decodable { var alg: String; var kid: String? }
        guard let header = try? JSONDecoder().decode(HeaderFields.self, from: headerData) else {
            throw .malformed("the header names no algorithm")
        }
        let payload: IdentityClaims.Payload
        do { payload = try JSONDecoder().decode(IdentityClaims.Payload.self, from: payloadData) } catch {
            throw .malformed("the payload is not a JSON object of claims")
        }
        return IdentityToken(header: Header(algorithm: header.alg, keyID: header.kid),
                             claims: try IdentityClaims(payload), signingInput: Data(parts[0].utf8 + [UInt8(ascii: ".")] + parts[1].utf8),
                             signature: signature)
    }
}

/// The claims Forkcast reads from an identity token.
public struct IdentityClaims: Sendable, Equatable {
    public var issuer: String
    public var audiences: [String]
    public var subject: String
    public var expiresAt: Date
    public var issuedAt: Date?
    /// `nbf`: the token is not to be accepted before this time.
    public var notBefore: Date?
    public var nonce: String?
    public var email: String?
    /// Apple sends `email_verified` and `is_private_email` as booleans or as "true"/"false".
    public var emailVerified: Bool
    public var isPrivateEmail: Bool
    public var name: String?
    /// The provider's groups claim (OpenID Connect), when it sends one.
    public var groups: [String]

    public init(issuer: String, audiences: [String], subject: String, expiresAt: Date, issuedAt: Date? = nil,
                notBefore: Date? = nil, nonce: String? = nil, email: String? = nil, emailVerified: Bool = false, isPrivateEmail: Bool = false,
                name: String? = nil, groups: [String] = []) {
        self.issuer = issuer
        self.audiences = audiences
        self.subject = subject
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.notBefore = notBefore
        self.nonce = nonce
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.name = name
        self.groups = groups
    }

    /// The payload as sent: every claim optional and loosely typed, checked by ``init(_:)``.
    struct Payload: Decodable {
        var iss: String?
        var sub: String?
        var aud: Loose?
        var exp: Loose?
        var iat: Loose?
        var nbf: Loose?
        var nonce: String?
        var email: String?
        var email_verified: Loose?
        var is_private_email: Loose?
        var name: String?
        var preferred_username: String?
        var groups: Loose?
    }

    /// A claim of any JSON type; the claims read keep the types they make sense in.
    enum Loose: Decodable {
        case string(String), number(Double), bool(Bool), strings([String]), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([String].self) { self = .strings(value) }
            else { self = .other }
        }

        var seconds: Double? {
            guard case .number(let value) = self, value.isFinite, abs(value) < 1e11 else { return nil }
            return value
        }

        /// A boolean claim sent as `true`/`false` or as the strings "true"/"false" (Apple does both).
        var flag: Bool {
            switch self {
            case .bool(let value): value
            case .string(let value): value.lowercased() == "true"
            default: false
            }
        }

        var strings: [String]? {
            switch self {
            case .string(let value): [value]
            case .strings(let values): values
            default: nil
            }
        }
    }

    init(_ payload: Payload) throws(IdentityTokenError) {
        guard let issuer = payload.iss else { throw .malformed("no issuer (iss)") }
        guard let subject = payload.sub, !subject.isEmpty, subject.count <= 255 else {
            throw .malformed("no subject (sub) of at most 255 characters")
        }
        guard let audiences = payload.aud?.strings, !audiences.isEmpty else { throw .malformed("no audience (aud)") }
        guard let exp = payload.exp?.seconds else { throw .malformed("no expiry (exp)") }
        self.init(issuer: issuer, audiences: audiences, subject: subject, expiresAt: Date(timeIntervalSince1970: exp),
                  issuedAt: payload.iat?.seconds.map(Date.init(timeIntervalSince1970:)),
                  notBefore: payload.nbf?.seconds.map(Date.init(timeIntervalSince1970:)),
                  nonce: payload.nonce, email: payload.email.flatMap { $0.isEmpty ? nil : $0 },
                  emailVerified: payload.email_verified?.flag ?? false, isPrivateEmail: payload.is_private_email?.flag ?? false,
                  name: payload.name ?? payload.preferred_username, groups: payload.groups?.strings ?? [])
    }
}

/// Why a token was refused; the message is what the person or client is told.
public enum IdentityTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case expired(Date)
    case notYetValid
    case lifetimeTooLong
    case wrongIssuer(String)
    case wrongAudience([String])
    case nonceMismatch
    case nonceReplayed
    case unsupportedAlgorithm(String)
    case unknownKey(String?)
    case badSignature
    case groupNotAllowed

    public var description: String {
        switch self {
        case .malformed(let why): "The identity token is not a well-formed token: \(why)."
        case .expired(let date): "The identity token expired at \(Instant.format(date)); sign in again."
        case .notYetValid: "The identity token is not valid yet (issued in the future, or before its nbf); check the server's clock."
        case .lifetimeTooLong: "The identity token is valid for longer than a sign-in token may be (a day at most); sign in again."
        case .wrongIssuer(let issuer): "The identity token was issued by \(issuer.prefix(200)), not by the configured provider."
        case .wrongAudience(let audiences): "The identity token is meant for \(audiences.joined(separator: ", ").prefix(200)), not for this server."
        case .nonceMismatch: "The identity token does not carry the nonce of this sign-in; start again."
        case .nonceReplayed: "This identity token's nonce was used before; a token signs in once."
        case .unsupportedAlgorithm(let algorithm): "Identity tokens signed with \(algorithm.prefix(20)) are not accepted (RS256 or ES256)."
        case .unknownKey(let kid): "The identity token is signed with a key (\((kid ?? "none").prefix(64))) the provider does not publish."
        case .badSignature: "The identity token's signature does not verify."
        case .groupNotAllowed: "Your account at the identity provider is not in a group allowed to use this server."
        }
    }
}

/// What a verified token must say: issued by the provider, for us, unexpired,
/// carrying this sign-in's nonce, and (when the server restricts it) in an allowed group.
public enum IdentityTokenRules {
    public struct Expectation: Sendable {
        public var issuer: String
        public var audiences: Set<String>
        /// The nonce this sign-in sent, in each form the token may carry it (as sent, or the SHA-256
        /// hex Apple's native SDK puts there), or empty when the client sent none (native apps may
        /// not; then the token must carry none either).
        public var nonces: [String]
        public var allowedGroups: Set<String>
        public var now: Date
        /// Clock difference tolerated between us and the provider.
        public var leeway: TimeInterval
        /// The longest a token may be valid for, from when it was issued (or from now, when it does
        /// not say): Apple's last ten minutes and OpenID providers' an hour, so a token valid for a
        /// year is a copy meant to be replayed.
        public static let maximumLifetime: TimeInterval = 24 * 3600

        public init(issuer: String, audiences: Set<String>, nonces: [String], allowedGroups: Set<String> = [],
                    now: Date, leeway: TimeInterval = 60) {
            self.issuer = issuer
            self.audiences = audiences
            self.nonces = nonces
            self.allowedGroups = allowedGroups
            self.now = now
            self.leeway = leeway
        }
    }

    /// Checks every claim; the signature is checked by the caller, which has the keys.
    public static func check(_ claims: IdentityClaims, _ expected: Expectation) throws(IdentityTokenError) {
        guard claims.expiresAt.addingTimeInterval(expected.leeway) > expected.now else { throw .expired(claims.expiresAt) }
        if let issued = claims.issuedAt, issued > expected.now.addingTimeInterval(expected.leeway) { throw .notYetValid }
        if let notBefore = claims.notBefore, notBefore > expected.now.addingTimeInterval(expected.leeway) { throw .notYetValid }
        let validFrom = min(claims.issuedAt ?? expected.now, expected.now)
        guard claims.expiresAt.timeIntervalSince(validFrom) <= Expectation.maximumLifetime + expected.leeway else { throw .lifetimeTooLong }
        guard claims.issuer == expected.issuer else { throw .wrongIssuer(claims.issuer) }
        guard claims.audiences.contains(where: expected.audiences.contains) else { throw .wrongAudience(claims.audiences) }
        // A token carrying a nonce is only accepted with it: whoever holds a copy of the token alone
        // (a log, a proxy) cannot sign in with it.
        if let sent = claims.nonce {
            guard expected.nonces.contains(where: { constantTimeEquals(sent, $0) }) else { throw .nonceMismatch }
        } else if !expected.nonces.isEmpty {
            throw .nonceMismatch
        }
        if !expected.allowedGroups.isEmpty, !claims.groups.contains(where: expected.allowedGroups.contains) {
            throw .groupNotAllowed
        }
    }

    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// What to do with a verified external identity (the account rules), decided in one place for
/// the web pages and the API.
public enum ExternalSignInRules {
    public enum Decision: Sendable, Equatable {
        /// The identity is linked already: sign that account in.
        case signIn(UUID)
        /// A signed-in person asked to link it: link it to them.
        case link(UUID)
        /// Nobody has it and sign-up is open (or this is the first account): create an account.
        case createAccount
        /// An account with this verified email exists but has not linked the identity: it must sign in
        /// first and link it itself (never silently: a relay address could be someone else's).
        case requiresLinkBySignedInAccount(UUID)
        /// Linked to a different account than the signed-in one.
        case linkedElsewhere
        case signupClosed
    }

    public static func decide(linkedTo: UUID?, signedIn: UUID?, accountWithEmail: UUID?,
                              signupAllowed: Bool, hasAccounts: Bool) -> Decision {
        if let linkedTo {
            if let signedIn, signedIn != linkedTo { return .linkedElsewhere }
            return .signIn(linkedTo)
        }
        if let signedIn { return .link(signedIn) }
        if let accountWithEmail { return .requiresLinkBySignedInAccount(accountWithEmail) }
        return signupAllowed || !hasAccounts ? .createAccount : .signupClosed
    }

    /// The email a new account gets: the provider's verified address, else a placeholder that can
    /// never receive mail (Apple sends the address on the first sign-in only, and may hide it).
    public static func accountEmail(_ claims: IdentityClaims, provider: String) -> String {
        if let email = claims.email, claims.emailVerified, AccountRules.emailProblem(email) == nil { return email }
        return placeholderEmail(subject: claims.subject, provider: provider)
    }

    /// An address that can never receive mail, unique per identity (`.invalid` is reserved, RFC 2606).
    public static func placeholderEmail(subject: String, provider: String) -> String {
        let safe = subject.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }
        return "\(provider)-\(String(String.UnicodeScalarView(safe)).prefix(40).lowercased())@users.forkcast.invalid"
    }
}

public enum Base64URL {
    public static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || text.isEmpty else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    public static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
