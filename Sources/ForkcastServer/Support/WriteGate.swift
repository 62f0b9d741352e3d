import Fluent
import ForkcastCore
import Foundation
import SQLKit
import NIOConcurrencyHelpers
import Vapor

/// A first-come, first-served queue of writers with a bounded wait. The first writer opens a
/// transaction; writers queued behind it join that transaction in turn (up to `batchLimit`).
actor WriteGate {
    /// How long a write waits for its turn before the request answers 503, unless the
    /// application's configuration says otherwise.
    static let defaultWaitLimit: Duration = .seconds(15)
    /// This gate's wait limit.
    nonisolated let waitLimit: Duration
    /// How long SQLite waits for a lock another process holds.
    static let busyTimeoutMilliseconds = 5000
    /// The most writers one commit carries (an application's gate serves one database).
    let batchLimit: Int
    /// Whether this gate's writes have been failing for storage reasons.
    nonisolated let health = StorageHealth()
    /// The application's open event streams, woken after this gate's writes commit; nil for a
    /// write outside any application.
    nonisolated let events: SyncEvents?

    /// The database a writer's transaction runs on, for the caller's (SQLite: the same file, on
    /// connections of the writes' own); nil: the caller's.
    nonisolated let writer: (@Sendable (any Database) -> any Database)?

    init(batchLimit: Int = 32, events: SyncEvents? = nil, waitLimit: Duration = WriteGate.defaultWaitLimit,
         writer: (@Sendable (any Database) -> any Database)? = nil) {
        self.batchLimit = batchLimit
        self.waitLimit = waitLimit
        self.events = events
        self.writer = writer
    }

    enum Turn: Sendable { case lead, join(WriteBatch) }

    /// A database's configuration with its application's gate: every `Database` made from it finds
    /// the gate in its context (``Database/writeGate``), so a write takes its turn at its own
    /// application's gate whoever asks for it (several applications in one process, as in the
    /// tests, do not queue behind each other).
    struct Gated: DatabaseConfiguration {
        var base: any DatabaseConfiguration
        let gate: WriteGate
        var middleware: [any AnyModelMiddleware] { get { base.middleware } set { base.middleware = newValue } }
        func makeDriver(for databases: Databases) -> any DatabaseDriver { base.makeDriver(for: databases) }
    }

    private var busy = false
    private var batchSize = 0
    /// Turns ended so far (transactions committed, rolled back or never opened, and the turns
    /// alone of ``Checkpointer``), for tests and curiosity.
    private(set) var transactions = 0
    private var waiters: [(id: UUID, alone: Bool, continuation: CheckedContinuation<Turn?, Never>)] = []
    /// Writers waiting for their turn (tests).
    var waiting: Int { waiters.count }

    /// Waits for this writer's turn: to open a transaction, or to join the open one. Nil when the
    /// wait outlasted `timeout`. `alone`: only a turn of its own, with no transaction open (SQLite's
    /// checkpoint that starts its log over, ``Checkpointer``); writers behind it may still join the
    /// transaction open meanwhile.
    func acquire(timeout: Duration, alone: Bool = false) async -> Turn? {
        if !busy {
            busy = true
            batchSize = 1
            return .lead
        }
        let id = UUID()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        let turn = await withCheckedContinuation { continuation in waiters.append((id, alone, continuation)) }
        timer.cancel()
        return turn
    }

    /// The writer whose turn it was is done: the next writer waiting joins the open transaction
    /// (true), or nobody waits or the batch is full and the caller commits it (false).
    func passOn(_ batch: WriteBatch) -> Bool {
        guard batchSize < batchLimit, let next = waiters.firstIndex(where: { !$0.alone }) else { return false }
        batchSize += 1
        waiters.remove(at: next).continuation.resume(returning: .join(batch))
        return true
    }

    /// The transaction is over (committed, rolled back or never opened): the next writer opens one.
    func release() {
        transactions += 1
        if waiters.isEmpty {
            busy = false
        } else {
            batchSize = 1
            waiters.removeFirst().continuation.resume(returning: .lead)
        }
    }

    private func expire(_ id: UUID) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: nil)
    }
}

extension Application {
    private struct WriteGateKey: StorageKey { typealias Value = WriteGate }

    /// This application's queue of SQLite writers (set up by `configure`).
    var writeGate: WriteGate {
        get { configured(WriteGateKey.self) }
        set { storage[WriteGateKey.self] = newValue }
    }
}

extension Database {
    /// The gate of the application this database belongs to; nil for one made outside any.
    var writeGate: WriteGate? { (context.configuration as? WriteGate.Gated)?.gate }
}
