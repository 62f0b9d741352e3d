import ForkcastContract
import Crypto
import CryptoExtras
import Fluent
import ForkcastCore
import Foundation
import Vapor

/// Verifying identity tokens: the claims, the signature, the provider's published keys.
extension IdentityProviders {
    /// Who made the nonce a token must carry.
    enum NonceOrigin: Sendable {
        /// This server (the web flows): the token carries it as it is.
        case server
        /// A native app (Apple's SDK): the app sends its raw nonce and the token carries its
        /// SHA-256. Only that form is accepted: a token's own nonce claim sent back (which anyone
        /// holding the token can read) is the hash of nothing the sender knows.
        case app
    }

    /// Parses, checks the claims of, and verifies the signature of an identity token.
    func verify(_ raw: String, provider: Provider, nonce: String?, from origin: NonceOrigin, http: any Client, now: Date) async throws -> (IdentityToken, IdentityClaims) {
        do {
            let token = try IdentityToken.parse(raw)
            guard ["RS256", "ES256"].contains(token.header.algorithm) else { throw IdentityTokenError.unsupportedAlgorithm(token.header.algorithm) }
            try IdentityTokenRules.check(token.claims, .init(issuer: provider.issuer, audiences: provider.audiences,
                                                             nonces: nonce.map { [origin == .app ? Self.hashedNonce($0) : $0] } ?? [],
                                                             allowedGroups: provider.allowedGroups, now: now))
            let key = try await key(token.header.keyID, provider: provider, http: http, now: now)
            guard key.verifies(token) else { throw IdentityTokenError.badSignature }
            return (token, token.claims)
        } catch let error as IdentityTokenError {
            if case .groupNotAllowed = error { throw AppError.forbidden(error.description) }
            throw AppError.unauthorized(error.description)
        }
    }

    func key(_ kid: String?, provider: Provider, http: any Client, now: Date) async throws -> VerifyingKey {
        let cached = keyCache[provider.kind]
        if let cached, now.timeIntervalSince(cached.fetchedAt) < Self.keyLifetime {
            if let key = cached.keys[kid ?? ""] ?? (kid == nil && cached.keys.count == 1 ? cached.keys.values.first : nil) { return key }
            guard now.timeIntervalSince(cached.fetchedAt) >= Self.unknownKeyRefetchInterval else { throw IdentityTokenError.unknownKey(kid) }
        }
        // The provider failed a moment ago: answer at once instead of asking again for every token
        // (forged tokens cost an outbound fetch and up to 3 s each).
        if let failure = keyFailures[provider.kind], now.timeIntervalSince(failure.at) < Self.failedFetchPause { throw failure.error }
        let keys: [String: VerifyingKey]
        if let running = keyFetches[provider.kind] {
            keys = try await running.value  // one fetch at a time: the others wait for its answer
        } else {
            let fetch = Task { () async throws -> [String: VerifyingKey] in
                do {
                    let endpoints = try await self.endpoints(provider, http: http, now: now)
                    return try Self.parseKeys(try await self.fetchJSON(endpoints.keys, provider: provider, http: http))
                } catch {
                    throw error as? AppError ?? .upstreamUnavailable("\(provider.name)'s signing keys could not be read; try again in a moment.",
                                                                    retryAfter: Int(Self.failedFetchPause), service: provider.name)
                }
            }
            keyFetches[provider.kind] = fetch
            defer { keyFetches[provider.kind] = nil }
            do {
                keys = try await fetch.value
                keyFailures[provider.kind] = nil
                keyCache[provider.kind] = (keys, now)
            } catch let failure as AppError {
                keyFailures[provider.kind] = (now, failure)
                throw failure
            }
        }
        if let key = keys[kid ?? ""] ?? (kid == nil && keys.count == 1 ? keys.values.first : nil) { return key }
        throw IdentityTokenError.unknownKey(kid)
    }

    struct KeySet: Decodable {
        struct Key: Decodable { var kty: String; var kid: String?; var use: String?; var n: String?; var e: String?; var crv: String?; var x: String?; var y: String? }
        var keys: [Key]
    }

    /// A JWKS document's signing keys by `kid` (RSA and P-256; others are skipped).
    static func parseKeys(_ set: KeySet) throws -> [String: VerifyingKey] {
        var keys: [String: VerifyingKey] = [:]
        for key in set.keys where key.use == nil || key.use == "sig" {
            switch key.kty {
            case "RSA":
                guard let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode),
                      let rsa = try? _RSA.Signing.PublicKey(n: n, e: e) else { continue }
                keys[key.kid ?? ""] = .rsa(rsa)
            case "EC" where key.crv == "P-256":
                guard let x = key.x.flatMap(Base64URL.decode), let y = key.y.flatMap(Base64URL.decode), x.count == 32, y.count == 32,
                      let p256 = try? P256.Signing.PublicKey(rawRepresentation: x + y) else { continue }
                keys[key.kid ?? ""] = .p256(p256)
            default: continue
            }
        }
        return keys
    }

    /// How long a fetch of a provider's keys or discovery document may take: every sign-in that
    /// needs them waits for that one fetch (with 10 s, a third of the sign-ins during a hang waited 10 s).
    static let fetchTimeout: Int64 = 3

    func fetchJSON<T: Decodable>(_ url: String, provider: Provider, http: any Client) async throws -> T {
        var request = ClientRequest(method: .GET, url: URI(string: url), headers: ["Accept": "application/json", "User-Agent": "Forkcast/\(forkcastVersion)"])
        request.timeout = .seconds(Self.fetchTimeout)
        let response: ClientResponse
        do { response = try await http.send(request) } catch {
            throw AppError.upstreamUnavailable("\(provider.name) did not answer (\(url.prefix(200))); try again in a moment.", retryAfter: 30, service: provider.name)
        }
        guard response.status == .ok, let value = try? response.content.decode(T.self, using: JSONDecoder()) else {
            throw AppError.upstreamUnavailable("\(provider.name) answered \(url.prefix(200)) with \(response.status.code), not the expected JSON.", retryAfter: 30, service: provider.name)
        }
        return value
    }
}
