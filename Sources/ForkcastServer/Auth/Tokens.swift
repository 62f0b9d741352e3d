import Crypto
import Fluent
import ForkcastCore
import FluentSQL
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
/// One query (every API request starts here; a statement kept prepared: ``PreparedReads`` on SQLite,
/// ``BearerStatement`` on PostgreSQL):
/// the token joined to its user, with the head of the user's change feed, which kept answers are
/// keyed by (``ReadCache``), and (for a request that may change data) the versions of the user's
/// meal types and foods, which logging keeps them under.
struct BearerAuthenticator: AsyncBearerAuthenticator {
    /// What a bound token hash stands for when the query is serialized.
    enum Hash { case value(String), placeholder }

    /// The query for a token's hash. Reads log nothing: only a request that may change data
    /// (`writes`) asks for the versions logging keeps under.
    static func query(hash: Hash, writes: Bool) -> SQLQueryString {
        let versions: SQLQueryString = writes ? """
            , \(SyncLog.version(of: .mealType, owner: "t.user_id")) AS meal_types_version,
              \(SyncLog.version(of: .food, owner: "t.user_id")) AS foods_version
            """ : ""
        let bound: SQLQueryString
        switch hash {
        case .value(let hash): bound = "\(bind: hash)"
        case .placeholder: bound = "\(bind: "")"
        }
        // CAST: a bare bound value compared in a join makes SQLite (3.53) plan the kept statement
        // again for every new value, which costs what keeping it saves.
        return """
            SELECT u.*, t.id AS token_id, t.expires_at AS token_expires_at, \(SyncLog.head(of: "t.user_id")) AS feed_head\(versions)
            FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = CAST(\(bound) AS TEXT)
            """
    }

    func authenticate(bearer: BearerAuthorization, for request: Request) async throws {
        let sql = request.db as! any SQLDatabase
        let writes = request.method != .GET && request.method != .HEAD
        let hash = Tokens.hash(bearer.token)
        let found: (any SQLRow)?
        if let kept = await BearerStatement.row(hash: hash, writes: writes, on: request.db, logger: request.logger) {
            found = kept
        } else if let rows = request.application.preparedReads?.rows(Self.query(hash: .value(hash), writes: writes), serializedFor: sql) {
            found = rows.first
        } else {
            found = try await sql.raw(Self.query(hash: .value(hash), writes: writes)).first()
        }
        guard let row = found else { return }
        guard try row.decode(column: "token_expires_at", as: Date.self) > request.now else {
            let expired = try row.decode(column: "token_id", as: UUID.self)
            try await request.db.write { tx in try await TokenModel.query(on: tx).filter(\.$id == expired).delete() }
            return
        }
        let user = try row.decode(fluentModel: UserModel.self)
        request.auth.login(user)
        let id = try user.requireID()
        request.feedHead = (owner: id, head: Int(try row.decode(column: "feed_head", as: Int64.self)))
        if writes {
            request.keptVersions = .init(owner: id, mealTypes: try row.decode(column: "meal_types_version", as: String.self),
                                         foods: try row.decode(column: "foods_version", as: String.self))
        }
    }
}

extension Request {
    /// The signed-in user, or a 401 problem.
    func requireUser() throws -> UserModel {
        guard let user = auth.get(UserModel.self) else {
            throw AppError.unauthorized("Sign in first: send Authorization: Bearer <token> from /api/v1/auth/login.")
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
            if let claimed = request.headers.first(name: Self.accountHeader), UUID(uuidString: claimed) != user.id {
                throw AppError.conflict("This page acted for another account than the one signed in now; nothing was saved. Sign in as that account to send what it queued.")
            }
        } catch { return request.eventLoop.makeFailedFuture(error) }
        return next.respond(to: request)
    }
}
