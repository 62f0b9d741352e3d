import Fluent
import ForkcastContract
import ForkcastCore
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// `/api/v1/sync/*`: the change feed, the push of a device's changes, and the live event stream
/// (ForkcastContract's ``Sync`` operations).
struct SyncController {
    static let defaultLimit = SyncChangesQuery.defaultLimit
    static let maximumLimit = SyncChangesQuery.maximumLimit

    static func register(_ routes: OperationRoutes) {
        let controller = SyncController()
        routes.on(Sync.Changes.self) { req, query, _ in .encoded(try await controller.changes(req: req, query: query)) }
        routes.on(Sync.Push.self, body: .collect(maxSize: "16mb")) { req, _, input in try await controller.push(req: req, input: input) }
        routes.raw(Sync.Events.self) { req, query in try await controller.events(req: req, query: query) }
    }

    // MARK: Cursor

    /// Cursors are opaque to clients: "c" and the owner's change number.
    static func cursor(_ seq: Int) -> String { "c\(seq)" }

    static func sequence(from cursor: String?) throws -> Int {
        guard let cursor else { return 0 }
        guard cursor.hasPrefix("c"), let seq = Int(cursor.dropFirst()), seq >= 0 else {
            throw AppError.badRequest("since must be a cursor returned by \(Sync.Changes.path) or \(Sync.Push.path); got \"\(cursor.prefix(40))\".")
        }
        return seq
    }

    // MARK: Feed

    /// A page of the feed, encoded as it is read (its records are written as their own types).
    func changes(req: Request, query: SyncChangesQuery) async throws -> ByteBuffer {
        let user = try req.requireUser()
        let owner = try user.requireID()
        let since = try Self.sequence(from: query.since)
        // limit is within the document's bounds (OperationRoutes.parameters).
        let limit = query.limit ?? Self.defaultLimit
        let horizon = try await SyncLog.horizon(owner: owner, on: req.db)
        if since > 0, let horizon, since < horizon {
            throw AppError.gone("This cursor is older than the \(SyncMerge.tombstoneDays) days of deletions the server keeps. Pull everything again: call without since.")
        }
        // Every cursor handed out is at most the account's head then, and the head only grows: a
        // cursor past it was never this account's (or the server was restored from an older
        // backup), and reading on from it would miss every change until the numbers caught up.
        if since > 0, since > (try await req.feedHead(of: owner)) {
            throw AppError.gone("This cursor is ahead of your account's changes (was the server restored from a backup?). Pull everything again: call without since.")
        }
        let rows = try await SyncLog.changes(owner: owner, after: since, limit: limit + 1, on: req.db)
        let page = Array(rows.prefix(limit))
        let records = SyncRecords(user: user, db: req.db, now: req.now, uuid: req.dependencies.uuid, application: req.application)
        var loaded: [SyncKind: [UUID: SyncRecords.Record]] = [:]
        for (kind, changes) in Dictionary(grouping: page.filter { $0.op == .upsert }, by: \.kind) {
            loaded[kind] = try await records.load(kind, changes.map(\.id))
        }
        let dtos = page.map { change in
            // An upsert whose record has gone meanwhile is reported as its later change will be.
            SyncChange(kind: change.kind.rawValue, id: change.id, op: change.op.rawValue, updatedAt: change.updatedAt,
                      deviceId: change.deviceId, record: change.op == .upsert ? loaded[change.kind]?[change.id] : nil)
        }
        let hasMore = rows.count > limit
        // After the last page the cursor also passes forgotten deletions, so it stays valid.
        let cursor = max(page.last.map(\.seq) ?? since, hasMore ? 0 : horizon ?? 0)
        return ByteBuffer(data: try JSONEncoder.forkcastSorted.encode(SyncChanges(changes: dtos, cursor: Self.cursor(cursor), hasMore: hasMore)))
    }

    // MARK: Push

