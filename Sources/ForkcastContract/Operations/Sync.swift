import ForkcastCore
import Foundation

// MARK: Types

/// One change of the feed: a record of a kind upserted or deleted, with the record as its own
/// resource answers it. `Record` is ``JSONValue`` for a client; the server writes its records
/// without turning them into JSON values first.
public struct SyncChange<Record: Codable & Sendable>: Codable, Sendable, SchemaDocumented {
    /// A ``SyncKind`` (text, so a client keeps working when a server adds one).
    public var kind: String
    public var id: UUID
    /// upsert or delete.
    public var op: String
    public var updatedAt: Date
    /// The device whose write this is ("server" for the API and the web pages).
    public var deviceId: String
    public var record: Record?

    public init(kind: String, id: UUID, op: String, updatedAt: Date, deviceId: String, record: Record?) {
        self.kind = kind
        self.id = id
        self.op = op
        self.updatedAt = updatedAt
        self.deviceId = deviceId
        self.record = record
    }

    public static var schemaName: String { "SyncChange" }
    public static var fieldNotes: [String: FieldNote] {
        ["kind": FieldNote(schema: SyncSchemas.kind), "op": FieldNote(schema: SyncSchemas.op),
         "updatedAt": FieldNote("When the change was made, on the device that made it (clamped to the server's clock plus two minutes)"),
         "deviceId": FieldNote("The device whose write this is; \"server\" for changes through the API and the web pages"),
         "record": FieldNote("The record in the shape its own resource answers with (absent for deletes and for records gone since); for photos the Photo metadata, never the bytes",
                             schema: ["type": ["object", "null"]])]
    }
}

/// `GET /api/v1/sync/changes`: a page of changes, oldest first.
public struct SyncChanges<Record: Codable & Sendable>: Codable, Sendable, SchemaDocumented {
    public var changes: [SyncChange<Record>]
    /// Opaque; pass as `since` for the next call.
    public var cursor: String
    public var hasMore: Bool

    public init(changes: [SyncChange<Record>], cursor: String, hasMore: Bool) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
    }

    public static var schemaName: String { "SyncChanges" }
    public static var fieldNotes: [String: FieldNote] { ["cursor": FieldNote("Opaque; pass as since for the next call", example: "c42")] }
}

/// One change a device pushes.
public struct PushedMutation: Codable, Sendable, Hashable, SchemaDocumented {
    public var mutationId: String
    /// A ``SyncKind``.
    public var kind: String
    public var id: UUID
    /// upsert or delete.
    public var op: String
    public var updatedAt: Date
    public var record: JSONValue?
    /// Mutations sharing a group are one change, applied all together or not at all.
    public var group: String?

    public init(mutationId: String, kind: String, id: UUID, op: String, updatedAt: Date, record: JSONValue? = nil, group: String? = nil) {
        self.mutationId = mutationId
        self.kind = kind
        self.id = id
        self.op = op
        self.updatedAt = updatedAt
        self.record = record
        self.group = group
    }

    public static let schemaName = "SyncMutation"
    public static var fieldNotes: [String: FieldNote] {
        ["mutationId": FieldNote("Unique per change: a batch sent again returns the same results and changes nothing", minLength: 1, maxLength: 100),
         "kind": FieldNote(schema: SyncSchemas.kind), "op": FieldNote(schema: SyncSchemas.op),
         "id": FieldNote("The record's id (clients may generate it); for goals, bodyProfile and settings the user's id"),
         "record": FieldNote("For upserts: the resource's create/update input (MealInput, AssignmentInput, FoodInput, DiaryEntryInput, WeightInput, GoalsInput, BodyProfileInput, ProfileInput, MealTypeInput, ShoppingListInput — an existing list takes the name and range and reads the plan again —, ShoppingItemSyncInput). Photos are uploaded with POST \(Photos.Upload.path), not pushed (a photo mutation is rejected), and meal types are hidden rather than deleted.",
                             schema: ["type": ["object", "null"]]),
         "group": FieldNote("Mutations sharing a group are one change (an offline plate): applied all together in one transaction, or all rejected. At most \(DiaryValidation.maximumPlateItems) per group.",
                            minLength: 1, maxLength: 100)]
    }
}

/// `POST /api/v1/sync/push`.
public struct SyncPushInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var deviceId: String
    /// The device's clock when it sent the push: how far it runs ahead of the server's is taken
    /// off every `updatedAt`.
    public var sentAt: Date?
    public var mutations: [PushedMutation]

    public init(deviceId: String, sentAt: Date? = nil, mutations: [PushedMutation]) {
        self.deviceId = deviceId
        self.sentAt = sentAt
        self.mutations = mutations
    }

    /// The most mutations one push holds.
    public static let maximumMutations = 500

    public static let schemaName = "SyncPushInput"
    public static var fieldNotes: [String: FieldNote] {
        ["deviceId": FieldNote(schema: ["type": "string", "minLength": 1, "maxLength": 100, "not": ["const": "server"]]),
         "sentAt": FieldNote("The device's clock when it sends the push: whatever it runs ahead of the server's clock is taken off every updatedAt (a fast clock cannot win over later edits). Without it, no change is stamped later than the server received it."),
         "mutations": FieldNote("At most \(maximumMutations)")]
    }
}

