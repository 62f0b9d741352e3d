import ForkcastContract
import ForkcastCore
import Foundation

/// Applying a device's push: the one place a synced change is decided. For each mutation, in the
/// order sent and each in a write of its own (a group — an offline plate — in one write, all or
/// nothing):
/// 1. sent before: the answer it got then, and nothing changes (read inside the write, so two
///    identical pushes at once get the same answer);
/// 2. a change made before the deletions the server still remembers, to a record it holds nothing
///    of: refused (``Refusal/outOfDate(_:)``), since it could bring back a record deleted since;
/// 3. older than the record's current version (``SyncMerge/wins(_:over:)``): "superseded", with the
///    record as it is now;
/// 4. otherwise applied through the use case that owns the change, and "applied" with the record.
/// A mutation the rules refuse is "rejected" with its problem; every answer is remembered. Storage
/// trouble is thrown: nothing was kept, and the device sends the push again.
public struct PushChanges: Sendable {
    let store: any SyncStore
    /// The person pushing: the id of their goals, body profile and settings.
    let owner: UUID
    /// When the server received the push.
    let now: Date
    /// A refused change as the API presents it; nil when the error is storage trouble.
    let present: @Sendable (any Error, PushedMutation) -> Problem?

    public init(store: any SyncStore, owner: UUID, now: Date, present: @escaping @Sendable (any Error, PushedMutation) -> Problem?) {
        self.store = store
        self.owner = owner
        self.now = now
        self.present = present
    }

    /// The answer to each mutation in the order sent, and the person's newest change number after
    /// them. Throws ``ValidationError`` for a malformed batch, with nothing applied.
    public func callAsFunction(_ input: SyncPushInput) async throws -> (results: [SyncResult], lastSequence: Int) {
        let mutations = try input.checked()
        let groups = Dictionary(grouping: mutations.filter { $0.mutation.group != nil }, by: { $0.mutation.group! })
        let device = Device(id: input.deviceId, sentAt: input.sentAt)
        var results: [SyncResult] = []
        var done = Set<String>()
        for mutation in mutations {
            guard let group = mutation.mutation.group else {
                results.append(try await apply(mutation, from: device))
                continue
            }
            // A group is applied where its first member stands, all at once.
            guard done.insert(group).inserted else { continue }
            results += try await apply(group: groups[group] ?? [], from: device)
        }
        return (results, try await store.lastSequence())
    }

    /// The device a push comes from, and its clock when it sent it.
    struct Device: Sendable {
        var id: String
        var sentAt: Date?
    }

    private func apply(_ mutation: CheckedMutation, from device: Device) async throws -> SyncResult {
        do {
            return try await store.write { ledger in try await self.apply(mutation, from: device, in: ledger) }
        } catch {
            guard let problem = present(error, mutation.mutation) else { throw error }
            return try await rejected([(mutation.mutation, problem)], from: device)[0]
        }
    }

    private func apply(group members: [CheckedMutation], from device: Device) async throws -> [SyncResult] {
        struct MemberFailed: Error { let index: Int; let error: any Error }
        do {
            return try await store.write { ledger in
                // Sent before: a group is remembered whole (applied together, or refused together).
                var before: [SyncResult] = []
                for mutation in members {
                    guard let stored = try await ledger.remembered(mutation.mutation.mutationId, device: device.id) else { break }
                    before.append(stored)
                }
                if before.count == members.count { return before }
                var results: [SyncResult] = []
                for (index, mutation) in members.enumerated() {
                    do {
                        let result = try await self.apply(mutation, from: device, in: ledger)
                        guard result.status == .applied else {
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
            return try await rejected(members.enumerated().map { ($0.element.mutation, $0.offset == failure.index ? problem : others) }, from: device)
        }
    }

    /// Remembers refused mutations, in a write of their own (the refused write left nothing).
    private func rejected(_ refused: [(PushedMutation, Problem)], from device: Device) async throws -> [SyncResult] {
        let results = refused.map { SyncResult(mutationId: $0.0.mutationId, status: .rejected, problem: $0.1) }
        try await store.write { ledger in
            for result in results { try await ledger.remember(result, device: device.id) }
        }
        return results
    }

    /// One mutation inside the caller's write.
    private func apply(_ checked: CheckedMutation, from device: Device, in ledger: any SyncLedger) async throws -> SyncResult {
        let (mutation, kind, op) = (checked.mutation, checked.kind, checked.op)
        if let stored = try await ledger.remembered(mutation.mutationId, device: device.id) {
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
