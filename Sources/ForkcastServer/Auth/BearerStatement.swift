import FluentPostgresDriver
import Foundation
import SQLKit
import Vapor

/// ``BearerAuthenticator``'s query on PostgreSQL, as a statement every connection keeps prepared
/// (PostgresNIO's `PostgresPreparedStatement`): parsed and planned once per connection, then only
/// bound and run. Through Fluent, PostgreSQL parsed and planned it (and its feed-head subqueries)
/// on every request (docs/performance.md). SQLite's counterpart is ``PreparedReads``.
enum BearerStatement {
    /// The statement, for reads or for writes (``Variant``).
    struct Kept<V: Variant>: PostgresPreparedStatement {
        static var name: String { V.name }
        static var sql: String { V.sql }
        typealias Row = PostgresRow
        let hash: String
        func makeBindings() throws -> PostgresBindings { BearerStatement.bindings(hash) }
        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    protocol Variant { static var name: String { get }; static var sql: String { get } }

    /// The token's row with the feed head: what every read starts with.
    enum Read: Variant {
        static let name = "forkcast_bearer_read"
        static let sql = BearerAuthenticator.query(hash: .placeholder, writes: false).postgresText
    }

    /// The same, with the versions of the meal types and foods a write keeps them under.
    enum Write: Variant {
        static let name = "forkcast_bearer_write"
        static let sql = BearerAuthenticator.query(hash: .placeholder, writes: true).postgresText
    }

    static func bindings(_ hash: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(hash)
        return bindings
    }

    /// The row for the token with this hash, when `db` is PostgreSQL; nil when it is not, or when
    /// the kept statement failed (the caller then asks Fluent, as before).
    static func row(hash: String, writes: Bool, on db: any Database, logger: Logger) async -> BearerAuthenticator.Found?? {
        guard let postgres = db as? any PostgresDatabase else { return nil }
        do {
            let row: PostgresRow? = try await postgres.withConnection { connection in
                connection.eventLoop.makeFutureWithTask {
                    if writes {
                        for try await row in try await connection.execute(Kept<Write>(hash: hash), logger: logger) { return row }
                    } else {
                        for try await row in try await connection.execute(Kept<Read>(hash: hash), logger: logger) { return row }
                    }
                    return nil
                }
            }.get()
            return .some(try row.map { try found($0, writes: writes) })
        } catch {
            logger.debug("bearer statement failed, asking Fluent: \(String(describing: error))")
            return nil
        }
    }
}

/// The row decoded by PostgresNIO itself, in the query's column order (``BearerAuthenticator/userColumns``).
private func found(_ row: PostgresRow, writes: Bool) throws -> BearerAuthenticator.Found {
    let (id, email, emailKey, passwordHash, displayName, timeZone, currency, createdAt, updatedAt, tokenID, expiresAt, feedHead) =
        try row.decode((UUID, String, String, String, String?, String, String, Date?, Date?, UUID, Date, Int64).self)
    // A write's query has the two versions after those twelve columns.
    let versions = writes ? try row.dropFirst(12).map { try $0.decode(String.self) } : nil
    guard versions.map({ $0.count == 2 }) ?? true else { throw BearerStatement.MissingVersions() }
    let user = try UserModel(stored: id, email: email, emailKey: emailKey, passwordHash: passwordHash, displayName: displayName,
                             timeZone: timeZone, currency: currency, createdAt: createdAt, updatedAt: updatedAt)
    return .init(user: user, tokenID: tokenID, expiresAt: expiresAt, feedHead: feedHead, versions: versions.map { ($0[0], $0[1]) })
}

extension BearerStatement {
    struct MissingVersions: Error {}
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
