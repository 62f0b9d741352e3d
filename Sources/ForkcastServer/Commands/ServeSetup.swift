import Fluent
import Foundation
import SQLKit
import Vapor

extension Application {
    /// Run before serving: bring the schema up to date, make SQLite durable and concurrent.
    public func prepareStorage() async throws {
        switch forkcastConfig.storage {
        case .sqlite:
            try forkcastConfig.makeDatabaseFolder()
            let sql = db as! any SQLDatabase
            // WAL keeps readers off writers' backs; synchronous FULL (the default) fsyncs every commit;
            // the WAL file is cut back to 64 MB after each checkpoint.
            _ = try await sql.raw("PRAGMA journal_mode = WAL").all()
            try await prepareSQLiteConnections()
            try await autoMigrate()
            try await Housekeeping.refreshStatistics(on: sql)
        case .postgres:
            // Several instances starting together: one migrates, the others wait for it.
            try await db.withConnection { connection in
                let sql = connection as! any SQLDatabase
                try await sql.raw("SELECT pg_advisory_lock(\(bind: Self.migrationLockKey))").run()
                do {
                    try await self.autoMigrate()
                    try await sql.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                } catch {
                    try? await sql.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                    throw error
                }
            }
        }
    }

    /// Deletes expired sessions and tokens every hour while serving.
    public func startHousekeeping() {
        lifecycle.use(Housekeeping.Lifecycle())
    }

    /// An arbitrary constant naming Forkcast's migration lock.
    static let migrationLockKey: Int64 = 0x466F_726B_6361_7374  // "Forkcast"

    /// Gives each pooled SQLite connection (one per event loop, for reads and for writes) a bounded busy timeout, replacing
    /// the driver's handler that retries forever, and a WAL size limit. SQLite's own checkpoint after
    /// a commit past 1,000 pages stays on: the gate lets no other writer in meanwhile, so it copies
    /// back the whole log and the next commit starts it over (docs/performance.md).
    func prepareSQLiteConnections() async throws {
        for loop in eventLoopGroup.makeIterator() {
            for id in [DatabaseID.sqlite, .sqliteWrites] {
                try await databases.database(id, logger: logger, on: loop)!.withConnection { connection in
                    let sql = connection as! any SQLDatabase
                    try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(WriteGate.busyTimeoutMilliseconds))").run()
                    try await sql.raw("PRAGMA journal_size_limit = 67108864").run()
                    try await sql.raw("PRAGMA secure_delete = ON").run()
                }
            }
        }
    }
}
