import Fluent
import Foundation
import NIOCore
import SQLKit
import Vapor

/// Deletes what has stopped working: expired web sessions and API tokens, sign-in buckets that
/// have long been full again. Runs at start-up and then every hour on each instance (the deletes
/// are idempotent, so several instances doing it at once is harmless).
enum Housekeeping {
    static let interval: TimeAmount = .hours(1)

    /// One pass; returns how many rows went.
    @discardableResult
    static func run(on db: any Database, now: Date) async throws -> (sessions: Int, tokens: Int, buckets: Int) {
        let sessions = try await WebSessionModel.query(on: db).filter(\.$expiresAt <= now).count()
        try await WebSessionModel.query(on: db).filter(\.$expiresAt <= now).delete()
        let tokens = try await TokenModel.query(on: db).filter(\.$expiresAt <= now).count()
        try await TokenModel.query(on: db).filter(\.$expiresAt <= now).delete()
        // A bucket untouched for a day has refilled completely: it is the same as no row.
        let sql = db as! any SQLDatabase
        let cutoff = now.timeIntervalSince1970 - 24 * 3600
        let buckets = try await sql.raw("SELECT COUNT(*) AS n FROM login_buckets WHERE updated_at < \(bind: cutoff)").first()?
            .decode(column: "n", as: Int.self) ?? 0
        try await sql.raw("DELETE FROM login_buckets WHERE updated_at < \(bind: cutoff)").run()
        if sql.dialect.name == "sqlite" {
            // Readers can keep SQLite's automatic checkpoints from finishing; this one waits for them.
            _ = try await sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").all()
        }
        return (sessions, tokens, buckets)
    }

    /// Schedules ``run`` every hour while the application runs.
    struct Lifecycle: LifecycleHandler {
        func didBootAsync(_ app: Application) async throws {
            let db = app.db
            let now = app.dependencies.now
            let logger = app.logger
            let loop = app.eventLoopGroup.next()
            loop.scheduleRepeatedAsyncTask(initialDelay: .seconds(5), delay: Housekeeping.interval) { _ in
                loop.makeFutureWithTask {
                    do { try await Housekeeping.run(on: db, now: now()) } catch {
                        logger.warning("housekeeping failed: \(String(describing: error))")
                    }
                }
            }
        }
    }
}
