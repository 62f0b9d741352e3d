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
///
/// SQLite starts its log over only when a checkpoint has copied all of it back. Under steady
/// writing a `PASSIVE` one never has (frames arrive while it copies), so the log grew without end:
/// 3.3 GB after a minute of logging entries at 8 connections, every read searching more of it and
/// the 99th percentile of logging at 100–500 ms (docs/performance.md). So once the log holds more
/// than `restartPages` frames and the `PASSIVE` one copied back all it found (no reader held it
/// back: a backup's `VACUUM INTO` reads for long), the tick also runs a `RESTART` checkpoint, in a
/// turn of its own at the application's ``WriteGate`` (writers queue there meanwhile, as for any
/// write: waiting for SQLite's lock instead, the checkpoint slept in its busy handler while every
/// request waited, up to 130 ms). It copies back what was committed since the `PASSIVE` one
/// began, waits at most `restartWait` for a reader or another process's writer, and the next
/// commit writes the log from its start, which `journal_size_limit` then trims to 64 MiB.
final class Checkpointer: Sendable {
    /// One loop and one SQLite thread for the whole process (every application's connection).
    private static let own = OwnThread.make()

    let path: String
    let interval: TimeAmount
    /// Log frames past which a tick starts the log over: 16,384 frames of a 4 KiB page are about
    /// 64 MiB, the `journal_size_limit` the writing connections set.
    let restartPages: Int
    /// How long the `RESTART` checkpoint waits for a reader or another process's writer (its
    /// `busy_timeout`, in milliseconds; a `PASSIVE` one never waits) while this application's
    /// writers wait at the gate.
    let restartWait: Int
    /// The gate the application's writes pass (nil: the `RESTART` checkpoint waits for SQLite's
    /// lock, as another process would).
    let gate: WriteGate?
    private let logger: Logger
    private let state = NIOLockedValueBox<(connection: SQLiteConnection?, task: RepeatedTask?)>((nil, nil))

    init(path: String, interval: TimeAmount = .seconds(1), restartPages: Int = 16_384, restartWait: Int = 100, gate: WriteGate?, logger: Logger) {
        self.path = path
        self.interval = interval
        self.restartPages = restartPages
        self.restartWait = restartWait
        self.gate = gate
        self.logger = logger
    }

    /// Checkpoints run from now on, every `interval`.
    func start() async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: Self.own.threads, logger: logger, on: Self.own.loop).get()
        _ = try await connection.query("PRAGMA busy_timeout = \(restartWait)").get()
        let task = Self.own.loop.scheduleRepeatedAsyncTask(initialDelay: interval, delay: interval) { [logger, restartPages, gate] _ in
            Self.own.loop.makeFutureWithTask { _ = try await Self.tick(on: connection, restartPages: restartPages, gate: gate, logger: logger) }.recover { error in
                logger.debug("checkpoint failed, trying again: \(String(describing: error))")
            }
        }
        state.withLockedValue { $0 = (connection, task) }
    }

    /// One tick now (tests); how many of the log's pages were in the database file afterwards,
    /// and how many the log held.
    func checkpoint() async throws -> (copied: Int, logged: Int) {
        guard let connection = state.withLockedValue({ $0.connection }) else { return (0, 0) }
        return try await Self.tick(on: connection, restartPages: restartPages, gate: gate, logger: logger)
    }

    /// A `PASSIVE` checkpoint, and a `RESTART` one in a turn of its own at `gate` when the log still
    /// holds more than `restartPages` and nothing held the `PASSIVE` one back. A turn not had within
    /// a second, or a `RESTART` that found SQLite busy, is left to the next tick.
    private static func tick(on connection: SQLiteConnection, restartPages: Int, gate: WriteGate?, logger: Logger) async throws -> (copied: Int, logged: Int) {
        let passive = counts(try await connection.query("PRAGMA wal_checkpoint(PASSIVE)").get())
        guard passive.logged > restartPages, passive.copied == passive.logged else { return (passive.copied, passive.logged) }
        func restart() async throws -> (copied: Int, logged: Int) {
            let restarted = counts(try await connection.query("PRAGMA wal_checkpoint(RESTART)").get())
            if restarted.busy { logger.debug("the log was not started over: SQLite was busy (a reader, or another process's writer)") }
            return (restarted.copied, restarted.logged)
        }
        guard let gate else { return try await restart() }
        guard await gate.acquire(timeout: .seconds(1), alone: true) != nil else { return (passive.copied, passive.logged) }
        do {
            let restarted = try await restart()
            await gate.release()
            return restarted
        } catch {
            await gate.release()
            throw error
        }
    }

    /// A checkpoint's answer: whether it met a lock it could not have, frames copied back, frames
    /// in the log.
    private static func counts(_ rows: [SQLiteRow]) -> (busy: Bool, copied: Int, logged: Int) {
        (rows.first?.column("busy")?.integer == 1, rows.first?.column("checkpointed")?.integer ?? 0, rows.first?.column("log")?.integer ?? 0)
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
