import Crypto
import CryptoExtras
import ForkcastCore
@testable import ForkcastServer
import Foundation
import NIOCore
import Testing
import Vapor

/// A local stand-in for Apple's sign-in endpoints (`/auth/keys`, `/auth/token`, `/auth/authorize`)
/// and for an OpenID Connect provider (discovery, keys, token with PKCE), with test signing keys.
/// It checks what the real ones check: Apple's client secret is an ES256 JWT signed with the team's
/// key, the OpenID Connect client authenticates with its secret and the PKCE verifier.
final class FakeIdentityProvider: @unchecked Sendable {
    let app: Application
    let kind: IdentityProviders.Kind
    private let lock = NSLock()

    /// Apple-style RS256 or OpenID-style ES256 signing.
    enum Signer {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    /// The keys published at the JWKS address, by kid.
    private(set) var published: [(kid: String, signer: Signer)]
    private var codes: [String: (claims: [String: Any], challenge: String?)] = [:]
    private(set) var keyFetches = 0
    /// While set, the key address answers 503 after a short wait (the provider is down).
    var keysDown: Bool {
        get { lock.withLock { _keysDown } }
        set { lock.withLock { _keysDown = newValue } }
    }
    private var _keysDown = false
    /// While set, the key address answers nothing for 20 s (the provider hangs).
    var keysHang: Bool {
        get { lock.withLock { _keysHang } }
        set { lock.withLock { _keysHang = newValue } }
    }
    private var _keysHang = false
    private(set) var tokenRequests: [[String: String]] = []
    private(set) var tokenAuthorization: [String?] = []
    /// The team key whose public half checks Apple client secrets.
    let teamKey = P256.Signing.PrivateKey()
    static let teamID = "TEAM123456", keyID = "KEY7654321", servicesID = "org.forkcast.web", appID = "org.forkcast.ios"
    static let oidcClientID = "forkcast", oidcSecret = "s3cret with spaces+plus"

    private init(app: Application, kind: IdentityProviders.Kind) {
        self.app = app
        self.kind = kind
        published = [(kind == .apple ? "apple-1" : "oidc-1", kind == .apple ? .rsa(Self.rsaKey) : .p256(P256.Signing.PrivateKey()))]
    }

    /// One 2048-bit key for the whole run (making one takes a while).
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func start(_ kind: IdentityProviders.Kind) async throws -> FakeIdentityProvider {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        let fake = FakeIdentityProvider(app: app, kind: kind)
        let keysPath: [PathComponent] = kind == .apple ? ["auth", "keys"] : ["jwks"]
        app.get(keysPath) { _ async throws -> Response in
            if fake.keysHang {
                fake.lock.withLock { fake.keyFetches += 1 }
                try await Task.sleep(for: .seconds(20))
                return Response(status: .serviceUnavailable)
            }
            if fake.keysDown {
                fake.lock.withLock { fake.keyFetches += 1 }
                try await Task.sleep(for: .milliseconds(300))
                return Response(status: .serviceUnavailable)
            }
            return try fake.jwks()
        }
        app.post(kind == .apple ? ["auth", "token"] : ["token"]) { req in try fake.token(req) }
        app.get(".well-known", "openid-configuration") { _ in
            let base = fake.baseURL
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(data: try JSONSerialization.data(withJSONObject: [
                "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                "jwks_uri": base + "/jwks", "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            ])))
        }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        return fake
    }

    var baseURL: String { "http://127.0.0.1:\(app.http.server.shared.localAddress!.port!)" }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    /// Publishes a new key (rotation); the old one stays published unless `dropOld`.
    func rotate(kid: String, dropOld: Bool = false) {
        lock.withLock {
            let signer: Signer = kind == .apple ? .rsa(Self.rsaKey2) : .p256(P256.Signing.PrivateKey())
            published = (dropOld ? [] : published) + [(kid, signer)]
        }
    }

    static let rsaKey2 = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    // MARK: Tokens

