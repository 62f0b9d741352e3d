import Fluent
import FluentPostgresDriver
import Foundation
import NIOConcurrencyHelpers
import PostgresNIO
import SQLKit
import Vapor

/// Tells open pages and apps that a user's data changed, so they pull at once (seed 001's real
/// time). Within one instance subscribers are woken after the change commits; across instances on
/// PostgreSQL each change sends `NOTIFY forkcast_sync` inside its transaction (delivered at commit)
/// and every instance LISTENs and wakes its own subscribers.
actor SyncEvents {
    static let shared = SyncEvents()
    static let channel = "forkcast_sync"

    private var subscribers: [UUID: [UUID: AsyncStream<Void>.Continuation]] = [:]

    func subscribe(owner: UUID) -> (id: UUID, events: AsyncStream<Void>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        subscribers[owner, default: [:]][id] = continuation
        return (id, stream)
    }

    func unsubscribe(owner: UUID, id: UUID) {
        subscribers[owner]?[id]?.finish()
        subscribers[owner]?[id] = nil
        if subscribers[owner]?.isEmpty == true { subscribers[owner] = nil }
    }

    func publish(owner: UUID) {
        for continuation in subscribers[owner]?.values ?? [:].values { continuation.yield() }
    }

    /// Called by ``SyncLog`` inside the write transaction.
    nonisolated func changed(owner: UUID, db: any Database) async {
        if let sql = db as? any SQLDatabase, sql.dialect.name == "postgresql" {
            try? await sql.raw("SELECT pg_notify(\(bind: Self.channel), \(bind: owner.uuidString))").run()
        } else {
            WriteContext.afterCommit?.add { await SyncEvents.shared.publish(owner: owner) }
        }
    }

    /// Listens for other instances' (and this one's) changes on PostgreSQL, reconnecting after
    /// failures, while the application runs.
    struct PostgresListener: LifecycleHandler {
        func didBootAsync(_ app: Application) async throws {
            guard case .postgres = app.forkcastConfig.storage else { return }
            let logger = app.logger
            let db = app.db
            let task = Task {
                while !Task.isCancelled {
                    do {
                        try await (db as! any PostgresDatabase).withConnection { connection in
                            connection.eventLoop.makeFutureWithTask {
                                try await connection.listen(on: SyncEvents.channel) { notifications in
                                    for try await notification in notifications {
                                        if let owner = UUID(uuidString: notification.payload) { await SyncEvents.shared.publish(owner: owner) }
                                    }
                                }
                            }
                        }.get()
                    } catch {
                        logger.warning("sync LISTEN failed, retrying: \(String(describing: error))")
                    }
                    try? await Task.sleep(for: .seconds(2))
                }
            }
            app.storage[TaskKey.self] = task
        }

        func shutdownAsync(_ app: Application) async {
            app.storage[TaskKey.self]?.cancel()
        }

        struct TaskKey: StorageKey { typealias Value = Task<Void, Never> }
    }
}

/// Work to do once the current write transaction has committed.
final class AfterCommit: Sendable {
    private let actions = NIOLockedValueBox<[@Sendable () async -> Void]>([])
    func add(_ action: @escaping @Sendable () async -> Void) { actions.withLockedValue { $0.append(action) } }
    func run() async { for action in actions.withLockedValue({ $0 }) { await action() } }
}
