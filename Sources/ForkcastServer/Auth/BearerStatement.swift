import FluentPostgresDriver
import Foundation
import SQLKit
import Vapor

/// ``BearerAuthenticator``'s query on PostgreSQL, as a statement every connection keeps prepared
/// (PostgresNIO's `PostgresPreparedStatement`): parsed and planned once per connection, then only
/// bound and run. Through Fluent, PostgreSQL parsed and planned it (and its feed-head subqueries)
/// on every request (docs/performance.md). SQLite's counterpart is ``PreparedReads``.
///
/// Requests that arrive while such reads are in flight share the next one (``SharedQuery``): one
/// round trip asks for all their tokens (an array of hashes), and each is answered only by a read
/// sent after it arrived.
enum BearerStatement {
    /// The statement, for reads or for writes (``Variant``).
    struct Kept<V: Variant>: PostgresPreparedStatement {
        static var name: String { V.name }
        static var sql: String { V.sql }
        typealias Row = PostgresRow
        let hashes: [String]
        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            if V.many { bindings.append(hashes) } else { bindings.append(hashes[0]) }
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    protocol Variant: Sendable {
        static var name: String { get }
        static var sql: String { get }
        /// Whether it asks for an array of hashes, or for one.
        static var many: Bool { get }
    }

    /// The token's row with the feed head: what every read starts with.
    enum Read: Variant {
        static let name = "forkcast_bearer_read"
        static let sql = BearerAuthenticator.query(hash: .placeholder, writes: false).postgresText
        static let many = false
    }

    /// The same, with the versions of the meal types and foods a write keeps them under.
    enum Write: Variant {
        static let name = "forkcast_bearer_write"
        static let sql = BearerAuthenticator.query(hash: .placeholder, writes: true).postgresText
        static let many = false
    }

    /// ``Read`` for the tokens of the requests that waited together. A statement of its own: with
    /// one hash in the array, PostgreSQL's generic plan for `= ANY($1)` costs more than the plan
    /// for that one value, so it planned the statement again on every run, and a first version
    /// of this change that asked every time with `ANY` lost a third of its reads to that. One
    /// token alone is asked for with ``Read``, whose plan is kept.
    enum Reads: Variant {
        static let name = "forkcast_bearer_reads"
        static let sql = BearerAuthenticator.query(hash: .anyOfBoundArray, writes: false).postgresText
        static let many = true
    }

    /// ``Write`` for the tokens of the requests that waited together (see ``Reads``).
    enum Writes: Variant {
        static let name = "forkcast_bearer_writes"
        static let sql = BearerAuthenticator.query(hash: .anyOfBoundArray, writes: true).postgresText
        static let many = true
    }

    /// One token's row, as PostgresNIO decoded it: a fresh ``BearerAuthenticator/Found`` (with a
    /// user model of its own) is made from it for each request that asked.
    struct Columns: Sendable {
        var id: UUID, email: String, emailKey: String, passwordHash: String, displayName: String?
        var timeZone: String, currency: String, createdAt: Date?, updatedAt: Date?
        var tokenID: UUID, expiresAt: Date, feedHead: Int64
        var versions: (mealTypes: String, foods: String)?

        func found() throws -> BearerAuthenticator.Found {
            let user = try UserModel(stored: id, email: email, emailKey: emailKey, passwordHash: passwordHash, displayName: displayName,
                                     timeZone: timeZone, currency: currency, createdAt: createdAt, updatedAt: updatedAt)
            return .init(user: user, tokenID: tokenID, expiresAt: expiresAt, feedHead: feedHead, versions: versions)
        }
    }

    /// The application's two shared reads (for reads, for writes), made by `configure` on PostgreSQL.
    struct Shared: Sendable {
        typealias Query = SharedQuery<String, Columns, Source>
        /// Whose database and logger a batch uses: its first waiter's.
        struct Source: Sendable { let db: any PostgresDatabase; let logger: Logger }

