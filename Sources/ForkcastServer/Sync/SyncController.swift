import Fluent
import ForkcastContract
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// `/api/v1/sync/*`: the change feed, the push of a device's changes, and the live event stream
/// (ForkcastContract's ``Sync`` operations).
struct SyncController {
    static let defaultLimit = SyncChangesQuery.defaultLimit
    static let maximumLimit = SyncChangesQuery.maximumLimit
    static let maximumMutations = SyncPushInput.maximumMutations

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
        let limit = query.limit ?? Self.defaultLimit
        guard (1...Self.maximumLimit).contains(limit) else {
            throw AppError.badRequest("limit must be between 1 and \(Self.maximumLimit); got \(limit).")
        }
        let horizon = try await Self.horizon(owner: owner, on: req.db)
        if since > 0, let horizon, since < horizon {
            throw AppError.gone("This cursor is older than the \(SyncMerge.tombstoneDays) days of deletions the server keeps. Pull everything again: call without since.")
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

    static func horizon(owner: UUID, on db: any Database) async throws -> Int? {
        let row = try await (db as! any SQLDatabase).raw("SELECT pruned_seq FROM sync_horizons WHERE owner_id = \(bind: owner)").first()
        return try row.map { Int(try $0.decode(column: "pruned_seq", as: Int64.self)) }
    }

    // MARK: Push

    typealias PushInput = SyncPushInput
    typealias ResultDTO = SyncResult

    func push(req: Request, input: PushInput) async throws -> SyncPushResult {
        let user = try req.requireUser()
        let owner = try user.requireID()
        // A malformed batch (what the OpenAPI schema refuses) is refused whole; a well-formed
        // mutation the rules refuse is "rejected" on its own.
        var problems: [ValidationError.Field] = []
        let deviceId = input.deviceId
        if !(1...100).contains(deviceId.unicodeScalars.count) || deviceId == SyncOrigin.serverDevice {
            problems.append(.init(field: "deviceId", message: "deviceId must be 1 to 100 characters naming the device (not \"server\")."))
        }
        if input.mutations.count > Self.maximumMutations {
            problems.append(.init(field: "mutations", message: "Send at most \(Self.maximumMutations) mutations at once; this batch has \(input.mutations.count)."))
        }
        var mutationIds = Set<String>()
        for (index, m) in input.mutations.enumerated() {
            if !(1...100).contains(m.mutationId.unicodeScalars.count) {
                problems.append(.init(field: "mutations[\(index)].mutationId", message: "mutationId must be 1 to 100 characters, unique per change."))
            } else if !mutationIds.insert(m.mutationId).inserted {
                // The second would silently get the first's answer: two changes, one id.
                problems.append(.init(field: "mutations[\(index)].mutationId", message: "mutationId \"\(m.mutationId.prefix(40))\" is used twice in this batch; each change needs its own."))
            }
            if SyncKind(rawValue: m.kind) == nil {
                problems.append(.init(field: "mutations[\(index)].kind", message: "kind must be one of: \(SyncKind.allCases.map(\.rawValue).joined(separator: ", "))."))
            }
            if SyncOp(rawValue: m.op) == nil {
                problems.append(.init(field: "mutations[\(index)].op", message: "op must be \"upsert\" or \"delete\"."))
            }
            if let group = m.group, !(1...100).contains(group.unicodeScalars.count) {
                problems.append(.init(field: "mutations[\(index)].group", message: "group must be 1 to 100 characters naming the change its mutations make together."))
            }
            if let record = m.record {
                switch record { case .object, .null: break
                default: problems.append(.init(field: "mutations[\(index)].record", message: "record must be an object (the resource's input) or null."))
                }
            }
        }
        // Each group's members in order, read once for the check and for applying.
        let groups = Dictionary(grouping: input.mutations.filter { $0.group != nil }, by: { $0.group! })
        for (group, members) in groups where members.count > DiaryValidation.maximumPlateItems {
            problems.append(.init(field: "mutations", message: "A group holds at most \(DiaryValidation.maximumPlateItems) mutations (a plate's limit); group \"\(group.prefix(40))\" has \(members.count)."))
        }
        guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }

        var results: [ResultDTO] = []
        var done = Set<String>()
        let device = Device(id: deviceId, sentAt: input.sentAt)
        for mutation in input.mutations {
            guard let group = mutation.group else {
                results.append(try await apply(mutation, device: device, user: user, req: req))
                continue
            }
            // A group (an offline plate) is applied where its first member stands, all at once.
            guard done.insert(group).inserted else { continue }
            results += try await apply(group: groups[group] ?? [], device: device, user: user, req: req)
        }
        let sql = req.db as! any SQLDatabase
        return SyncPushResult(results: results, cursor: Self.cursor(try await SyncLog.lastSequence(owner: owner, on: sql)))
    }

    /// The device a push comes from, and its clock when it sent it.
    struct Device {
        var id: String
        var sentAt: Date?
    }

