import Crypto
import Foundation
import NIOCore
import Vapor

/// Everything Forkcast reads from the environment, parsed once at start-up.
public struct AppConfig: Sendable {
    public enum Storage: Sendable, Equatable {
        /// An SQLite file (the default: `<data dir>/forkcast.sqlite`).
        case sqlite(path: String)
        /// A PostgreSQL server, with an optional schema search path (tests give each run its own).
        case postgres(url: String, searchPath: String?)
    }

    public var dataDirectory: String
    public var storage: Storage
    public var allowSignup: Bool
    /// bcrypt cost; lower it only in tests.
    public var bcryptCost: Int
    public var tokenLifetime: TimeInterval
    public var contact: String
    public var maxBodySize: ByteCount
    public var openFoodFactsURL: String
    public var openFoodFactsProductsPerMinute: Int
    public var openFoodFactsSearchesPerMinute: Int
    public var openFoodFactsTimeout: Double
    /// Seconds to wait before retry n after a 429/503 (tests make it tiny).
    public var openFoodFactsBackoff: @Sendable (Int) -> Double
    /// The address people use (FORKCAST_PUBLIC_URL); an https:// one marks cookies Secure and sends HSTS.
    public var publicURL: String?
    /// Whether a reverse proxy in front sets X-Forwarded-For/-Proto (FORKCAST_TRUST_PROXY).
    public var trustProxy: Bool
    /// How long a web session lasts without use.
    public var sessionLifetime: TimeInterval
    /// Largest Apple Health XML read from an upload or a zip (FORKCAST_HEALTH_MAX_XML_MB).
    public var healthMaxXMLBytes: Int64
    /// Largest photo accepted (FORKCAST_PHOTO_MAX_MB, default 15 MB).
    public var photoMaxBytes: Int
    /// What one person's photos may take in all (FORKCAST_PHOTO_QUOTA_MB, default 2048 MB).
    public var photoQuotaBytes: Int64 = 2048 << 20
    /// Memory for kept answers of the hottest reads (FORKCAST_READ_CACHE_MB, default 16; 0 keeps none).
    public var readCacheBytes: Int
    /// Sign in with Apple (FORKCAST_APPLE_*), when configured.
    public var apple: AppleSignIn?
    /// Single sign-on with an OpenID Connect provider (FORKCAST_OIDC_*), when configured.
    public var oidc: OpenIDConnect?
    /// Whether email and password sign in (FORKCAST_PASSWORD_LOGIN; off only with Apple or OIDC set up).
    public var passwordLogin: Bool = true
    /// How long a write waits for its turn before the request answers 503 (``WriteGate``).
    public var writeWaitLimit: Duration = WriteGate.defaultWaitLimit
    /// How long a request waits for one of PostgreSQL's connections before it answers 503.
    public var postgresConnectionWaitLimit: Duration = .seconds(5)
    /// How long a request waits for SQLite's connection of its event loop (one each) before it
    /// answers 503: Fluent's 10 s.
    public var sqliteConnectionWaitLimit: Duration = .seconds(10)
    /// How long opening one PostgreSQL connection (connect, start-up, authentication) may take.
    public var postgresConnectTimeout: Duration = .seconds(10)
    /// How often an open event stream reads the person's newest change itself, for a change nobody
    /// in this process was told of (a command's write); a heartbeat when there is none.
    public var eventStreamCheck: Duration = .seconds(15)

    /// Sign in with Apple: the web flow needs the Services ID and a key to sign the client secret; the
    /// native apps' bundle ids are accepted audiences for `POST /api/v1/auth/apple`.
    public struct AppleSignIn: Sendable {
        /// The Services ID (the web flow's client id), nil when only native apps sign in.
        public var clientID: String?
        public var teamID: String
        public var keyID: String
        /// The .p8 key's PEM text (PKCS#8, P-256).
        public var privateKeyPEM: String
        public var appIDs: [String]
        /// Apple's address: the issuer and the base of its endpoints (a stand-in in tests).
        public var baseURL: String

