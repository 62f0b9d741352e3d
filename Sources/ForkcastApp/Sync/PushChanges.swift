import ForkcastContract
import ForkcastCore
import Foundation

/// Applying a device's push: the one place a synced change is decided. For each mutation, in the
/// order sent (a group — an offline plate — all at once, where its first member stands):
/// 1. sent before: the answer it got then, and nothing changes (read inside the write, so two
///    identical pushes at once get the same answer);
/// 2. a change made before the deletions the server still remembers, to a record it holds nothing
///    of: refused (``Refusal/outOfDate(_:)``), since it could bring back a record deleted since;
/// 3. older than the record's current version (``SyncMerge/wins(_:over:)``): "superseded", with the
///    record as it is now;
/// 4. otherwise applied through the use case that owns the change, and "applied" with the record.
/// A mutation the rules refuse is "rejected" with its problem, and a group with a refused member is
/// rejected whole; every answer is remembered with what it applied (applied and remembered, or
/// neither).
///
/// Mutations are applied several to a write (``Chunk``), each mutation or group in an attempt of its
/// own (``SyncLedger/attempt(_:)``): a refused one undoes only its own changes. A write ends after
/// ``Chunk/limit`` of them, once it has run ``Chunk/time``, or as soon as other writers wait for it
/// (``SyncLedger/othersAreWaiting()``): a long push alone gains the writes it shares, and one beside
/// other writers lets them in between its mutations, as when each had a write of its own. Storage trouble is thrown: the write under way keeps nothing (the writes
/// before it are kept), and the device sends the push again.
public struct PushChanges: Sendable {
    /// How much of a push one write applies: at most `limit` mutations or groups, and no more once
    /// it has run for `time`.
    public struct Chunk: Sendable {
        public var limit: Int
        public var time: Duration
        public init(limit: Int, time: Duration) {
            precondition(limit > 0)
            (self.limit, self.time) = (limit, time)
        }
        /// Each write pays a transaction, the person's lock, a turn at the write gate and an fsync;
        /// 50 ms bounds what one holds (writers that queue meanwhile end it sooner).
        public static let standard = Chunk(limit: 64, time: .milliseconds(50))
    }

    let store: any SyncStore
    /// The person pushing: the id of their goals, body profile and settings.
    let owner: UUID
    /// When the server received the push.
    let now: Date
    /// A refused change as the API presents it; nil when the error is storage trouble.
    let present: @Sendable (any Error, PushedMutation) -> Problem?
    let chunk: Chunk

    public init(store: any SyncStore, owner: UUID, now: Date, chunk: Chunk = .standard,
                present: @escaping @Sendable (any Error, PushedMutation) -> Problem?) {
        self.store = store
        self.owner = owner
        self.now = now
        self.chunk = chunk
        self.present = present
    }

    /// The answer to each mutation in the order sent, and the person's newest change number after
    /// them. Throws ``ValidationError`` for a malformed batch, with nothing applied.
    public func callAsFunction(_ input: SyncPushInput) async throws -> (results: [SyncResult], lastSequence: Int) {
        let units = Self.units(try input.checked())
        let device = Device(id: input.deviceId, sentAt: input.sentAt)
        var results: [SyncResult] = []
        var next = 0
        while next < units.count {
            let pending = units[next..<min(units.count, next + chunk.limit)]
            let (answers, applied) = try await store.write { ledger in try await self.apply(pending, from: device, in: ledger) }
            results += answers
            next += applied
        }
        return (results, try await store.lastSequence())
    }

    /// The mutations as they are applied: one alone, or a group's members together where the
    /// group's first member stands.
    static func units(_ mutations: [CheckedMutation]) -> [[CheckedMutation]] {
        var units: [[CheckedMutation]] = []
        var groupAt: [String: Int] = [:]
        for mutation in mutations {
            guard let group = mutation.mutation.group else {
                units.append([mutation])
                continue
            }
            if let index = groupAt[group] {
                units[index].append(mutation)
            } else {
                groupAt[group] = units.count
                units.append([mutation])
            }
        }
        return units
    }

    /// The device a push comes from, and its clock when it sent it.
    struct Device: Sendable {
        var id: String
        var sentAt: Date?
    }

