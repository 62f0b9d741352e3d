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
/// every `interval` while the log grows (every `idleInterval` when it does not) and copies back what
/// is there (`PASSIVE`: writers and readers go on meanwhile).
/// Housekeeping's hourly `TRUNCATE` checkpoint (``truncate(turnWait:)``) still empties the log.
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
    /// One event loop and one SQLite thread for the whole process (every application's
    /// checkpointer), serving nothing else: a checkpoint never waits behind requests.
    private static let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    let path: String
    /// The wait between ticks while the log grows: 50 ms measured best of 50 ms, 100 ms and 1 s
    /// (docs/performance.md; smaller checkpoints, each flushing less of the database file).
    let interval: TimeAmount
    /// The longest wait, reached by doubling while ticks find nothing new in the log: an idle
    /// server ticks once a second, as it did before (ticking every 50 ms cost 0.7 % of a core).
    let idleInterval: TimeAmount
    /// Log frames past which a tick starts the log over: 16,384 frames of a 4 KiB page are about
    /// 64 MiB, the `journal_size_limit` the writing connections set.
    let restartPages: Int
    /// How long the `RESTART` and `TRUNCATE` checkpoints wait for a reader or another process's
    /// writer (its `busy_timeout`, in milliseconds; a `PASSIVE` one never waits) while this
    /// application's writers wait at the gate.
    let restartWait: Int
    /// The gate the application's writes pass (nil: the `RESTART` checkpoint waits for SQLite's
    /// lock, as another process would).
    let gate: WriteGate?
    private let logger: Logger
    /// The connection while checkpoints run, the next tick scheduled, and the last one begun.
    private let state = NIOLockedValueBox<(connection: SQLiteConnection?, next: Scheduled<Void>?, running: EventLoopFuture<Void>?)>((nil, nil, nil))
    /// The frames the log held when it was last started over (nil once anything was seen since).
    /// SQLite reports that count until the next commit writes the log from its start, so a tick
    /// that finds it again knows nothing was committed since and takes no turn at the gate: an idle
    /// server did, on every tick.
    private let startedOverAt = NIOLockedValueBox<Int?>(nil)

    init(path: String, interval: TimeAmount = .milliseconds(50), idleInterval: TimeAmount = .seconds(1), restartPages: Int = 16_384,
         restartWait: Int = 100, gate: WriteGate?, logger: Logger) {
        self.path = path
        self.interval = interval
        self.idleInterval = max(idleInterval, interval)
        self.restartPages = restartPages
        self.restartWait = restartWait
        self.gate = gate
        self.logger = logger
    }

    /// Checkpoints run from now on: the first after `interval`.
    func start() async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: Self.threads, logger: logger, on: Self.loop).get()
        _ = try await connection.query("PRAGMA busy_timeout = \(restartWait)").get()
        state.withLockedValue { $0.connection = connection }
        schedule(after: interval, logged: 0)
    }

    /// The wait before the next tick: `interval` when the log changed since the last one (`logged`
    /// frames then, `now` frames now), else twice the last wait, up to `idleInterval`.
    static func nextWait(after wait: TimeAmount, logged: Int, now: Int, interval: TimeAmount, idleInterval: TimeAmount) -> TimeAmount {
        now != logged ? interval : min(wait * 2, idleInterval)
    }

    /// The next tick, after `wait`, unless checkpoints were stopped meanwhile.
    private func schedule(after wait: TimeAmount, logged: Int) {
        state.withLockedValue { state in
            guard state.connection != nil else { return }
            state.next = Self.loop.scheduleTask(in: wait) { [self] in begin(after: wait, logged: logged) }
        }
    }

    /// A tick begun, only while checkpoints run, and known to ``stop()``, which waits for it; it
    /// schedules the next one.
    private func begin(after wait: TimeAmount, logged: Int) {
        state.withLockedValue { state in
            guard let connection = state.connection else { return }
            state.running = Self.loop.makeFutureWithTask { [self] in
                do {
                    let now = try await tick(on: connection).logged
                    schedule(after: Self.nextWait(after: wait, logged: logged, now: now, interval: interval, idleInterval: idleInterval), logged: now)
                } catch {
                    logger.debug("checkpoint failed, trying again: \(String(describing: error))")
                    schedule(after: idleInterval, logged: logged)
                }
            }
        }
    }

    /// One tick now (tests); how many of the log's pages were in the database file afterwards,
    /// and how many the log held.
    func checkpoint() async throws -> (copied: Int, logged: Int) {
        guard let connection = state.withLockedValue({ $0.connection }) else { return (0, 0) }
        return try await tick(on: connection)
    }

    /// A `PASSIVE` checkpoint, and a `RESTART` one in a turn of its own at `gate` when the log still
    /// holds more than `restartPages`, nothing held the `PASSIVE` one back and something was committed
    /// since the log was last started over. A turn not had within a second, or a `RESTART` that found
    /// SQLite busy, is left to the next tick.
    private func tick(on connection: SQLiteConnection) async throws -> (copied: Int, logged: Int) {
        let passive = Self.counts(try await connection.query("PRAGMA wal_checkpoint(PASSIVE)").get())
        let idle = startedOverAt.withLockedValue { last in
            let same = last == passive.logged
            if !same { last = nil }
            return same
        }
        guard passive.logged > restartPages, passive.copied == passive.logged, !idle else { return (passive.copied, passive.logged) }
        guard let restarted = try await Self.startOver(.restart, gate: gate, turnWait: .seconds(1), logger: logger, run: Self.run(on: connection)) else {
            return (passive.copied, passive.logged)
        }
        if !restarted.busy, restarted.copied == restarted.logged { startedOverAt.withLockedValue { $0 = restarted.logged } }
        return (restarted.copied, restarted.logged)
    }

    /// Empties the log (housekeeping's hourly `TRUNCATE` checkpoint) the way a tick starts it over:
    /// in a turn of its own at the gate, waiting at most `restartWait` for a reader or another
    /// process's writer. Run as a plain statement, it waited for SQLite's lock in the busy handler
    /// while every writer of the application waited behind it. False when not started, when no turn
    /// came within `turnWait`, or when SQLite was busy: the next hour tries again.
    func truncate(turnWait: Duration = .seconds(5)) async throws -> Bool {
        guard let connection = state.withLockedValue({ $0.connection }) else { return false }
        let emptied = try await Self.startOver(.truncate, gate: gate, turnWait: turnWait, logger: logger, run: Self.run(on: connection))
        return emptied.map { !$0.busy } ?? false
    }

    /// Empties the log now (housekeeping every hour; an account's deletion, so that the log keeps
    /// none of its pages), in a turn alone at `gate` as every write: through `checkpointer` while
    /// it runs (``truncate(turnWait:)``), else on `sql` (a test's application starts none, and a
    /// command's). Run as a plain statement beside the gate, it held SQLite's lock while waiting
    /// up to the busy timeout (5 s) for a reader, and every writer waited behind it.
    static func emptyLog(_ checkpointer: Checkpointer?, on sql: any SQLDatabase, gate: WriteGate?, turnWait: Duration = .seconds(5),
                         logger: Logger) async throws -> Bool {
        if let checkpointer, checkpointer.isRunning { return try await checkpointer.truncate(turnWait: turnWait) }
        let emptied = try await startOver(.truncate, gate: gate, turnWait: turnWait, logger: logger) { statement in
            guard let row = try await sql.raw("\(unsafeRaw: statement)").first() else { return (false, 0, 0) }
            return (try row.decode(column: "busy", as: Int.self) == 1, try row.decode(column: "checkpointed", as: Int.self),
                    try row.decode(column: "log", as: Int.self))
        }
        return emptied.map { !$0.busy } ?? false
    }

    /// Whether checkpoints run (``start()`` was called, ``stop()`` not yet).
    var isRunning: Bool { state.withLockedValue { $0.connection != nil } }

    private enum StartOver: String { case restart = "RESTART", truncate = "TRUNCATE" }

    /// A checkpoint that copies back the whole log and starts it over, in a turn alone at `gate`
    /// (nil when none came within `turnWait`), its statement run by `run`.
    private static func startOver(_ mode: StartOver, gate: WriteGate?, turnWait: Duration, logger: Logger,
                                  run: (String) async throws -> (busy: Bool, copied: Int, logged: Int)) async throws -> (busy: Bool, copied: Int, logged: Int)? {
        func checkpoint() async throws -> (busy: Bool, copied: Int, logged: Int) {
            let done = try await run("PRAGMA wal_checkpoint(\(mode.rawValue))")
            if done.busy { logger.debug("the log was not started over (\(mode.rawValue)): SQLite was busy (a reader, or another process's writer)") }
            return done
        }
        guard let gate else { return try await checkpoint() }
        guard await gate.acquire(timeout: turnWait, alone: true) != nil else { return nil }
        do {
            let done = try await checkpoint()
            await gate.release()
            return done
        } catch {
            await gate.release()
            throw error
        }
    }

    /// A checkpoint statement run on the checkpointer's connection.
    private static func run(on connection: SQLiteConnection) -> (String) async throws -> (busy: Bool, copied: Int, logged: Int) {
        { statement in counts(try await connection.query(statement).get()) }
    }

    /// A checkpoint's answer: whether it met a lock it could not have, frames copied back, frames
    /// in the log.
    private static func counts(_ rows: [SQLiteRow]) -> (busy: Bool, copied: Int, logged: Int) {
        (rows.first?.column("busy")?.integer == 1, rows.first?.column("checkpointed")?.integer ?? 0, rows.first?.column("log")?.integer ?? 0)
    }

    /// Checkpoints stop; a tick under way (waiting for its turn at the gate, say) finishes first.
    func stop() async {
        let (connection, next, running) = state.withLockedValue { state in
            defer { state = (nil, nil, nil) }
            return state
        }
        next?.cancel()
        try? await running?.get()
        try? await connection?.close().get()
    }

    /// Starts with the application (after the schema is ready) and stops with it.
    struct Lifecycle: LifecycleHandler {
        let checkpointer: Checkpointer
        func didBootAsync(_ application: Application) async throws {
            // A command that never opened the database (`routes`) has no log to copy back, and
            // opening a connection here would create an empty database.
            guard FileManager.default.fileExists(atPath: checkpointer.path) else { return }
            try await checkpointer.start()
        }
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
