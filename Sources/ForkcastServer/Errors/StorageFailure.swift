import AsyncKit
import FluentKit
import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import SQLiteNIO

/// Tells database outages (connection refused, pool timeouts, I/O and disk errors) from bugs.
enum StorageFailure {
    static func isStorageFailure(_ error: any Error) -> Bool {
        if error is ConnectionPoolTimeoutError || error is ConnectionPoolError { return true }
        if error is any DatabaseError { return true }
        if error is ChannelError || error is IOError || error is NIOConnectionError { return true }
        // Driver errors (SQLiteError, PSQLError) without importing every driver here.
        let name = String(reflecting: type(of: error))
        return ["SQLiteNIO.", "PostgresNIO.", "NIOPosix."].contains { name.hasPrefix($0) }
    }

    /// The disk (or SQLite's page limit) is full: SQLITE_FULL, or PostgreSQL's 53100 disk_full.
    static func isDiskFull(_ error: any Error) -> Bool {
        if let sqlite = error as? SQLiteError { return sqlite.reason == .full }
        if let postgres = error as? PSQLError { return postgres.serverInfo?[.sqlState] == "53100" }
        return false
    }
}