    /// Decodes the push, applies it through ForkcastApp's ``PushChanges`` and presents the answers.
    func push(req: Request, input: SyncPushInput) async throws -> SyncPushResult {
        let (results, last) = try await req.owner.pushChanges { error, mutation in
            let (problem, _) = ProblemMiddleware.problem(for: Self.hidingForeignIDs(error, mutation: mutation), request: req)
            return problem.status >= 500 ? nil : problem  // storage trouble: nothing stored, the device retries
        }(input)
        return SyncPushResult(results: results, cursor: Self.cursor(last))
    }

    /// Another user's id collides on the primary key: answer exactly as for a missing record.
    static func hidingForeignIDs(_ error: any Error, mutation: PushedMutation) -> any Error {
        if let database = error as? any DatabaseError, database.isConstraintFailure {
            return AppError.notFound("No \(mutation.kind) with id \(mutation.id) exists in your account.")
        }
        return error
    }

    // MARK: Events

    /// Server-Sent Events: `event: changes` with the newest cursor whenever the user's data
    /// changes, a check of the newest change (or a heartbeat comment) every 15 s, and on connect a
    /// catch-up event when the client's Last-Event-ID is older than the newest change.
    func events(req: Request, query: SyncEventsQuery) async throws -> Response {
        let user = try req.requireUser()
        let owner = try user.requireID()
        let lastEventID = req.headers.first(name: "Last-Event-ID") ?? query.lastEventId
        let lastSeen = lastEventID.flatMap { try? Self.sequence(from: $0) }
        let db = req.db
        let hub = req.application.syncEvents
        let check = req.application.forkcastConfig.eventStreamCheck
        let subscription = await hub.subscribe(owner: owner)
        let response = Response(status: .ok)
        response.headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        response.headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        response.body = .init(asyncStream: { writer in
            defer { Task { await hub.unsubscribe(owner: owner, id: subscription.id) } }
            let send: @Sendable (String) async throws -> Void = { text in try await writer.write(.buffer(ByteBuffer(string: text))) }
            do {
                // The head is read before the stream's first line (`retry:`): a change made after that
                // line is newer and is sent. Without a Last-Event-ID the stream starts from this head
                // (no event for what the client could already read); a change in the instant between
                // the response's headers and this read is announced with the next one, so a client
                // that must miss none passes the cursor it read, as the web pages do.
                let current = try await SyncLog.lastSequence(owner: owner, on: db as! any SQLDatabase)
                try await send("retry: 3000\n\n")
                // What was sent last, shared by the catch-up and the two tasks below: only a newer change is sent.
                let newestSent = NIOLockedValueBox(lastSeen ?? current)
                let sendIfNewer: @Sendable (Int) async throws -> Bool = { newest in
                    let newer = newestSent.withLockedValue { sent -> Bool in
                        guard newest > sent else { return false }
                        sent = newest
                        return true
                    }
                    guard newer else { return false }
                    try await send("id: \(Self.cursor(newest))\nevent: changes\ndata: {\"cursor\":\"\(Self.cursor(newest))\"}\n\n")
                    return true
                }
                _ = try await sendIfNewer(current)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Every 15 s (`eventStreamCheck`): a change this process was not told of (a write
                    // by the command-line tool, or one whose request lost the gate's wake-up) is sent
                    // then; else a heartbeat.
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: check)
                            let newest = try await SyncLog.lastSequence(owner: owner, on: db as! any SQLDatabase)
                            if try await !sendIfNewer(newest) { try await send(": heartbeat\n\n") }
                        }
                    }
                    group.addTask {
                        for await _ in subscription.events {
                            // One read of the head per change, however many listeners woke for it.
                            let newest = try await hub.newest(owner: owner) {
                                try await SyncLog.lastSequence(owner: owner, on: db as! any SQLDatabase)
                            }
                            _ = try await sendIfNewer(newest)
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch {
                // The client went away (or the server is stopping).
            }
            try? await writer.write(.end)
        })
        return response
    }
}

extension JSONEncoder {
    /// Sorted keys and ISO 8601 dates: every answer (the API's, the read cache's, Vapor's `content`).
    static let forkcastSorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}

