import ForkcastContract
import ForkcastCore
import Foundation

/// One person's synced records in memory, as ``SyncReplica`` keeps them: the fake ``PushChanges``
/// is tested with alone. A write works on a copy that is kept only when it ends without an error
/// (all or nothing); writes are meant to come one at a time, as a test makes them.
public final class InMemorySyncStore: SyncStore, @unchecked Sendable {
    public struct Unavailable: Error { public init() {} }

    public struct State: Sendable, Equatable {
        /// The records with their versions (a deleted one as a tombstone).
        public var replica = SyncReplica<JSONValue>()
        /// Each device's answered mutations, by device and mutation id.
        public var answers: [String: [String: SyncResult]] = [:]
        /// The newest change number: one more for each change applied.
        public var sequence = 0
        /// Whether deletions older than ``SyncMerge/tombstoneDays`` were forgotten.
        public var forgotDeletions = false

        public init() {}
    }

    private let lock = NSLock()
    private var state = State()
    private var failNext = false
    private var writeCount = 0
    /// What ``SyncLedger/othersAreWaiting()`` answers.
    private let busy: Bool
    /// What the use case a change goes through refuses (a record's rules): throws to refuse it.
    private let rules: @Sendable (SyncKind, JSONValue?) throws -> Void

    /// `busy`: other writers always wait (a push's write then applies one mutation or group).
    public init(forgotDeletions: Bool = false, busy: Bool = false, rules: @escaping @Sendable (SyncKind, JSONValue?) throws -> Void = { _, _ in }) {
        state.forgotDeletions = forgotDeletions
        self.busy = busy
        self.rules = rules
    }

    public var contents: State { lock.withLock { state } }

    /// How many writes ended without an error (were kept).
    public var writes: Int { lock.withLock { writeCount } }

    /// The next write fails as a database that cannot be reached does.
    public func failNextWrite() { lock.withLock { failNext = true } }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SyncLedger) async throws -> T) async throws -> T {
        let ledger = try lock.withLock {
            if failNext { failNext = false; throw Unavailable() }
            return Ledger(state: state, busy: busy, rules: rules)
        }
        let result = try await body(ledger)
        lock.withLock {
            state = ledger.state
            writeCount += 1
        }
        return result
    }

    public func lastSequence() async throws -> Int { contents.sequence }

    final class Ledger: SyncLedger, @unchecked Sendable {
        private let lock = NSLock()
        private var working: State
        let rules: @Sendable (SyncKind, JSONValue?) throws -> Void
        let busy: Bool

        init(state: State, busy: Bool, rules: @escaping @Sendable (SyncKind, JSONValue?) throws -> Void) {
            working = state
            self.busy = busy
            self.rules = rules
        }

        func othersAreWaiting() async -> Bool { busy }

        var state: State { lock.withLock { working } }

        func remembered(_ mutationIds: [String], device: String) async throws -> [String: SyncResult] {
            lock.withLock {
                let answers = working.answers[device] ?? [:]
                return Dictionary(uniqueKeysWithValues: mutationIds.compactMap { id in answers[id].map { (id, $0) } })
            }
        }

        func attempt<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
            let saved = state
            do {
                return try await body()
            } catch {
                lock.withLock { working = saved }
                throw error
            }
        }

        func remember(_ result: SyncResult, device: String) async throws {
            lock.withLock {
                if working.answers[device]?[result.mutationId] == nil { working.answers[device, default: [:]][result.mutationId] = result }
            }
        }

        func version(_ kind: SyncKind, _ id: UUID) async throws -> (version: SyncVersion, op: SyncOp)? {
            lock.withLock {
                working.replica.entries[.init(kind: kind, id: id)].map { ($0.version, $0.record == nil ? .delete : .upsert) }
            }
        }

        func hasForgottenDeletions() async throws -> Bool { lock.withLock { working.forgotDeletions } }

        func record(_ kind: SyncKind, _ id: UUID) async throws -> JSONValue? {
            lock.withLock { working.replica.records[.init(kind: kind, id: id)] }
        }

        func apply(_ op: SyncOp, _ kind: SyncKind, id: UUID, record: JSONValue?, as version: SyncVersion) async throws {
            if op == .upsert { try rules(kind, record) }
            lock.withLock {
                working.replica.apply(SyncMutation(kind: kind, id: id, op: op, version: version, record: op == .upsert ? record : nil))
                working.sequence += 1
            }
        }
    }
}
