import ForkcastContract
import Crypto
import CryptoExtras
import Fluent
import ForkcastCore
import Foundation
import Vapor

/// The identity providers this server trusts (Sign in with Apple, one OpenID Connect provider):
/// their endpoints, their published signing keys (fetched, cached, fetched again when a token names
/// a key we do not have), the code exchange, and the verification of identity tokens.
///
/// The claims are checked by ``IdentityTokenRules`` (ForkcastCore); this type adds what needs the
/// network and cryptography. Written on swift-crypto (already in the graph through Vapor and
/// PostgresNIO) rather than jwt-kit, which would have raised the tools version to 6.2: the whole of
/// JWS we need is RS256/ES256 verification and one ES256 signature.
actor IdentityProviders {
    /// Apple or OpenID Connect (ForkcastContract's ``SignInProvider``).
    typealias Kind = SignInProvider

    struct Provider: Sendable {
        let kind: Kind
        /// What buttons say: "Sign in with <name>".
        let name: String
        let issuer: String
        /// The web flow's client id; nil when only native apps sign in (Apple without a Services ID).
        let webClientID: String?
        /// Every audience a token may be for (the web client id and the native apps' bundle ids).
        let audiences: Set<String>
        let allowedGroups: Set<String>
        let scope: String
        /// Apple answers the web flow with a cross-site POST (`response_mode=form_post`).
        let formPost: Bool
        let usesPKCE: Bool
        let secret: Secret

        enum Secret: Sendable {
            case none
            case shared(String)
            /// Apple: a short-lived ES256 JWT signed with the team's key.
            case appleKey(teamID: String, keyID: String, key: P256.Signing.PrivateKey)
        }
    }

    struct Endpoints: Sendable {
        var authorization: String
        var token: String
        var keys: String
        /// Send the client secret as HTTP Basic (the OpenID Connect default) rather than in the form.
        var basicAuth: Bool
    }

    enum VerifyingKey: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)

        func verifies(_ token: IdentityToken) -> Bool {
            let digest = SHA256.hash(data: token.signingInput)
            switch (self, token.header.algorithm) {
            case (.rsa(let key), "RS256"):
                return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: token.signature), for: digest,
                                            padding: .insecurePKCS1v1_5)
            case (.p256(let key), "ES256"):
                guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: token.signature) else { return false }
                return key.isValidSignature(signature, for: digest)
            default:
                return false
            }
        }
    }

    let providers: [Kind: Provider]
    let appleBase: String?
    var endpointCache: [Kind: (Endpoints, Date)] = [:]
    var keyCache: [Kind: (keys: [String: VerifyingKey], fetchedAt: Date)] = [:]
    /// Keys are fetched again at most this often when a token names an unknown one (so forged
    /// tokens cannot make us hammer the provider), and at least this often anyway.
    static let unknownKeyRefetchInterval: TimeInterval = 30
    static let keyLifetime: TimeInterval = 24 * 3600
    /// After a failed fetch of a provider's keys, tokens needing them are answered 503 at once for
    /// this long, without asking the provider again.
    static let failedFetchPause: TimeInterval = 15
    /// The fetch of each provider's keys under way, which every token needing them waits for.
    var keyFetches: [Kind: Task<[String: VerifyingKey], any Error>] = [:]
    /// The last failed fetch of each provider's keys, and how it was answered.
    var keyFailures: [Kind: (at: Date, error: AppError)] = [:]

    init(config: AppConfig) throws {
        var providers: [Kind: Provider] = [:]
        if let apple = config.apple {
            let secret: Provider.Secret
            if apple.clientID != nil {
                secret = .appleKey(teamID: apple.teamID, keyID: apple.keyID, key: try P256.Signing.PrivateKey(pemRepresentation: apple.privateKeyPEM))
            } else {
                secret = .none
            }
            providers[.apple] = Provider(kind: .apple, name: "Apple", issuer: apple.baseURL, webClientID: apple.clientID,
                                         audiences: Set([apple.clientID].compactMap { $0} + apple.appIDs), allowedGroups: [],
                                         scope: "name email", formPost: true, usesPKCE: false, secret: secret)
        }
        if let oidc = config.oidc {
            providers[.oidc] = Provider(kind: .oidc, name: oidc.name, issuer: oidc.issuer, webClientID: oidc.clientID,
                                        audiences: [oidc.clientID], allowedGroups: Set(oidc.allowedGroups),
                                        scope: "openid email profile" + (oidc.allowedGroups.isEmpty ? "" : " groups"),
                                        formPost: false, usesPKCE: true, secret: oidc.clientSecret.isEmpty ? .none : .shared(oidc.clientSecret))
        }
        self.providers = providers
        self.appleBase = config.apple?.baseURL
    }

    nonisolated func provider(_ kind: Kind) throws -> Provider {
        guard let provider = providers[kind] else {
            throw AppError.notFound(kind == .apple ? "Sign in with Apple is not set up on this server." : "Single sign-on is not set up on this server.")
        }
        return provider
    }

    /// Providers with a web sign-in flow, for the buttons.
    nonisolated var webProviders: [Provider] {
        Kind.allCases.compactMap { providers[$0] }.filter { $0.webClientID != nil }
    }

    // MARK: Endpoints

    func endpoints(_ provider: Provider, http: any Client, now: Date) async throws -> Endpoints {
        if let (cached, at) = endpointCache[provider.kind], now.timeIntervalSince(at) < 3600 { return cached }
        let endpoints: Endpoints
        switch provider.kind {
        case .apple:
            let base = appleBase ?? provider.issuer
            endpoints = Endpoints(authorization: base + "/auth/authorize", token: base + "/auth/token", keys: base + "/auth/keys", basicAuth: false)
        case .oidc:
            struct Discovery: Decodable {
                var issuer: String
                var authorization_endpoint: String
                var token_endpoint: String
                var jwks_uri: String
                var token_endpoint_auth_methods_supported: [String]?
            }
            let document: Discovery = try await fetchJSON(provider.issuer + "/.well-known/openid-configuration", provider: provider, http: http)
            let stated = document.issuer.hasSuffix("/") ? String(document.issuer.dropLast()) : document.issuer
            guard stated == provider.issuer else {
                throw AppError.upstreamUnavailable("The sign-on provider's discovery document names the issuer \(document.issuer.prefix(200)), not \(provider.issuer); check FORKCAST_OIDC_ISSUER.", retryAfter: nil, service: provider.name)
            }
            let methods = document.token_endpoint_auth_methods_supported ?? ["client_secret_basic"]
            endpoints = Endpoints(authorization: document.authorization_endpoint, token: document.token_endpoint, keys: document.jwks_uri,
                                  basicAuth: methods.contains("client_secret_basic") || !methods.contains("client_secret_post"))
        }
        endpointCache[provider.kind] = (endpoints, now)
        return endpoints
    }

    /// Where to send the browser to sign in.
    func authorizationURL(_ provider: Provider, redirectURI: String, state: String, nonce: String, codeVerifier: String?,
                          http: any Client, now: Date) async throws -> String {
        let endpoints = try await endpoints(provider, http: http, now: now)
        guard var components = URLComponents(string: endpoints.authorization), let clientID = provider.webClientID else {
            throw AppError.upstreamUnavailable("The provider's sign-in address is not usable.", retryAfter: nil, service: provider.name)
        }
        var items = components.queryItems ?? []
        items += [URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
                  URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "scope", value: provider.scope),
                  URLQueryItem(name: "state", value: state), URLQueryItem(name: "nonce", value: nonce)]
        if provider.formPost { items.append(URLQueryItem(name: "response_mode", value: "form_post")) }
        if let codeVerifier {
            items += [URLQueryItem(name: "code_challenge", value: Self.codeChallenge(codeVerifier)),
                      URLQueryItem(name: "code_challenge_method", value: "S256")]
        }
        components.queryItems = items
        // "+" is a space in a form-encoded query; the scope's spaces must arrive as spaces.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? endpoints.authorization
    }

    /// Apple's native SDK puts the SHA-256 (hex) of the app's nonce in the token; browsers send it as is.
    static func hashedNonce(_ nonce: String) -> String {
        SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// PKCE (RFC 7636): the S256 challenge of a verifier.
    static func codeChallenge(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }

    // MARK: Code exchange

    /// Trades the authorization code for the identity token at the provider's token endpoint.
    func exchange(_ provider: Provider, code: String, redirectURI: String, codeVerifier: String?, http: any Client, now: Date) async throws -> String {
        let endpoints = try await endpoints(provider, http: http, now: now)
        guard let clientID = provider.webClientID else { throw AppError.notFound("\(provider.name) has no web sign-in here.") }
        var form = ["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "client_id": clientID]
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .accept, value: "application/json")
        headers.replaceOrAdd(name: .userAgent, value: "Forkcast/\(forkcastVersion)")
        switch provider.secret {
        case .none: break
        case .shared(let secret):
            if endpoints.basicAuth {
                headers.basicAuthorization = BasicAuthorization(username: Self.formEncode(clientID), password: Self.formEncode(secret))
            } else {
                form["client_secret"] = secret
            }
        case .appleKey(let team, let keyID, let key):
            form["client_secret"] = try Self.appleClientSecret(teamID: team, keyID: keyID, key: key, clientID: clientID,
                                                               audience: provider.issuer, now: now)
        }
        if let codeVerifier { form["code_verifier"] = codeVerifier }
        var request = ClientRequest(method: .POST, url: URI(string: endpoints.token), headers: headers)
        request.timeout = .seconds(10)
        try request.content.encode(form, as: .urlEncodedForm)
        let response: ClientResponse
        do { response = try await http.send(request) } catch {
            throw AppError.upstreamUnavailable("\(provider.name) did not answer the sign-in; try again in a moment.", retryAfter: 30, service: provider.name)
        }
        struct TokenAnswer: Decodable { var id_token: String?; var error: String? }
        let answer = try? response.content.decode(TokenAnswer.self)
        if response.status == .badRequest || response.status == .unauthorized {
            throw AppError.unauthorized("\(provider.name) refused the sign-in (\(answer?.error?.prefix(60) ?? "\(response.status.code)")); start again.")
        }
        guard response.status == .ok, let token = answer?.id_token else {
            throw AppError.upstreamUnavailable("\(provider.name) answered the sign-in with \(response.status.code) and no identity token; try again.", retryAfter: 30, service: provider.name)
        }
        return token
    }

    /// application/x-www-form-urlencoded, as RFC 6749 §2.3.1 asks of the id and secret in HTTP Basic.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*")
        allowed.insert(" ")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: " ", with: "+")
    }

    /// Apple's client secret: an ES256 JWT signed with the team's key, valid five minutes.
    static func appleClientSecret(teamID: String, keyID: String, key: P256.Signing.PrivateKey, clientID: String,
                                  audience: String, now: Date) throws -> String {
        struct Header: Encodable { var alg = "ES256"; var kid: String }
        struct Claims: Encodable { var iss: String; var iat: Int; var exp: Int; var aud: String; var sub: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let issued = Int(now.timeIntervalSince1970)
        let input = Base64URL.encode(try encoder.encode(Header(kid: keyID))) + "."
            + Base64URL.encode(try encoder.encode(Claims(iss: teamID, iat: issued, exp: issued + 300, aud: audience, sub: clientID)))
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}

extension Application {
    private struct IdentityProvidersKey: StorageKey { typealias Value = IdentityProviders }

    /// The configured identity providers (set up once while configuring).
    var identityProviders: IdentityProviders {
        get { configured(IdentityProvidersKey.self) }
        set { storage[IdentityProvidersKey.self] = newValue }
    }
}

/// Nonces (or, for tokens without one, the token's identity) of identity tokens already used: a
/// token signs in once. Never the signature's bytes: an ECDSA signature has a second valid form
/// (s and n − s), so one token could be spent twice.
enum UsedNonces {
    static func key(_ token: IdentityToken) -> String {
        if let nonce = token.claims.nonce { return Tokens.hash("nonce:" + nonce) }
        let claims = token.claims
        let when = claims.issuedAt ?? claims.expiresAt
        return Tokens.hash("token:\(claims.issuer)|\(claims.subject)|\(Int64(when.timeIntervalSince1970))")
    }

    static func consume(_ token: IdentityToken, on db: any Database, now: Date) async throws {
        let key = key(token)
        try await db.write { tx in
            try await UsedNonceModel.query(on: tx).filter(\.$expiresAt < now).delete()
            if try await UsedNonceModel.find(key, on: tx) != nil { throw AppError.unauthorized(IdentityTokenError.nonceReplayed.description) }
            do {
                try await UsedNonceModel(nonceHash: key, expiresAt: max(token.claims.expiresAt, now).addingTimeInterval(120)).create(on: tx)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                throw AppError.unauthorized(IdentityTokenError.nonceReplayed.description)
            }
        }
    }
}
