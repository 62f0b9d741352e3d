import ForkcastContract
import Crypto
import Fluent
import ForkcastCore
import FluentPostgresDriver
import FluentSQL
import PostgresNIO
import SQLKit
import Foundation
import Vapor

/// Bearer tokens: 32 random bytes shown once to the client; only their SHA-256 is stored.
enum Tokens {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// Whether `token` could be a sharing link's: links' tokens are long and random, so a short
    /// or odd one is not looked up at all.
    static func mayBeLink(_ token: String) -> Bool {
        token.count >= 32 && token.count <= 100 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    static func hash(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(token.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Issues a new token for the user and stores its hash.
    static func issue(for userID: UUID, on db: any Database, now: Date, lifetime: TimeInterval) async throws -> String {
        let token = generate()
        let model = TokenModel(userID: userID, tokenHash: hash(token), expiresAt: now.addingTimeInterval(lifetime))
        try await db.write { tx in try await model.create(on: tx) }
        return token
    }

    /// Revokes one token (logout).
    static func revoke(_ token: String, on db: any Database) async throws {
        try await db.write { tx in try await TokenModel.query(on: tx).filter(\.$tokenHash == hash(token)).delete() }
    }
}

/// Signs a request in from `Authorization: Bearer …` when the token is known and unexpired.
///
/// One query (every API request starts here): the token joined to its user, with the head of the user's change feed, which kept answers are
/// keyed by (``ReadCache``), and (for a request that may change data) the versions of the user's
/// meal types and foods, which logging keeps them under.
struct BearerAuthenticator: AsyncBearerAuthenticator {
    /// The query for a token's hash, up to the hash itself (the statement's only value, last).
    /// Reads log nothing: only a request that may change data (`writes`) asks for the versions
    /// logging keeps under.
    static func query(writes: Bool) -> String {
        let versions = writes ? """
            , \(SyncLog.version(of: .mealType, column: "t.user_id")) AS meal_types_version,
              \(SyncLog.version(of: .food, column: "t.user_id")) AS foods_version
            """ : ""
        return """
            SELECT \(Self.userColumns), t.id AS token_id, t.expires_at AS token_expires_at, \(SyncLog.head(column: "t.user_id")) AS feed_head,
              t.token_hash AS token_hash\(versions)
            FROM api_tokens t JOIN users u ON u.id = t.user_id
            """ + " WHERE t.token_hash = "
    }

    /// The token's row: on PostgreSQL a statement each connection prepares once (PostgresNIO keeps
    /// it by name; parsing and planning it on every request halved PostgreSQL's reads,
    /// docs/performance.md); on SQLite a plain query.
    static func row(hash: String, writes: Bool, on db: any Database) async throws -> (any SQLRow)? {
        guard let postgres = db as? any PostgresDatabase else {
            return try await (db as! any SQLDatabase).raw("\(unsafeRaw: query(writes: writes))\(bind: hash)").first()
        }
        return try await postgres.withConnection { connection in
            connection.watched(failure: { AppError.storageUnavailable }) {
                let rows = writes ? try await connection.execute(Prepared<ForWrites>(hash: hash), logger: db.logger)
                                  : try await connection.execute(Prepared<ForReads>(hash: hash), logger: db.logger)
                for try await row in rows { return row.sql() as any SQLRow }
                return nil
            }
        }.get()
    }

    enum ForReads: TokenQueryKind { static let writes = false }
    enum ForWrites: TokenQueryKind { static let writes = true }
    struct Prepared<Kind: TokenQueryKind>: PostgresPreparedStatement {
        static var name: String { Kind.writes ? "forkcast_token_writes" : "forkcast_token_reads" }
        static var sql: String { query(writes: Kind.writes) + "$1" }
        typealias Row = PostgresRow
        var hash: String
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(hash)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    /// The user's columns, in the order ``Found`` decodes them.
    static let userColumns = "u.id, u.email, u.email_key, u.password_hash, u.display_name, u.time_zone, u.currency, u.created_at, u.updated_at"

    /// What the query answers: the user, the token and the feed head (and the versions, for a write).
    struct Found {
        var user: UserModel
        var tokenID: UUID
        var expiresAt: Date
        var feedHead: Int64
        var versions: (mealTypes: String, foods: String)?

        /// From any database's row, column by column (without Fluent's model decoding, which costs
        /// more than the query's own work on a kept answer: docs/performance.md).
        init(_ row: any SQLRow, writes: Bool) throws {
            user = try UserModel(stored: try row.decode(column: "id", as: UUID.self), email: try row.decode(column: "email", as: String.self),
                             emailKey: try row.decode(column: "email_key", as: String.self),
                             passwordHash: try row.decode(column: "password_hash", as: String.self),
                             displayName: try row.decode(column: "display_name", as: String?.self),
                             timeZone: try row.decode(column: "time_zone", as: String.self), currency: try row.decode(column: "currency", as: String.self),
                             createdAt: try row.decode(column: "created_at", as: Date?.self), updatedAt: try row.decode(column: "updated_at", as: Date?.self))
            tokenID = try row.decode(column: "token_id", as: UUID.self)
            expiresAt = try row.decode(column: "token_expires_at", as: Date.self)
            feedHead = try row.decode(column: "feed_head", as: Int64.self)
            versions = writes ? (try row.decode(column: "meal_types_version", as: String.self), try row.decode(column: "foods_version", as: String.self)) : nil
        }

        init(user: UserModel, tokenID: UUID, expiresAt: Date, feedHead: Int64, versions: (mealTypes: String, foods: String)?) {
            self.user = user
            self.tokenID = tokenID
            self.expiresAt = expiresAt
            self.feedHead = feedHead
            self.versions = versions
        }
    }

    func authenticate(bearer: BearerAuthorization, for request: Request) async throws {
        let db = request.database
        // A key for another program: no session, only what the key may reach (APIKeysController.check).
        if bearer.token.hasPrefix(APIKey.prefix) {
            guard bearer.token.count <= 120, let found = try await request.manageAPIKeys.open(tokenHash: Tokens.hash(bearer.token)),
                  let user = try await UserModel.find(found.owner, on: db) else { return }
            request.auth.login(user)
            request.apiKey = found.key
            return
        }
        let writes = request.method != .GET && request.method != .HEAD
        let hash = Tokens.hash(bearer.token)
        guard let found = try await Self.row(hash: hash, writes: writes, on: db).map({ try Found($0, writes: writes) }) else {
            return
        }
        guard found.expiresAt > request.now else {
            let expired = found.tokenID
            try await db.write { tx in try await TokenModel.query(on: tx).filter(\.$id == expired).delete() }
            return
        }
        request.auth.login(found.user)
        let id = try found.user.requireID()
        request.feedHead = (owner: id, head: Int(found.feedHead))
        if let versions = found.versions {
            request.keptVersions = .init(owner: id, mealTypes: versions.mealTypes, foods: versions.foods)
        }
    }
}

extension Request {
    /// The request's database, made once: Vapor's `db` makes a new one on every use, which on
    /// PostgreSQL is a measurable part of answering from a kept answer (docs/performance.md).
    /// Set to a write's transaction when the whole handler is one write (``IdempotencyKey``).
    var database: any Database {
        get {
            if let made = storage[DatabaseKey.self] { return made }
            let made = db
            storage[DatabaseKey.self] = made
            return made
        }
        set { storage[DatabaseKey.self] = newValue }
    }

    private enum DatabaseKey: StorageKey { typealias Value = any Database }
}

extension Request {
    /// The signed-in user, or a 401 problem.
    func requireUser() throws -> UserModel {
        guard let user = auth.get(UserModel.self) else {
            throw AppError.unauthorized("Sign in first: send Authorization: Bearer <token> from \(Auth.Login.path).")
        }
        return user
    }

    func requireUserID() throws -> UUID {
        try requireUser().requireID()
    }
}

/// Rejects requests without a signed-in user with a problem+json 401.
struct RequireUserMiddleware: Middleware {
    /// The account a web page's script acts for (the page's `forkcast-account`): an outbox queued
    /// by one account is never sent as another one signed in since.
    static let accountHeader = "X-Forkcast-Account"

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        do {
            let user = try request.requireUser()
            if let claimed = request.headers.first(name: Self.accountHeader) {
                guard let account = UUID(uuidString: claimed) else {
                    throw AppError.badRequest("\(Self.accountHeader) must be an account id (a UUID, as the page's forkcast-account holds); nothing was saved.")
                }
                guard account == user.id else {
                    throw AppError.conflict("This page acted for another account than the one signed in now; nothing was saved. Sign in as that account to send what it queued.")
                }
            }
        } catch { return request.eventLoop.makeFailedFuture(error) }
        return next.respond(to: request)
    }
}

protocol TokenQueryKind: Sendable { static var writes: Bool { get } }