    /// One mutation in a write of its own; a mutation the rules refuse is "rejected" and remembered.
    private func apply(_ mutation: PushedMutation, device: Device, user: UserModel, req: Request) async throws -> ResultDTO {
        let owner = try user.requireID(), deviceId = device.id
        do {
            return try await req.db.write { tx in
                try await SyncLog.lockOwner(owner, on: tx as! any SQLDatabase)
                return try await self.applyInside(mutation, device: device, user: user, req: req, tx: tx)
            }
        } catch {
            let (problem, _) = ProblemMiddleware.problem(for: Self.hidingForeignIDs(error, mutation: mutation), request: req)
            if problem.status >= 500 { throw error }  // storage trouble: nothing stored, the device retries
            return try await rejected([(mutation, problem)], owner: owner, deviceId: deviceId, req: req)[0]
        }
    }

    /// Mutations sharing a `group` are one change (an offline plate): every one is applied in one
    /// transaction, or none is and each is "rejected" with the reason.
    private func apply(group members: [PushedMutation], device: Device, user: UserModel, req: Request) async throws -> [ResultDTO] {
        struct MemberFailed: Error { let index: Int; let error: any Error }
        let owner = try user.requireID(), deviceId = device.id
        do {
            return try await req.db.write { tx in
                try await SyncLog.lockOwner(owner, on: tx as! any SQLDatabase)
                // Sent before: a group is remembered whole (applied together, or refused together).
                var before: [ResultDTO] = []
                for mutation in members {
                    guard let stored = try await Self.remembered(mutation, owner: owner, deviceId: deviceId, on: tx) else { break }
                    before.append(stored)
                }
                if before.count == members.count { return before }
                var results: [ResultDTO] = []
                for (index, mutation) in members.enumerated() {
                    do {
                        let result = try await self.applyInside(mutation, device: device, user: user, req: req, tx: tx)
                        guard result.status == .applied else {
                            throw AppError.conflict("A newer change to \(mutation.kind) \(mutation.id) was already synced, so this group was not applied.")
                        }
                        results.append(result)
                    } catch {
                        throw MemberFailed(index: index, error: error)
                    }
                }
                return results
            }
        } catch let failure as MemberFailed {
            let (problem, _) = ProblemMiddleware.problem(for: Self.hidingForeignIDs(failure.error, mutation: members[failure.index]), request: req)
            if problem.status >= 500 { throw failure.error }
            let failed = members[failure.index]
            var others = problem
            others.errors = nil
            others.detail = "Nothing of this group was saved: its item \(failed.mutationId) was refused (\(problem.detail))."
            return try await rejected(members.enumerated().map { ($0.element, $0.offset == failure.index ? problem : others) },
                                      owner: owner, deviceId: deviceId, req: req)
        }
    }

    /// Remembers refused mutations (in a write of their own: the refused write left nothing).
    private func rejected(_ refused: [(PushedMutation, ProblemDetails)], owner: UUID, deviceId: String, req: Request) async throws -> [ResultDTO] {
        let results = refused.map { ResultDTO(mutationId: $0.0.mutationId, status: .rejected, problem: $0.1) }
        let now = req.now
        try await req.db.write { tx in
            for result in results { try await Self.remember(result, owner: owner, device: deviceId, now: now, on: tx) }
        }
        return results
    }

    /// The answer a mutation got when it was sent before, read inside the write that would apply it,
    /// so two identical pushes at once (two tabs) get the same answer.
    static func remembered(_ mutation: PushedMutation, owner: UUID, deviceId: String, on db: any Database) async throws -> ResultDTO? {
        guard let row = try await (db as! any SQLDatabase).raw("""
            SELECT result FROM sync_mutations WHERE owner_id = \(bind: owner) AND device_id = \(bind: deviceId)
              AND mutation_id = \(bind: mutation.mutationId)
            """).first() else { return nil }
        return try? JSONDecoder.forkcast.decode(ResultDTO.self, from: Data(try row.decode(column: "result", as: String.self).utf8))
    }

