import Fluent
import Foundation
import SQLKit
import Vapor

/// Every change to stored data runs in one write transaction from here.
///
/// On SQLite a deferred transaction that reads and then writes fails with SQLITE_BUSY_SNAPSHOT when
/// another connection committed in between; no busy handler can save it. So writes start as
/// `BEGIN IMMEDIATE` (the write lock is taken before the first read), queue in this process on
/// one gate (no connection spins waiting for SQLite's lock), and wait a bounded time for a lock
/// held by another process (`busy_timeout`) before answering 503 with nothing saved.
/// On PostgreSQL it is an ordinary transaction.
extension Database {
    func write<T: Sendable>(timeout: Duration = WriteGate.waitLimit,
                            _ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        if let current = WriteContext.current { return try await body(current) }
        let afterCommit = AfterCommit()
        guard (self as? any SQLDatabase)?.dialect.name == "sqlite" else {
            let result = try await transaction { tx in try await WriteContext.$current.withValue(tx) { try await body(tx) } }
            await afterCommit.run()
            return result
        }
        let result = try await (WriteGate.current ?? WriteGate.sqlite).run(timeout: timeout) {
            try await self.withConnection { connection in
                let sql = connection as! any SQLDatabase
                try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(WriteGate.busyTimeoutMilliseconds))").run()
                try await sql.raw("BEGIN IMMEDIATE").run()
                do {
                    let result = try await WriteContext.$afterCommit.withValue(afterCommit) {
                        try await WriteContext.$current.withValue(connection) { try await body(connection) }
                    }
                    try await sql.raw("COMMIT").run()
                    return result
                } catch {
                    try? await sql.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
        await afterCommit.run()
        return result
    }
}

enum WriteContext {
    /// The write transaction this task is inside, so nested writes join it.
    @TaskLocal static var current: (any Database)?
    /// What to do once it commits.
    @TaskLocal static var afterCommit: AfterCommit?
}

/// A first-come, first-served queue of writers (one at a time) with a bounded wait.
actor WriteGate {
    /// The gate of writes outside requests (commands, tests calling use cases directly).
    static let sqlite = WriteGate()
    /// The application's own gate, set for each request (one per database: several applications
    /// in one process, as in the tests, do not queue behind each other).
    @TaskLocal static var current: WriteGate?
    /// How long a write waits for its turn before the request answers 503.
    static let waitLimit: Duration = .seconds(15)
    /// How long SQLite waits for a lock another process holds.
    static let busyTimeoutMilliseconds = 5000

    /// Hands each request its application's gate.
    struct Middleware: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            try await WriteGate.$current.withValue(request.application.writeGate) { try await next.respond(to: request) }
        }
    }

    private var busy = false
    private var waiters: [(id: UUID, continuation: CheckedContinuation<Bool, Never>)] = []

    func run<T: Sendable>(timeout: Duration, _ body: @Sendable () async throws -> T) async throws -> T {
        guard await acquire(timeout: timeout) else { throw AppError.storageUnavailable }
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire(timeout: Duration) async -> Bool {
        if !busy {
            busy = true
            return true
        }
        let id = UUID()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        let granted = await withCheckedContinuation { continuation in waiters.append((id, continuation)) }
        timer.cancel()
        return granted
    }

    private func expire(_ id: UUID) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }

    private func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().continuation.resume(returning: true) }
    }
}

extension Application {
    private struct WriteGateKey: StorageKey { typealias Value = WriteGate }

    /// This application's queue of SQLite writers (set up by `configure`).
    var writeGate: WriteGate {
        get { storage[WriteGateKey.self] ?? WriteGate.sqlite }
        set { storage[WriteGateKey.self] = newValue }
    }
}
