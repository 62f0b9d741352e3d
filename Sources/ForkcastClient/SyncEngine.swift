import ForkcastCore
import Foundation

/// What a device keeps between launches: its records, the changes not yet accepted by the server
/// (the outbox), and where it is in the server's change feed.
public struct SyncState: Codable, Sendable, Equatable {
    public struct Key: Codable, Sendable, Hashable {
        public var kind: String
        public var id: UUID
        public init(kind: String, id: UUID) { self.kind = kind; self.id = id }
    }

    /// A record as the device last knew it; nil for a deleted one.
    public struct Entry: Codable, Sendable, Equatable {
        public var record: JSON?
        public var updatedAt: Date
        public var deviceId: String
        /// True while the record is a local change the server has not confirmed.
        public var pending: Bool
        /// The server's record as last pulled (kept under a pending change, restored if the
        /// server refuses that change); nil when the server has none.
        public var confirmed: JSON? = nil
        public var confirmedAt: Date? = nil
    }

    public var deviceId: String
    public var cursor: String?
    public var entries: [Key: Entry] = [:]
    public var outbox: [ForkcastAPI.Mutation] = []
    public var lastSyncedAt: Date?

    public init(deviceId: String) { self.deviceId = deviceId }

    /// The live records of a kind (deleted ones left out).
    public func records(_ kind: SyncKind) -> [UUID: JSON] {
        var result: [UUID: JSON] = [:]
        for (key, entry) in entries where key.kind == kind.rawValue { if let record = entry.record { result[key.id] = record } }
        return result
    }
}

/// Where a device keeps its ``SyncState``.
public protocol SyncStore: Sendable {
    func load() async throws -> SyncState?
    func save(_ state: SyncState) async throws
}

/// Keeps the state in memory (tests, previews).
public actor InMemorySyncStore: SyncStore {
    private var state: SyncState?
    public init(_ state: SyncState? = nil) { self.state = state }
    public func load() async throws -> SyncState? { state }
    public func save(_ state: SyncState) async throws { self.state = state }
}

/// Keeps the state in a JSON file, replaced atomically on every save (a crash leaves the old or
/// the new state, never half of one).
public actor FileSyncStore: SyncStore {
    public let url: URL
    public init(url: URL) { self.url = url }

    public func load() async throws -> SyncState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try ForkcastAPI.decoder.decode(SyncState.self, from: Data(contentsOf: url))
    }

    public func save(_ state: SyncState) async throws {
        try ForkcastAPI.encoder.encode(state).write(to: url, options: .atomic)
    }
}

