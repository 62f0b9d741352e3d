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
/// and every instance LISTENs and wakes its own subscribers. Each application has its own
/// (`Application.syncEvents`, made by `configure`); its writes reach it through their gate.
actor SyncEvents {
    static let channel = "forkcast_sync"

    /// At most this many live listeners per person (tabs, apps); a new one closes the oldest,
    /// whose client reconnects if it is still there. Each costs a connection and a wake-up per change.
    static let maximumListenersPerOwner = 20

    private struct Subscriber {
        let id: UUID
        let continuation: AsyncStream<Void>.Continuation
    }

    /// Each person's listeners, oldest first.
    private var subscribers: [UUID: [Subscriber]] = [:]
    /// How many changes were announced per person: a read of the head belongs to one of them.
    private var generations: [UUID: Int] = [:]
    /// The read of each person's newest change for the latest announcement, shared by every
    /// listener it woke (one query per change, not one per listener).
    private var heads: [UUID: (generation: Int, read: Task<Int, any Error>)] = [:]

    func subscribe(owner: UUID) -> (id: UUID, events: AsyncStream<Void>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var list = subscribers[owner, default: []]
        list.append(Subscriber(id: id, continuation: continuation))
        while list.count > Self.maximumListenersPerOwner { list.removeFirst().continuation.finish() }
        subscribers[owner] = list
        return (id, stream)
    }

    func unsubscribe(owner: UUID, id: UUID) {
        guard var list = subscribers[owner] else { return }
        list.removeAll { subscriber in
            guard subscriber.id == id else { return false }
            subscriber.continuation.finish()
            return true
        }
        if list.isEmpty {
            subscribers[owner] = nil
            generations[owner] = nil
            heads[owner] = nil
        } else {
            subscribers[owner] = list
        }
    }

    func listenerCount(owner: UUID) -> Int { subscribers[owner]?.count ?? 0 }

    /// Ends every open event stream (the server is stopping): a stream left open kept the server's
    /// shutdown waiting for its connection, 10 s, before the process exited.
    func finishAll() {
        for list in subscribers.values { for subscriber in list { subscriber.continuation.finish() } }
        subscribers = [:]
        generations = [:]
        heads = [:]
    }

    func publish(owner: UUID) {
        guard let list = subscribers[owner] else { return }
        generations[owner, default: 0] += 1
        for subscriber in list { subscriber.continuation.yield() }
    }

    /// The person's newest change number, read once per announced change and shared by every
    /// listener asking for it.
    func newest(owner: UUID, read: @escaping @Sendable () async throws -> Int) async throws -> Int {
        let generation = generations[owner, default: 0]
        if let head = heads[owner], head.generation == generation { return try await head.read.value }
        let task = Task { try await read() }
        heads[owner] = (generation, task)
        return try await task.value
    }

    /// Called by ``SyncLog`` inside SQLite's write transaction `db`: the listeners of the application
    /// whose gate the write went through are woken once it commits. A write outside any
    /// application (a command in its own process) has nobody in this process to tell. (On
    /// PostgreSQL ``SyncLog/recording(_:_:op:origin:)`` asks for `NOTIFY` in the statement that
    /// records the changes, and every instance hears of them at commit: ``PostgresListener``.)
    static func changed(owner: UUID, in db: any Database) {
        if let tx = db as? WriteTransaction, let events = tx.gate?.events {
            tx.afterCommit { await events.publish(owner: owner) }
        }
    }

    /// Listens for other instances' (and this one's) changes on PostgreSQL, reconnecting after
    /// failures, while the application runs.
    struct PostgresListener: LifecycleHandler {
        func didBootAsync(_ app: Application) async throws {
            guard case .postgres = app.forkcastConfig.storage else { return }
            let logger = app.logger
            let db = app.db
            let events = app.syncEvents
            let task = Task {
                while !Task.isCancelled {
                    do {
                        try await (db as! any PostgresDatabase).withConnection { connection in
                            connection.eventLoop.makeFutureWithTask {
                                try await connection.listen(on: SyncEvents.channel) { notifications in
                                    for try await notification in notifications {
                                        if let owner = UUID(uuidString: notification.payload) { await events.publish(owner: owner) }
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

extension Application {
    private struct SyncEventsKey: StorageKey { typealias Value = SyncEvents }

    /// This application's open event streams (set up by `configure`).
    var syncEvents: SyncEvents {
        get { configured(SyncEventsKey.self) }
        set { storage[SyncEventsKey.self] = newValue }
    }
}
