import Fluent
import SQLKit
import Vapor

extension Application {
    /// Run before serving: bring the schema up to date and make SQLite durable and concurrent.
    public func prepareStorage() async throws {
        if case .sqlite = forkcastConfig.storage {
            let sql = db as! any SQLDatabase
            // WAL keeps readers off writers' backs; synchronous FULL (the default) fsyncs every commit.
            _ = try await sql.raw("PRAGMA journal_mode = WAL").all()
        }
        try await autoMigrate()
    }
}
