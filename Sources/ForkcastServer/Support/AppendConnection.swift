import ForkcastCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteKit
import SQLKit
import Vapor

/// An SQLite connection of the application's own, on an event loop and a thread that serve nothing
/// else, for inserts whose statements are known before they start (``InsertQueue``; docs/performance.md).
///
/// Each statement of a transaction is a trip to SQLite's thread and back. On the shared event
/// loops the way back waits behind every request being answered, which made a four-statement
/// transaction take about 4 ms under load. Here there is one trip and it does not wait: rows of
/// the tables in `feeds` are recorded in the change feed by a TEMP trigger of this connection, so a
/// shared write of entries is one INSERT (SQLite's own transaction, fsynced before it returns).
///
/// It writes to the same file as Fluent's connections, with the same encoders; writers still take
/// turns through ``WriteGate``. The trigger exists on this connection only: other writers record
/// their changes with ``SyncLog/record(_:_:op:owner:on:now:)`` as before.
final class AppendConnection: Sendable {
    /// One loop and one SQLite thread for the whole process (every application's connection).
    private static let own = OwnThread.make()

    let path: String
    /// Tables whose inserted rows this connection records in the change feed itself (a TEMP
    /// trigger, ``SyncLog/feedTrigger(on:kind:)``), and as which kind.
    let feeds: [String: SyncKind]
    private let logger: Logger
    private let opened = NIOLockedValueBox<EventLoopFuture<SQLiteConnection>?>(nil)

    /// Whether ``Checkpointer`` copies the log back, not this connection's commits.
    let checkpointsElsewhere: Bool

    init(path: String, feeds: [String: SyncKind] = [DiaryEntryModel.schema: .diaryEntry], checkpointsElsewhere: Bool = false, logger: Logger) {
        self.checkpointsElsewhere = checkpointsElsewhere
        self.path = path
        self.feeds = feeds
        self.logger = logger
    }

    /// Runs one statement on its own: SQLite makes it a transaction of its own, all or nothing,
    /// committed (durably) before this returns.
    func run(_ statement: SQLQueryString) async throws {
        try await connection().flatMap { connection in connection.sql(queryLogLevel: .debug).raw(statement).run() }.get()
    }

    /// Closes the connection (the application is shutting down).
    func close() async {
        guard let opened = opened.withLockedValue({ $0 }) else { return }
        try? await opened.flatMap { $0.close() }.get()
    }

    private func connection() -> EventLoopFuture<SQLiteConnection> {
        opened.withLockedValue { opened in
            if let opened { return opened }
            let future = SQLiteConnection.open(storage: .file(path: path), threadPool: Self.own.threads, logger: logger, on: Self.own.loop)
                .flatMap { (connection: SQLiteConnection) -> EventLoopFuture<SQLiteConnection> in
                    // As Fluent's connections: foreign keys enforced, a bounded wait for another process's
                    // lock, the WAL cut back to 64 MB after a checkpoint (this connection commits most), and
                    // no checkpoint in a commit when ``Checkpointer`` does them.
                    var ready: EventLoopFuture<Void> = connection.query("PRAGMA foreign_keys = ON")
                        .flatMap { _ in connection.query("PRAGMA busy_timeout = \(WriteGate.busyTimeoutMilliseconds)") }
                        .flatMap { _ in connection.query("PRAGMA journal_size_limit = 67108864") }
                        .flatMap { _ in connection.query("PRAGMA secure_delete = ON") }
                        .flatMap { _ in connection.query("PRAGMA wal_autocheckpoint = \(self.checkpointsElsewhere ? 0 : 1000)") }.map { _ in }
                    for (table, kind) in self.feeds.sorted(by: { $0.key < $1.key }) {
                        ready = ready.flatMap { connection.sql().raw(SyncLog.feedTrigger(on: table, kind: kind)).run() }
                    }
                    return ready.map { _ in connection }
                }
            future.whenFailure { [weak self] _ in self?.opened.withLockedValue { $0 = nil } }  // tried again next time
            opened = future
            return future
        }
    }
}

extension AppendConnection {
    /// Closes the connection when the application shuts down.
    struct Closing: LifecycleHandler {
        let connection: AppendConnection
        func shutdownAsync(_ application: Application) async { await connection.close() }
    }
}