        public init(clientID: String?, teamID: String = "", keyID: String = "", privateKeyPEM: String = "",
                    appIDs: [String] = [], baseURL: String = "https://appleid.apple.com") {
            self.clientID = clientID
            self.teamID = teamID
            self.keyID = keyID
            self.privateKeyPEM = privateKeyPEM
            self.appIDs = appIDs
            self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        }
    }

    /// Any standard OpenID Connect provider (Authelia, Authentik, Keycloak, Google…).
    public struct OpenIDConnect: Sendable {
        public var issuer: String
        public var clientID: String
        /// Empty for a public client (PKCE alone).
        public var clientSecret: String
        /// When not empty, only people in one of these groups (the `groups` claim) may sign in.
        public var allowedGroups: [String]
        /// What the button says: "Sign in with <name>".
        public var name: String

        public init(issuer: String, clientID: String, clientSecret: String = "", allowedGroups: [String] = [], name: String = "single sign-on") {
            self.issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.allowedGroups = allowedGroups
            self.name = name
        }
    }

    public init(dataDirectory: String = "./data", storage: Storage? = nil, allowSignup: Bool = false,
                bcryptCost: Int = 12, tokenLifetime: TimeInterval = 30 * 24 * 3600,
                contact: String = "admin@localhost", maxBodySize: ByteCount = "64kb",
                openFoodFactsURL: String = "https://world.openfoodfacts.org", openFoodFactsProductsPerMinute: Int = 15,
                openFoodFactsSearchesPerMinute: Int = 10, openFoodFactsTimeout: Double = 3,
                openFoodFactsBackoff: @escaping @Sendable (Int) -> Double = { Double(1 << ($0 - 1)) },
                publicURL: String? = nil, trustProxy: Bool = false, sessionLifetime: TimeInterval = 30 * 24 * 3600,
                healthMaxXMLBytes: Int64 = 8 << 30, photoMaxBytes: Int = 15 << 20, readCacheBytes: Int = 16 << 20) {
        self.dataDirectory = dataDirectory
        self.storage = storage ?? .sqlite(path: (dataDirectory as NSString).appendingPathComponent("forkcast.sqlite"))
        self.allowSignup = allowSignup
        self.bcryptCost = bcryptCost
        self.tokenLifetime = tokenLifetime
        self.contact = contact
        self.maxBodySize = maxBodySize
        self.openFoodFactsURL = openFoodFactsURL.hasSuffix("/") ? String(openFoodFactsURL.dropLast()) : openFoodFactsURL
        self.openFoodFactsProductsPerMinute = openFoodFactsProductsPerMinute
        self.openFoodFactsSearchesPerMinute = openFoodFactsSearchesPerMinute
        self.openFoodFactsTimeout = openFoodFactsTimeout
        self.openFoodFactsBackoff = openFoodFactsBackoff
        self.publicURL = publicURL
        self.trustProxy = trustProxy
        self.sessionLifetime = sessionLifetime
        self.healthMaxXMLBytes = healthMaxXMLBytes
        self.photoMaxBytes = photoMaxBytes
        self.readCacheBytes = readCacheBytes
    }

    /// Served over HTTPS for certain (the public URL says so).
    var publicURLIsHTTPS: Bool { publicURL?.lowercased().hasPrefix("https://") == true }

    /// The settings of the Open Food Facts client.
    var openFoodFacts: OpenFoodFactsClient.Settings {
        let backoff = openFoodFactsBackoff
        return .init(baseURL: openFoodFactsURL, userAgent: "Forkcast/\(forkcastVersion) (\(contact))",
                     timeout: .milliseconds(Int64(openFoodFactsTimeout * 1000)),
                     productsPerMinute: openFoodFactsProductsPerMinute, searchesPerMinute: openFoodFactsSearchesPerMinute,
                     maxRetries: 2, backoff: { .milliseconds(Int64(backoff($0) * 1000)) })
    }

    /// Makes the folder SQLite's file lives in. Not at configuration: a command that reads no
    /// data (`routes`) leaves no folder or empty database behind.
    public func makeDatabaseFolder() throws {
        guard case .sqlite(let path) = storage else { return }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
    }

