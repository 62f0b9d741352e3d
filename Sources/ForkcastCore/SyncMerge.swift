import Foundation

/// The kinds of record a person's devices keep in step.
public enum SyncKind: String, Sendable, Codable, CaseIterable, Hashable {
    case meal, assignment, food, diaryEntry, weight, goals, bodyProfile, settings, mealType, photo, shoppingList, shoppingItem, pantryItem
}

/// What a change does to a record.
public enum SyncOp: String, Sendable, Codable, Hashable {
    case upsert, delete
}

/// Which write of a record is the newer one: last write wins by `updatedAt` (the instant of the
/// change on the device that made it), ties broken by the device id and then the mutation id, so
/// every replica orders any two writes the same way.
public struct SyncVersion: Sendable, Hashable, Comparable, Codable {
    public var updatedAt: Date
    public var deviceId: String
    public var mutationId: String

    public init(updatedAt: Date, deviceId: String, mutationId: String = "") {
        self.updatedAt = updatedAt
        self.deviceId = deviceId
        self.mutationId = mutationId
    }

    public static func < (a: SyncVersion, b: SyncVersion) -> Bool {
        if a.updatedAt != b.updatedAt { return a.updatedAt < b.updatedAt }
        if a.deviceId != b.deviceId { return a.deviceId < b.deviceId }
        return a.mutationId < b.mutationId
    }
}

/// The merge rule every replica applies: the server, and each device that pulls.
public enum SyncMerge {
    /// Deleted records are remembered this long; a device away longer pulls everything again.
    public static let tombstoneDays = 90

    /// The device id of changes made through the API and the web pages; no device may push as it.
    public static let serverDeviceId = "server"

    /// Whether a write with version `incoming` replaces the record whose current version is
    /// `current` (nil: the record was never seen). A delete is a write like any other: it beats
    /// an older update and loses to a newer one.
    public static func wins(_ incoming: SyncVersion, over current: SyncVersion?) -> Bool {
        guard let current else { return true }
        return current < incoming
    }

    /// `updatedAt` as the server accepts it, on the server's clock.
    ///
    /// A device whose clock runs ahead would win over honest edits made after its own (two minutes
    /// fast was enough while the server allowed two minutes ahead). So the device's
    /// clock is read against the server's: `sentAt` is the device's clock when it sent the push,
    /// `receivedAt` the server's when it got it. A device cannot send after the server received,
    /// so whatever `sentAt` is ahead is the device's error, and is taken off every `updatedAt` in
    /// the push. A slow clock is left as it is (its edits lose, the safe side). Then no change is
    /// later than its receipt: without `sentAt` a fast clock wins at most over edits the server
    /// received before it.
    public static func accepted(_ updatedAt: Date, sentAt: Date?, receivedAt: Date) -> Date {
        var corrected = updatedAt
        if let sentAt, sentAt > receivedAt { corrected = updatedAt.addingTimeInterval(-sentAt.timeIntervalSince(receivedAt)) }
        return min(corrected, receivedAt)
    }

    /// Whether a change to a record the server holds no version of comes from before what the
    /// server can still tell: deletions older than ``tombstoneDays`` are forgotten, so such a
    /// change could bring back a record deleted since (the push answers 410, as the pull does).
    public static func isBeyondHorizon(_ updatedAt: Date, receivedAt: Date) -> Bool {
        updatedAt < receivedAt.addingTimeInterval(-Double(tombstoneDays) * 86_400)
    }
}

/// One change to one record, as devices send and receive it.
public struct SyncMutation<Record: Sendable & Hashable>: Sendable, Hashable {
    public var kind: SyncKind
    public var id: UUID
    public var op: SyncOp
    public var version: SyncVersion
    public var record: Record?

    public init(kind: SyncKind, id: UUID, op: SyncOp, version: SyncVersion, record: Record?) {
        self.kind = kind
        self.id = id
        self.op = op
        self.version = version
        self.record = record
    }
}

/// A replica's records with their versions: what the server and every device hold. Applying the
/// same mutations in any order, any number of times, gives the same replica.
public struct SyncReplica<Record: Sendable & Hashable>: Sendable, Hashable {
    public struct Key: Hashable, Sendable {
        public var kind: SyncKind
        public var id: UUID
        public init(kind: SyncKind, id: UUID) { self.kind = kind; self.id = id }
    }

    public struct Entry: Hashable, Sendable {
        public var version: SyncVersion
        /// nil for a tombstone.
        public var record: Record?
    }

    public private(set) var entries: [Key: Entry] = [:]

    public init() {}

    /// Applies a mutation; returns whether it won (false: the replica already had a newer write).
    @discardableResult
    public mutating func apply(_ mutation: SyncMutation<Record>) -> Bool {
        let key = Key(kind: mutation.kind, id: mutation.id)
        guard SyncMerge.wins(mutation.version, over: entries[key]?.version) else { return false }
        entries[key] = Entry(version: mutation.version, record: mutation.op == .delete ? nil : mutation.record)
        return true
    }

    /// The live records (no tombstones).
    public var records: [Key: Record] { entries.compactMapValues(\.record) }
}