    /// Applies `units` in order inside one write until the chunk is over; the answers, and how many
    /// units they answer.
    private func apply(_ units: ArraySlice<[CheckedMutation]>, from device: Device, in ledger: any SyncLedger) async throws -> ([SyncResult], Int) {
        let clock = ContinuousClock()
        let started = clock.now
        // Read inside the write: two identical pushes at once get the same answers.
        let before = try await ledger.remembered(units.flatMap { $0.map(\.mutation.mutationId) }, device: device.id)
        var results: [SyncResult] = []
        var answered = 0, decided = 0
        for unit in units {
            // Sent before: a group is remembered whole (applied together, or refused together). Its
            // answers change nothing, so they never end the write (a push sent again takes one write per `Chunk.limit` units).
            let remembered = unit.compactMap { before[$0.mutation.mutationId] }
            if remembered.count == unit.count {
                results += remembered
            } else {
                // Each write decides at least one unit, so a push always gets on.
                if decided > 0 {
                    if clock.now - started >= chunk.time { break }
                    if await ledger.othersAreWaiting() { break }
                }
                results += try await apply(unit, before: before, from: device, in: ledger)
                decided += 1
            }
            answered += 1
        }
        return (results, answered)
    }

    /// One mutation, or a group all or nothing, in an attempt of its own inside the caller's write
    /// (a member sent before keeps the answer it got).
    private func apply(_ members: [CheckedMutation], before: [String: SyncResult], from device: Device,
                       in ledger: any SyncLedger) async throws -> [SyncResult] {
        let isGroup = members[0].mutation.group != nil
        struct MemberFailed: Error { let index: Int; let error: any Error }
        do {
            return try await ledger.attempt {
                var results: [SyncResult] = []
                for (index, mutation) in members.enumerated() {
                    do {
                        let result = try await self.apply(mutation, before: before, from: device, in: ledger)
                        if isGroup, result.status != .applied {
                            throw Refusal.conflict("A newer change to \(mutation.kind.rawValue) \(mutation.mutation.id) was already synced, so this group was not applied.")
                        }
                        results.append(result)
                    } catch {
                        throw MemberFailed(index: index, error: error)
                    }
                }
                return results
            }
        } catch let failure as MemberFailed {
            let failed = members[failure.index].mutation
            guard let problem = present(failure.error, failed) else { throw failure.error }
            var others = problem
            others.errors = nil
            others.detail = "Nothing of this group was saved: its item \(failed.mutationId) was refused (\(problem.detail))."
            // Remembered in the same write, after the attempt's changes were undone.
            let results = members.enumerated().map {
                SyncResult(mutationId: $0.element.mutation.mutationId, status: .rejected, problem: $0.offset == failure.index ? problem : others)
            }
            for result in results { try await ledger.remember(result, device: device.id) }
            return results
        }
    }

    /// One mutation inside the caller's write.
    private func apply(_ checked: CheckedMutation, before: [String: SyncResult], from device: Device, in ledger: any SyncLedger) async throws -> SyncResult {
        let (mutation, kind, op) = (checked.mutation, checked.kind, checked.op)
        if let stored = before[mutation.mutationId] {
            return stored
        }
        if [.goals, .bodyProfile, .settings].contains(kind), mutation.id != owner {
            throw Refusal.missingReference(field: "id", detail: "No \(kind.rawValue) with id \(mutation.id) exists in your account (its id is your user id).")
        }
        let version = SyncVersion(updatedAt: SyncMerge.accepted(mutation.updatedAt, sentAt: device.sentAt, receivedAt: now),
                                  deviceId: device.id, mutationId: mutation.mutationId)
        let current = try await ledger.version(kind, mutation.id)
        if current == nil, SyncMerge.isBeyondHorizon(version.updatedAt, receivedAt: now), try await ledger.hasForgottenDeletions() {
            throw Refusal.outOfDate("This change was made more than \(SyncMerge.tombstoneDays) days ago, before the deletions the server still remembers, so it could bring back a record deleted since. Pull everything again (call \(Sync.Changes.path) without since) and make the change anew if it is still wanted.")
        }
        guard SyncMerge.wins(version, over: current?.version) else {
            let record = current?.op == .upsert ? try await ledger.record(kind, mutation.id) : nil
            let result = SyncResult(mutationId: mutation.mutationId, status: .superseded, record: record)
            try await ledger.remember(result, device: device.id)
            return result
        }
        if op == .upsert {
            guard let record = mutation.record, case .object = record else {
                throw ValidationError(field: "record", "An upsert needs the record, as the resource's create/update input.")
            }
        }
        try await ledger.apply(op, kind, id: mutation.id, record: mutation.record, as: version)
        let saved = op == .upsert ? try await ledger.record(kind, mutation.id) : nil
        let result = SyncResult(mutationId: mutation.mutationId, status: .applied, record: saved)
        // Remembered in the same transaction: applied and remembered, or neither.
        try await ledger.remember(result, device: device.id)
        return result
    }
}