        let reads: Query
        let writes: Query

        /// `lanes`: how many token reads of each kind may be in flight at once.
        init(lanes: Int) {
            reads = Query(lanes: lanes) { hashes, source in
                hashes.count == 1 ? try await rows(Kept<Read>(hashes: hashes), writes: false, source)
                    : try await rows(Kept<Reads>(hashes: hashes), writes: false, source)
            }
            writes = Query(lanes: lanes) { hashes, source in
                hashes.count == 1 ? try await rows(Kept<Write>(hashes: hashes), writes: true, source)
                    : try await rows(Kept<Writes>(hashes: hashes), writes: true, source)
            }
        }
    }

    /// The row for the token with this hash, when `db` is PostgreSQL; nil when it is not, or when
    /// the kept statement failed (the caller then asks Fluent, as before).
    static func row(hash: String, writes: Bool, shared: Shared?, on db: any Database, logger: Logger) async -> BearerAuthenticator.Found?? {
        guard let shared, let postgres = db as? any PostgresDatabase else { return nil }
        do {
            let columns = try await (writes ? shared.writes : shared.reads).value(for: hash, context: .init(db: postgres, logger: logger))
            return .some(try columns?.found())
        } catch {
            logger.debug("bearer statement failed, asking Fluent: \(String(describing: error))")
            return nil
        }
    }

    private static func rows<V>(_ statement: Kept<V>, writes: Bool, _ source: Shared.Source) async throws -> [String: Columns] {
        try await source.db.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                var found: [String: Columns] = [:]
                for try await row in try await connection.execute(statement, logger: source.logger) {
                    let (hash, columns) = try decoded(row, writes: writes)
                    found[hash] = columns
                }
                return found
            }
        }.get()
    }
}

/// A row decoded by PostgresNIO itself, in the query's column order (``BearerAuthenticator/userColumns``,
/// then the token, the feed head and the token's hash).
private func decoded(_ row: PostgresRow, writes: Bool) throws -> (hash: String, columns: BearerStatement.Columns) {
    let (id, email, emailKey, passwordHash, displayName, timeZone, currency, createdAt, updatedAt, tokenID, expiresAt, feedHead, hash) =
        try row.decode((UUID, String, String, String, String?, String, String, Date?, Date?, UUID, Date, Int64, String).self)
    // A write's query has the two versions after those thirteen columns.
    let versions = writes ? try row.dropFirst(13).map { try $0.decode(String.self) } : nil
    guard versions.map({ $0.count == 2 }) ?? true else { throw BearerStatement.MissingVersions() }
    return (hash, .init(id: id, email: email, emailKey: emailKey, passwordHash: passwordHash, displayName: displayName, timeZone: timeZone,
                        currency: currency, createdAt: createdAt, updatedAt: updatedAt, tokenID: tokenID, expiresAt: expiresAt,
                        feedHead: feedHead, versions: versions.map { ($0[0], $0[1]) }))
}

extension BearerStatement {
    struct MissingVersions: Error {}
}

extension Application {
    private struct BearerSharedKey: StorageKey { typealias Value = BearerStatement.Shared }

    /// The token reads the requests share, on PostgreSQL (set up by `configure`).
    var bearerShared: BearerStatement.Shared? {
        get { storage[BearerSharedKey.self] }
        set { storage[BearerSharedKey.self] = newValue }
    }
}

extension SQLExpression {
    /// The text PostgreSQL is sent for this expression (binds as $1, $2…), known without a connection.
    var postgresText: String { PostgresText().serialize(self).sql }
}

/// A database that only serializes, in PostgreSQL's dialect: for statements prepared by name, whose
/// text is fixed before any connection exists.
private struct PostgresText: SQLDatabase {
    let logger = Logger(label: "forkcast.postgres-text")
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { PostgresDialect() }
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFailedFuture(Unsupported())
    }
    struct Unsupported: Error {}
}
