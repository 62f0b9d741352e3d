import AsyncKit
import FluentKit
import Foundation
import NIOCore
import NIOPosix

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
}