    /// Applies one mutation inside the caller's write (the owner's lock held).
    private func applyInside(_ mutation: PushedMutation, device: Device, user: UserModel, req: Request, tx: any Database) async throws -> ResultDTO {
        let owner = try user.requireID(), deviceId = device.id
        if let stored = try await Self.remembered(mutation, owner: owner, deviceId: deviceId, on: tx) {
            return stored  // sent before: the same answer, nothing changes
        }
        let now = req.now
        guard let kind = SyncKind(rawValue: mutation.kind) else {
            throw AppError.validation(ValidationError(field: "kind", "kind must be one of: \(SyncKind.allCases.map(\.rawValue).joined(separator: ", "))."))
        }
        guard let op = SyncOp(rawValue: mutation.op) else {
            throw AppError.validation(ValidationError(field: "op", "op must be \"upsert\" or \"delete\"."))
        }
        if [.goals, .bodyProfile, .settings].contains(kind), mutation.id != owner {
            throw AppError.notFound("No \(kind.rawValue) with id \(mutation.id) exists in your account (its id is your user id).")
        }
        let version = SyncVersion(updatedAt: SyncMerge.accepted(mutation.updatedAt, sentAt: device.sentAt, receivedAt: now),
                                  deviceId: deviceId, mutationId: mutation.mutationId)
        let records = SyncRecords(user: user, db: tx, now: now, uuid: req.dependencies.uuid, application: req.application)
        let current = try await SyncLog.version(kind, mutation.id, owner: owner, on: tx)
        // A change from before the forgotten deletions, to a record the server holds nothing of,
        // may be to one deleted since: refused as the pull refuses such a cursor.
        if current == nil, SyncMerge.isBeyondHorizon(version.updatedAt, receivedAt: now), try await Self.horizon(owner: owner, on: tx) != nil {
            throw AppError.gone("This change was made more than \(SyncMerge.tombstoneDays) days ago, before the deletions the server still remembers, so it could bring back a record deleted since. Pull everything again (call \(Sync.Changes.path) without since) and make the change anew if it is still wanted.")
        }
        guard SyncMerge.wins(version, over: current?.version) else {
            let record = current?.op == .upsert ? try await records.load(kind, [mutation.id])[mutation.id] : nil
            let result = ResultDTO(mutationId: mutation.mutationId, status: .superseded, record: try record.map(JSONValue.init(encoding:)))
            try await Self.remember(result, owner: owner, device: deviceId, now: now, on: tx)
            return result
        }
        try await SyncOrigin.$current.withValue(SyncOrigin(deviceId: deviceId, updatedAt: version.updatedAt, mutationId: mutation.mutationId)) {
            switch op {
            case .upsert:
                guard let record = mutation.record, case .object = record else {
                    throw AppError.validation(ValidationError(field: "record", "An upsert needs the record, as the resource's create/update input."))
                }
                try await records.upsert(kind, id: mutation.id, input: try JSONEncoder().encode(record))
            case .delete:
                try await records.delete(kind, id: mutation.id)
            }
        }
        let saved = op == .upsert ? try await records.load(kind, [mutation.id])[mutation.id] : nil
        let result = ResultDTO(mutationId: mutation.mutationId, status: .applied, record: try saved.map(JSONValue.init(encoding:)))
        // Remembered in the same transaction: applied and remembered, or neither.
        try await Self.remember(result, owner: owner, device: deviceId, now: now, on: tx)
        return result
    }

    /// Stores a result under its device's mutation id, so the same mutation sent again gets the
    /// same answer (two devices may use the same mutation ids).
    static func remember(_ result: ResultDTO, owner: UUID, device: String, now: Date, on db: any Database) async throws {
        let encoded = String(decoding: try JSONEncoder.forkcastSorted.encode(result), as: UTF8.self)
        try await (db as! any SQLDatabase).raw("""
            INSERT INTO sync_mutations (owner_id, device_id, mutation_id, result, created_at)
            VALUES (\(bind: owner), \(bind: device), \(bind: result.mutationId), \(bind: encoded), \(bind: now.timeIntervalSince1970))
            ON CONFLICT (owner_id, device_id, mutation_id) DO NOTHING
            """).run()
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
    /// changes, a heartbeat comment every 15 s, and on connect a catch-up event when the client's
    /// Last-Event-ID is older than the newest change.
    func events(req: Request, query: SyncEventsQuery) async throws -> Response {
        let user = try req.requireUser()
        let owner = try user.requireID()
        let lastEventID = req.headers.first(name: "Last-Event-ID") ?? query.lastEventId
        let lastSeen = lastEventID.flatMap { try? Self.sequence(from: $0) }
        let db = req.db
        let hub = req.application.syncEvents
        let subscription = await hub.subscribe(owner: owner)
        let response = Response(status: .ok)
        response.headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        response.headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        response.body = .init(asyncStream: { writer in
            defer { Task { await hub.unsubscribe(owner: owner, id: subscription.id) } }
            let send: @Sendable (String) async throws -> Void = { text in try await writer.write(.buffer(ByteBuffer(string: text))) }
            do {
                try await send("retry: 3000\n\n")
                var sent = lastSeen ?? -1
                let current = try await SyncLog.lastSequence(owner: owner, on: db as! any SQLDatabase)
                if lastSeen != nil, current > sent {
                    try await send("id: \(Self.cursor(current))\nevent: changes\ndata: {\"cursor\":\"\(Self.cursor(current))\"}\n\n")
                    sent = current
                }
                let caughtUp = sent
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: .seconds(15))
                            try await send(": heartbeat\n\n")
                        }
                    }
                    group.addTask {
                        var sent = caughtUp
                        for await _ in subscription.events {
                            // One read of the head per change, however many listeners woke for it.
                            let newest = try await hub.newest(owner: owner) {
                                try await SyncLog.lastSequence(owner: owner, on: db as! any SQLDatabase)
                            }
                            guard newest > sent else { continue }
                            sent = newest
                            try await send("id: \(Self.cursor(newest))\nevent: changes\ndata: {\"cursor\":\"\(Self.cursor(newest))\"}\n\n")
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
    /// Sorted keys and ISO 8601 dates, as every answer.
    static var forkcastSorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