/// Keeps one device in step with the server: local changes go to an outbox and apply at once;
/// ``sync()`` pushes the outbox, then pulls everything that changed since the last pull. The
/// server decides with the merge rule of ForkcastCore (last write wins by `updatedAt`, then
/// device id); pulled records replace local ones unless a newer local change is still waiting
/// (``SyncMerge`` decides, the same rule the server applies).
public actor SyncEngine {
    public enum Activity: Sendable, Equatable { case idle, syncing }

    /// What a sync status line shows: idle or syncing, changes waiting, last success, last error.
    public struct Status: Sendable, Equatable {
        public var activity: Activity
        public var pendingChanges: Int
        public var lastSyncedAt: Date?
        public var lastError: String?
        /// Changes the server refused (invalid data), with its reason, so the app can show them.
        public var rejected: [String: String]
    }

    public let api: ForkcastAPI
    private let store: any SyncStore
    private let clock: @Sendable () -> Date
    private var state: SyncState
    private var activity: Activity = .idle
    private var lastError: String?
    private var rejected: [String: String] = [:]

    public init(api: ForkcastAPI, store: any SyncStore, deviceId: String, clock: @escaping @Sendable () -> Date = { Date() }) async throws {
        self.api = api
        self.store = store
        self.clock = clock
        state = try await store.load() ?? SyncState(deviceId: deviceId)
    }

    public var status: Status {
        Status(activity: activity, pendingChanges: state.outbox.count, lastSyncedAt: state.lastSyncedAt, lastError: lastError, rejected: rejected)
    }

    public var snapshot: SyncState { state }

    public func records(_ kind: SyncKind) -> [UUID: JSON] { state.records(kind) }

    /// Creates or replaces a record locally (in its create/update input shape) and queues it.
    public func upsert(_ kind: SyncKind, id: UUID = UUID.timeOrdered(), record: JSON) async throws -> UUID {
        try await change(kind, id: id, op: "upsert", record: record)
        return id
    }

    /// Deletes a record locally and queues the delete.
    public func delete(_ kind: SyncKind, id: UUID) async throws {
        try await change(kind, id: id, op: "delete", record: nil)
    }

    private func change(_ kind: SyncKind, id: UUID, op: String, record: JSON?) async throws {
        let now = clock()
        let mutation = ForkcastAPI.Mutation(mutationId: UUID().uuidString, kind: kind.rawValue, id: id, op: op, updatedAt: now, record: record)
        state.outbox.append(mutation)
        let key = SyncState.Key(kind: kind.rawValue, id: id)
        let previous = state.entries[key]
        state.entries[key] = SyncState.Entry(record: record, updatedAt: now, deviceId: state.deviceId, pending: true,
                                             confirmed: previous?.confirmed, confirmedAt: previous?.confirmedAt)
        try await store.save(state)
    }

    /// Push, then pull until the feed is exhausted. A failure leaves the outbox as it was (the
    /// same mutation ids are sent again next time, so nothing is applied twice).
    @discardableResult
    public func sync() async throws -> Status {
        activity = .syncing
        defer { activity = .idle }
        do {
            try await pushOutbox()
            try await pull()
            state.lastSyncedAt = clock()
            lastError = nil
            try await store.save(state)
        } catch {
            lastError = String(describing: error)
            throw error
        }
        return status
    }

    private func pushOutbox() async throws {
        while !state.outbox.isEmpty {
            let batch = Array(state.outbox.prefix(200))
            let answer = try await api.push(deviceId: state.deviceId, mutations: batch, sentAt: clock())
            let byID = Dictionary(uniqueKeysWithValues: answer.results.map { ($0.mutationId, $0) })
            let done = Set(batch.map(\.mutationId)).intersection(byID.keys)
            for mutation in batch {
                guard let result = byID[mutation.mutationId] else { continue }
                let key = SyncState.Key(kind: mutation.kind, id: mutation.id)
                let isLatestLocal = state.outbox.last(where: { $0.kind == mutation.kind && $0.id == mutation.id })?.mutationId == mutation.mutationId
                switch result.status {
                case .known(.rejected):
                    rejected[mutation.mutationId] = result.problem?.detail ?? "rejected"
                    // The server kept its version: show that again (or nothing, if it never had one).
                    if isLatestLocal, let entry = state.entries[key] {
                        state.entries[key] = entry.confirmedAt.map {
                            SyncState.Entry(record: entry.confirmed, updatedAt: $0, deviceId: "server", pending: false,
                                            confirmed: entry.confirmed, confirmedAt: $0)
                        }
                    }
                default:
                    if isLatestLocal, var entry = state.entries[key] { entry.pending = false; state.entries[key] = entry }
                }
            }
            state.outbox.removeAll { done.contains($0.mutationId) }
            try await store.save(state)
            if done.isEmpty { break }
        }
    }

    private func pull() async throws {
        var cursor = state.cursor
        var resetDone = false
        while true {
            let page: ForkcastAPI.Changes
            do { page = try await api.changes(since: cursor) } catch ForkcastError.problem(status: 410, _, _, _) where !resetDone {
                // Away longer than the server keeps deletions: start over with everything.
                state.entries = state.entries.filter { $0.value.pending }
                cursor = nil
                resetDone = true
                continue
            }
            for change in page.changes {
                let key = SyncState.Key(kind: change.kind, id: change.id)
                // ForkcastCore's rule, as on the server: a local change still waiting to be pushed
                // stays unless the pulled write is newer, in which case the push would lose anyway.
                let pulled = SyncVersion(updatedAt: change.updatedAt, deviceId: change.deviceId)
                let waiting = state.outbox.filter { $0.kind == change.kind && $0.id == change.id }
                if let newest = waiting.last {
                    let local = SyncVersion(updatedAt: newest.updatedAt, deviceId: state.deviceId, mutationId: newest.mutationId)
                    guard SyncMerge.wins(pulled, over: local) else { continue }
                    let dropped = Set(waiting.map(\.mutationId))
                    state.outbox.removeAll { dropped.contains($0.mutationId) }
                }
                let record = change.op == "delete" ? nil : change.record
                state.entries[key] = SyncState.Entry(record: record, updatedAt: change.updatedAt, deviceId: change.deviceId,
                                                     pending: false, confirmed: record, confirmedAt: change.updatedAt)
            }
            cursor = page.cursor
            state.cursor = cursor
            try await store.save(state)
            if !page.hasMore { break }
        }
    }
}