/// What became of one pushed mutation.
public struct SyncResult: Codable, Sendable, Equatable, SchemaDocumented {
    public enum Status: String, Codable, Sendable, CaseIterable, SchemaLeaf { case applied, superseded, rejected }
    public var mutationId: String
    public var status: Tolerant<Status>
    /// applied: the record now; superseded: the server's current record (absent when deleted).
    public var record: JSONValue?
    public var problem: Problem?

    public init(mutationId: String, status: Status, record: JSONValue? = nil, problem: Problem? = nil) {
        self.mutationId = mutationId
        self.status = .known(status)
        self.record = record
        self.problem = problem
    }

    public static let schemaName = "SyncResult"
    public static var fieldNotes: [String: FieldNote] {
        ["record": FieldNote("applied: the record now; superseded: the server's current record (absent when it is deleted)", schema: ["type": ["object", "null"]]),
         "problem": FieldNote("rejected: why")]
    }
}

/// `POST /api/v1/sync/push`'s answer: one result per mutation, in order.
public struct SyncPushResult: Codable, Sendable, Equatable, SchemaDocumented {
    public var results: [SyncResult]
    public var cursor: String
    public init(results: [SyncResult], cursor: String) {
        self.results = results
        self.cursor = cursor
    }
    public static let schemaName = "SyncPushResult"
}

/// `?since=&limit=`.
public struct SyncChangesQuery: Codable, Sendable, Hashable {
    public var since: String?
    public var limit: Int?
    public init(since: String? = nil, limit: Int? = nil) {
        self.since = since
        self.limit = limit
    }
    public static let defaultLimit = 500
    public static let maximumLimit = 5000
}

/// `?lastEventId=`: the last cursor seen, for clients that cannot send the header.
public struct SyncEventsQuery: Codable, Sendable, Hashable {
    public var lastEventId: String?
    public init(lastEventId: String? = nil) { self.lastEventId = lastEventId }
}

enum SyncSchemas {
    static var kind: JSONValue { ["type": "string", "enum": .array(SyncKind.allCases.map { .string($0.rawValue) })] }
    static var op: JSONValue { ["type": "string", "enum": ["upsert", "delete"]] }
}

// MARK: Operations

/// `/api/v1/sync/*`: the change feed, a device's push, and the live event stream.
public enum Sync {
    public enum Changes: APIOperation {
        public typealias Parameters = SyncChangesQuery
        public typealias Answer = SyncChanges<JSONValue>
        public static let spec = OperationSpec(.get, "/api/v1/sync/changes", "syncChanges", tag: "sync",
            summary: "Everything of yours that changed after a cursor, oldest first", success: Outcome(200, "A page of changes"),
            failures: [Outcome(400, "since or limit cannot be read"), .notSignedIn,
                Outcome(410, "The cursor is older than the deletions the server keeps (\(SyncMerge.tombstoneDays) days): pull everything again"),
                .unavailable],
            parameterNotes: ["since": FieldNote("A cursor from an earlier answer; absent: everything", pattern: "^c[0-9]{1,15}$"),
                "limit": FieldNote(minimum: 1, maximum: Decimal(SyncChangesQuery.maximumLimit), default: .number(Double(SyncChangesQuery.defaultLimit)))])
    }

    public enum Push: APIOperation {
        public typealias Body = SyncPushInput
        public typealias Answer = SyncPushResult
        public static let spec = OperationSpec(.post, "/api/v1/sync/push", "syncPush", tag: "sync",
            summary: "Apply a device's changes by last write wins", success: Outcome(200, "One result per mutation, in order"),
            failures: [
                Outcome(400, "The body is not JSON, or X-Forkcast-Account is not an account id"), .notSignedIn, Outcome(403, "Signed in by cookie without the CSRF token"),
                Outcome(409, "X-Forkcast-Account names another account than the signed-in one (a web page's outbox after the account changed); nothing was saved"),
                Outcome(413, "The body is too large"), .notJSON,
                Outcome(422, "deviceId or a mutationId is missing or too long, or more than \(SyncPushInput.maximumMutations) mutations"), .unavailable,
            ], headerParameters: [Photos.account])
    }

    public enum Events: APIOperation {
        public typealias Parameters = SyncEventsQuery
        public static let spec = OperationSpec(.get, "/api/v1/sync/events", "syncEvents", tag: "sync",
            summary: "Server-Sent Events: `event: changes` with the newest cursor whenever your data changes",
            success: Outcome(200, "An endless event stream (heartbeat comments every 15 s)"), failures: [Outcome.notSignedIn],
            parameterNotes: ["lastEventId": FieldNote("The same as Last-Event-ID, for clients that cannot send it")],
            headerParameters: [HeaderParameter("Last-Event-ID", "The last cursor seen; a newer one is sent at once")],
            rawAnswer: ["text/event-stream": ["type": "string"]])
    }
}
