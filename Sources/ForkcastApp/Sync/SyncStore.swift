import ForkcastContract
import ForkcastCore
import Foundation

/// Where a person's pushed changes are applied and remembered: the server's change feed with its
/// versions, the answers given to each device's mutations, and the records themselves. Handed out
/// for one person; ``PushChanges`` is its one user.
public protocol SyncStore: Sendable {
    /// Runs `body` in one write transaction in which the person's writers take turns: all of it is
    /// kept, or none of it.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SyncLedger) async throws -> T) async throws -> T
    /// The person's newest change number (what the push's cursor points at).
    func lastSequence() async throws -> Int
}

/// One write transaction of a ``SyncStore``.
public protocol SyncLedger: Sendable {
    /// The answers the device's mutations among `mutationIds` got when they were sent before, by
    /// mutation id (one never sent is absent).
    func remembered(_ mutationIds: [String], device: String) async throws -> [String: SyncResult]
    /// Keeps the answer, so the same mutation sent again gets it (and changes nothing).
    func remember(_ result: SyncResult, device: String) async throws
    /// A record's current version and whether it was last upserted or deleted (nil: never synced).
    func version(_ kind: SyncKind, _ id: UUID) async throws -> (version: SyncVersion, op: SyncOp)?
    /// Whether deletions older than ``SyncMerge/tombstoneDays`` were forgotten for this person.
    func hasForgottenDeletions() async throws -> Bool
    /// A record in the shape its own API answers with (nil when it is gone).
    func record(_ kind: SyncKind, _ id: UUID) async throws -> JSONValue?
    /// Whether other writers wait for this write to end: a write that can end early (a push between
    /// two of its mutations) ends, and lets them in.
    func othersAreWaiting() async -> Bool
    /// Runs `body` so that, if it throws, everything it changed is undone and the rest of the write
    /// goes on (a savepoint); what it changed is kept with the write otherwise. What waits for the
    /// commit (a photo file's removal, a wake-up) is dropped with the changes that asked for it.
    func attempt<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
    /// Creates, replaces or deletes a record through the use case that owns that change, as the
    /// change `version` (the feed records it under that version). A delete of a record that is
    /// already gone records the deletion.
    func apply(_ op: SyncOp, _ kind: SyncKind, id: UUID, record: JSONValue?, as version: SyncVersion) async throws
}
