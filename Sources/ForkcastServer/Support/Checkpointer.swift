import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteKit
import Vapor

/// Copies SQLite's write-ahead log back into the database file from a connection and a thread of
/// its own, so that no request's commit does it (docs/performance.md).
///
/// SQLite's default has the commit that takes the log past 1,000 pages copy them back and fsync
/// the database file before it returns: about one logged entry in a hundred waited several
/// milliseconds for that, which was the 99th percentile of logging. The application's writing
/// connections turn that off (`wal_autocheckpoint = 0`, only once this runs), and this checks
/// every `interval` and copies back what is there (`PASSIVE`: writers and readers go on meanwhile).
/// Housekeeping's hourly `TRUNCATE` checkpoint still empties the log.
final class Checkpointer: Sendable {
    /// One loop and one SQLite thread for the whole process (every application's connection).
    private static let own = OwnThread.make()

    let path: String
    let interval: TimeAmount
    private let logger: Logger
    private let state = NIOLockedValueBox<(connection: SQLiteConnection?, task: RepeatedTask?)>((nil, nil))

    init(path: String, interval: TimeAmount = .seconds(1), logger: Logger) {
        self.path = path
        self.interval = interval
        self.logger = logger
    }

    /// Checkpoints run from now on, every `interval`.
    func start() async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: Self.own.threads, logger: logger, on: Self.own.loop).get()
        _ = try await connection.query("PRAGMA busy_timeout = 1000").get()
        let task = Self.own.loop.scheduleRepeatedAsyncTask(initialDelay: interval, delay: interval) { [logger] _ in
            connection.query("PRAGMA wal_checkpoint(PASSIVE)").map { _ in }.recover { error in
                logger.debug("checkpoint failed, trying again: \(String(describing: error))")
            }
        }
        state.withLockedValue { $0 = (connection, task) }
    }

    /// One checkpoint now (tests); how many of the log's pages were in the database file afterwards,
    /// and how many the log held.
    func checkpoint() async throws -> (copied: Int, logged: Int) {
        guard let connection = state.withLockedValue({ $0.connection }) else { return (0, 0) }
        let row = try await connection.query("PRAGMA wal_checkpoint(PASSIVE)").get().first
        return (row?.column("checkpointed")?.integer ?? 0, row?.column("log")?.integer ?? 0)
    }

    func stop() async {
        let (connection, task) = state.withLockedValue { state in
            defer { state = (nil, nil) }
            return state
        }
        let stopped = Self.own.loop.makePromise(of: Void.self)
        if let task { task.cancel(promise: stopped) } else { stopped.succeed() }
        try? await stopped.futureResult.get()
        try? await connection?.close().get()
    }

    /// Starts with the application (after the schema is ready) and stops with it.
    struct Lifecycle: LifecycleHandler {
        let checkpointer: Checkpointer
        func didBootAsync(_ application: Application) async throws { try await checkpointer.start() }
        func shutdownAsync(_ application: Application) async { await checkpointer.stop() }
    }
}

extension Application {
    private struct CheckpointerKey: StorageKey { typealias Value = Checkpointer }

    /// SQLite's checkpointer; nil on PostgreSQL.
    var checkpointer: Checkpointer? {
        get { storage[CheckpointerKey.self] }
        set { storage[CheckpointerKey.self] = newValue }
    }
}
