import Fluent
import FluentPostgresDriver
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import SQLKit

/// A PostgreSQL write transaction whose connection lease ends when its connection does.
///
/// PostgresNIO hands a statement to its channel without a write promise, so a statement sent after
/// the channel has closed and dropped its handlers (PostgreSQL went away between two statements of
/// a transaction, or just before its ROLLBACK) is never answered. Fluent's own `transaction` then
/// waits forever and keeps its pool slot: after a few outages every slot of an event loop's pool was
/// held by such a lease and the instance answered every second request with a pool timeout.
/// Here the lease is watched: once its connection is closed the transaction fails at once (a 503,
/// nothing saved), and the pool, seeing the connection closed, replaces it. Once COMMIT has been
/// sent nobody can say whether it took: a failure from then on is ``AppError/outcomeUnknown``, never
/// "nothing was saved" (a client retrying on that word would store the change twice).
extension Database {
    static var closedConnectionCheck: TimeAmount { .milliseconds(250) }

    /// The server's ERROR to a COMMIT (a deferred constraint) is an answer: nothing was saved. Anything
    /// else (the connection lost, a FATAL as the server ends it) leaves the outcome unknown.
    static func refusedCommit(_ error: any Error) -> Bool {
        guard let psql = error as? PSQLError, psql.code == .server else { return false }
        return psql.serverInfo?[.severity] == "ERROR"
    }

    func postgresWrite<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        try await withConnection { (db: any Database) -> EventLoopFuture<T> in
            guard let postgres = db as? any PostgresDatabase else {
                return db.eventLoop.makeFailedFuture(AppError.storageUnavailable)
            }
            return postgres.withConnection { (connection: PostgresConnection) -> EventLoopFuture<T> in
                let answer = connection.eventLoop.makePromise(of: T.self)
                let committing = NIOLockedValueBox(false)
                let watch = connection.eventLoop.scheduleRepeatedTask(initialDelay: Self.closedConnectionCheck,
                                                                      delay: Self.closedConnectionCheck) { _ in
                    if connection.isClosed { answer.fail(committing.withLockedValue { $0 } ? AppError.outcomeUnknown : AppError.storageUnavailable) }
                }
                answer.futureResult.whenComplete { _ in watch.cancel() }
                answer.completeWithTask {
                    let sql = db as! any SQLDatabase
                    try await sql.raw("BEGIN").run()
                    do {
                        let result = try await body(db)
                        committing.withLockedValue { $0 = true }
                        try await sql.raw("COMMIT").run()
                        return result
                    } catch {
                        if committing.withLockedValue({ $0 }), !Self.refusedCommit(error) { throw AppError.outcomeUnknown }
                        if !connection.isClosed { try? await sql.raw("ROLLBACK").run() }
                        throw error
                    }
                }
                return answer.futureResult
            }
        }.get()
    }
}