    /// Reads `FORKCAST_*` and `DATABASE_URL` (README: Configuration).
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfig {
        let dataDirectory = env["FORKCAST_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "./data"
        var storage: Storage?
        if let url = env["DATABASE_URL"], !url.isEmpty {
            // postgres+uds://user:password@localhost/path/to/.s.PGSQL.5432#database reaches a server on
            // the same machine through its Unix socket (PostgresKit's form): no TCP on every query.
            guard ["postgres://", "postgresql://", "postgres+tcp://", "postgresql+tcp://", "postgres+uds://", "postgresql+uds://"]
                    .contains(where: { url.hasPrefix($0) }) else {
                throw ConfigError("DATABASE_URL must start with postgres:// or postgres+uds:// (got \(url.prefix(12))…)")
            }
            storage = .postgres(url: url, searchPath: env["FORKCAST_DATABASE_SCHEMA"].flatMap { $0.isEmpty ? nil : $0 })
        }
        let allowSignup = try flag(env["FORKCAST_ALLOW_SIGNUP"], name: "FORKCAST_ALLOW_SIGNUP")
        var cost = 12
        if let raw = env["FORKCAST_BCRYPT_COST"], !raw.isEmpty {
            guard let value = Int(raw), (4...31).contains(value) else { throw ConfigError("FORKCAST_BCRYPT_COST must be 4…31") }
            cost = value
        }
        var lifetimeDays = 30.0
        if let raw = env["FORKCAST_TOKEN_DAYS"], !raw.isEmpty {
            guard let value = Double(raw), value > 0, value <= 3650 else { throw ConfigError("FORKCAST_TOKEN_DAYS must be a number of days from 0 to 3650") }
            lifetimeDays = value
        }
        func positive(_ name: String, _ fallback: Double) throws -> Double {
            guard let raw = env[name], !raw.isEmpty else { return fallback }
            guard let value = Double(raw), value > 0, value.isFinite else { throw ConfigError("\(name) must be a positive number") }
            return value
        }
        return try AppConfig(dataDirectory: dataDirectory, storage: storage, allowSignup: allowSignup, bcryptCost: cost,
                         tokenLifetime: lifetimeDays * 24 * 3600,
                         contact: env["FORKCAST_CONTACT"].flatMap { $0.isEmpty ? nil : $0 } ?? "admin@localhost",
                         openFoodFactsURL: env["FORKCAST_OPENFOODFACTS_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://world.openfoodfacts.org",
                         openFoodFactsProductsPerMinute: Int(min(try positive("FORKCAST_OPENFOODFACTS_PRODUCTS_PER_MINUTE", 15), 100_000)),
                         openFoodFactsSearchesPerMinute: Int(min(try positive("FORKCAST_OPENFOODFACTS_SEARCHES_PER_MINUTE", 10), 100_000)),
                         openFoodFactsTimeout: try positive("FORKCAST_OPENFOODFACTS_TIMEOUT", 3),
                         publicURL: env["FORKCAST_PUBLIC_URL"].flatMap { $0.isEmpty ? nil : $0 },
                         trustProxy: try flag(env["FORKCAST_TRUST_PROXY"], name: "FORKCAST_TRUST_PROXY"),
                         healthMaxXMLBytes: Int64(min(try positive("FORKCAST_HEALTH_MAX_XML_MB", 8192), 1_000_000) * 1024 * 1024),
                         photoMaxBytes: Int(min(try positive("FORKCAST_PHOTO_MAX_MB", 15), 1024) * 1024 * 1024),
                         readCacheBytes: try readCacheMegabytes(env) * 1024 * 1024)
            .withPhotoQuota(megabytes: try positive("FORKCAST_PHOTO_QUOTA_MB", 2048))
            .withSignIn(env)
    }

    func withPhotoQuota(megabytes: Double) -> AppConfig {
        var copy = self
        copy.photoQuotaBytes = Int64(min(megabytes, 100_000_000) * 1024 * 1024)
        return copy
    }

    /// Reads FORKCAST_APPLE_*, FORKCAST_OIDC_* and FORKCAST_PASSWORD_LOGIN (docs/accounts.md).
    func withSignIn(_ env: [String: String]) throws -> AppConfig {
        var copy = self
        func value(_ name: String) -> String? { env[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0.trimmingCharacters(in: .whitespaces) } }
        func list(_ name: String) -> [String] {
            (value(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let appIDs = list("FORKCAST_APPLE_APP_IDS")
        if let clientID = value("FORKCAST_APPLE_CLIENT_ID") {
            guard let team = value("FORKCAST_APPLE_TEAM_ID"), let key = value("FORKCAST_APPLE_KEY_ID"),
                  let file = value("FORKCAST_APPLE_PRIVATE_KEY_FILE") else {
                throw ConfigError("FORKCAST_APPLE_CLIENT_ID needs FORKCAST_APPLE_TEAM_ID, FORKCAST_APPLE_KEY_ID and FORKCAST_APPLE_PRIVATE_KEY_FILE")
            }
            guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigError("FORKCAST_APPLE_PRIVATE_KEY_FILE: cannot read \(file)")
            }
            guard (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil else {
                throw ConfigError("FORKCAST_APPLE_PRIVATE_KEY_FILE: \(file) is not a P-256 private key in PEM (the .p8 file Apple gives)")
            }
            copy.apple = AppleSignIn(clientID: clientID, teamID: team, keyID: key, privateKeyPEM: pem, appIDs: appIDs,
                                     baseURL: value("FORKCAST_APPLE_URL") ?? "https://appleid.apple.com")
        } else if !appIDs.isEmpty {
            copy.apple = AppleSignIn(clientID: nil, appIDs: appIDs, baseURL: value("FORKCAST_APPLE_URL") ?? "https://appleid.apple.com")
        }
        if let issuer = value("FORKCAST_OIDC_ISSUER") {
            guard issuer.hasPrefix("https://") || issuer.hasPrefix("http://") else { throw ConfigError("FORKCAST_OIDC_ISSUER must be an http(s) address") }
            guard let clientID = value("FORKCAST_OIDC_CLIENT_ID") else { throw ConfigError("FORKCAST_OIDC_ISSUER needs FORKCAST_OIDC_CLIENT_ID") }
            copy.oidc = OpenIDConnect(issuer: issuer, clientID: clientID, clientSecret: value("FORKCAST_OIDC_CLIENT_SECRET") ?? "",
                                      allowedGroups: list("FORKCAST_OIDC_ALLOWED_GROUPS"), name: value("FORKCAST_OIDC_NAME") ?? "single sign-on")
        }
        switch env["FORKCAST_PASSWORD_LOGIN"]?.lowercased() {
        case nil, "", "true", "1", "yes", "on": copy.passwordLogin = true
        case "false", "0", "no", "off": copy.passwordLogin = false
        default: throw ConfigError("FORKCAST_PASSWORD_LOGIN must be true or false")
        }
        if !copy.passwordLogin, copy.apple?.clientID == nil, copy.oidc == nil {
            throw ConfigError("FORKCAST_PASSWORD_LOGIN=false needs another way to sign in on the web: Sign in with Apple (FORKCAST_APPLE_CLIENT_ID…) or OpenID Connect (FORKCAST_OIDC_ISSUER…)")
        }
        return copy
    }

    /// FORKCAST_READ_CACHE_MB: 0 (keep no answers) to 4096.
    private static func readCacheMegabytes(_ env: [String: String]) throws -> Int {
        guard let raw = env["FORKCAST_READ_CACHE_MB"], !raw.isEmpty else { return 16 }
        guard let value = Int(raw), (0...4096).contains(value) else {
            throw ConfigError("FORKCAST_READ_CACHE_MB must be a whole number from 0 to 4096")
        }
        return value
    }

    private static func flag(_ raw: String?, name: String) throws -> Bool {
        switch raw?.lowercased() {
        case nil, "", "false", "0", "no", "off": return false
        case "true", "1", "yes", "on": return true
        default: throw ConfigError("\(name) must be true or false")
        }
    }
}

/// The version sent in the User-Agent to outside services.
public let forkcastVersion = "0.3.0"

public struct ConfigError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