    /// Claims of a good token for `subject`; change any before minting.
    func claims(subject: String, audience: String? = nil, nonce: String? = nil, email: String? = nil, emailVerified: Any = true,
                groups: [String]? = nil, issuedAt: Date = Date()) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": baseURL, "aud": audience ?? (kind == .apple ? Self.appID : Self.oidcClientID), "sub": subject,
            "iat": Int(issuedAt.timeIntervalSince1970), "exp": Int(issuedAt.timeIntervalSince1970) + 600,
        ]
        if let nonce { claims["nonce"] = nonce }
        if let email { claims["email"] = email; claims["email_verified"] = emailVerified; claims["is_private_email"] = "false" }
        if let groups { claims["groups"] = groups }
        return claims
    }

    /// A token signed with the current key (or a given kid / signer, to forge one).
    func mint(_ claims: [String: Any], kid: String? = nil, signer: Signer? = nil) throws -> String {
        let (currentKid, currentSigner, named) = lock.withLock { (published.last!.kid, published.last!.signer, published.first { $0.kid == kid }?.signer) }
        let signer = signer ?? named ?? currentSigner
        let algorithm: String
        switch signer { case .rsa: algorithm = "RS256"; case .p256: algorithm = "ES256" }
        let header = try JSONSerialization.data(withJSONObject: ["alg": algorithm, "kid": kid ?? currentKid])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        let digest = SHA256.hash(data: Data(input.utf8))
        let signature: Data
        switch signer {
        case .rsa(let key): signature = try key.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation
        case .p256(let key): signature = try key.signature(for: digest).rawRepresentation
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// What the authorization endpoint would do once the person approved: a code bound to the
    /// sign-in's nonce (and PKCE challenge).
    func approve(_ authorizeURL: String, subject: String, email: String? = nil, groups: [String]? = nil) throws -> (code: String, state: String) {
        let items = URLComponents(string: authorizeURL)!.queryItems ?? []
        func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
        let audience = try #require(item("client_id"))
        var claims = claims(subject: subject, audience: audience, nonce: item("nonce"), email: email, groups: groups)
        claims["aud"] = audience
        let code = "code-" + UUID().uuidString
        lock.withLock { codes[code] = (claims, item("code_challenge")) }
        return (code, try #require(item("state")))
    }

    private func jwks() throws -> Response {
        let keys: [[String: String]] = lock.withLock {
            keyFetches += 1
            return published.map { kid, signer in
                switch signer {
                case .rsa(let key):
                    let components = try! key.publicKey.getKeyPrimitives()
                    return ["kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                            "n": Base64URL.encode(components.modulus), "e": Base64URL.encode(components.publicExponent)]
                case .p256(let key):
                    let raw = key.publicKey.rawRepresentation
                    return ["kty": "EC", "kid": kid, "use": "sig", "alg": "ES256", "crv": "P-256",
                            "x": Base64URL.encode(raw.prefix(32)), "y": Base64URL.encode(raw.suffix(32))]
                }
            }
        }
        return Response(status: .ok, headers: ["Content-Type": "application/json"],
                        body: .init(data: try JSONSerialization.data(withJSONObject: ["keys": keys])))
    }

    private func token(_ req: Request) throws -> Response {
        let form = try req.content.decode([String: String].self)
        lock.withLock {
            tokenRequests.append(form)
            tokenAuthorization.append(req.headers.first(name: .authorization))
        }
        func refuse(_ error: String) -> Response {
            Response(status: .badRequest, headers: ["Content-Type": "application/json"], body: .init(string: "{\"error\":\"\(error)\"}"))
        }
        guard form["grant_type"] == "authorization_code", let code = form["code"],
              let issued = lock.withLock({ codes.removeValue(forKey: code) }) else { return refuse("invalid_grant") }
        if kind == .apple {
            guard let secret = form["client_secret"], checkAppleSecret(secret, clientID: form["client_id"] ?? "") else { return refuse("invalid_client") }
        } else {
            // RFC 6749 §2.3.1: form-encoded, then Basic ("s3cret with spaces+plus" → "s3cret+with+spaces%2Bplus").
            let expected = "Basic " + Data("\(Self.oidcClientID):s3cret+with+spaces%2Bplus".utf8).base64EncodedString()
            guard req.headers.first(name: .authorization) == expected else { return refuse("invalid_client") }
            guard let verifier = form["code_verifier"], IdentityProviders.codeChallenge(verifier) == issued.challenge else { return refuse("invalid_grant") }
        }
        let idToken = try mint(issued.claims)
        return Response(status: .ok, headers: ["Content-Type": "application/json"],
                        body: .init(data: try JSONSerialization.data(withJSONObject: ["id_token": idToken, "token_type": "Bearer"])))
    }

    /// Apple's checks of the client secret: ES256 by the team key, iss team, sub the Services ID, aud Apple, unexpired.
    private func checkAppleSecret(_ secret: String, clientID: String) -> Bool {
        guard let token = try? IdentityToken.parse(secret), token.header.algorithm == "ES256", token.header.keyID == Self.keyID,
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: token.signature),
              teamKey.publicKey.isValidSignature(signature, for: SHA256.hash(data: token.signingInput)) else { return false }
        let parts = secret.split(separator: ".")
        guard let payload = Base64URL.decode(parts[1]),
              let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { return false }
        return claims["iss"] as? String == Self.teamID && claims["sub"] as? String == clientID && clientID == Self.servicesID
            && claims["aud"] as? String == baseURL && (claims["exp"] as? Int ?? 0) > Int(Date().timeIntervalSince1970)
    }

    /// The server configuration that trusts this stand-in.
    func configure(_ config: inout AppConfig) {
        switch kind {
        case .apple:
            config.apple = AppConfig.AppleSignIn(clientID: Self.servicesID, teamID: Self.teamID, keyID: Self.keyID,
                                                 privateKeyPEM: teamKey.pemRepresentation, appIDs: [Self.appID], baseURL: baseURL)
        case .oidc:
            config.oidc = AppConfig.OpenIDConnect(issuer: baseURL, clientID: Self.oidcClientID, clientSecret: Self.oidcSecret,
                                                  allowedGroups: [], name: "Authelia")
        }
    }
}
