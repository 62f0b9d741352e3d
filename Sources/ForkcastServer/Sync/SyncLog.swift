import Fluent
import ForkcastCore
import Foundation
import PostgresNIO
import SQLKit

/// Who made the change being written: a pushing device (with its clock and mutation id), or the
/// server itself for changes through the API and the web pages.
struct SyncOrigin: Sendable {
    var deviceId: String
    var updatedAt: Date
    var mutationId: String

    /// The server's own: a change through the API or the web pages.
    static func server(at time: Date) -> SyncOrigin { SyncOrigin(deviceId: serverDevice, updatedAt: time, mutationId: "") }
    static let serverDevice = SyncMerge.serverDeviceId
}

/// The change feed: one row per record ever synced, holding the record's current version and the
/// owner's change sequence number of its last change. Every use case that writes a synced record
/// calls ``record(_:_:op:owner:on:now:)`` inside its write transaction, so a
/// change through the API, the web pages or a push shows up in the feed the same way.
enum SyncLog {
    static let table = "sync_records"

    /// Records changes of `ids` (all of one kind) with the next sequence numbers of the owner.
    static func record(_ kind: SyncKind, _ ids: [UUID], op: SyncOp, owner: UUID, on db: any Database, now: Date) async throws {
        try await record(kind, ids.map { ($0, now) }, op: op, owner: owner, on: db)
    }

    /// Records changes of records of one kind, each made at its own time (several requests' entries
    /// written together), with the next sequence numbers of the owner.
    static func record(_ kind: SyncKind, _ changes: [(id: UUID, at: Date)], op: SyncOp, owner: UUID, on db: any Database) async throws {
        guard !changes.isEmpty else { return }
        let sql = db as! any SQLDatabase
        // A pushing device's change is recorded as the device's (``WriteTransaction/changes(from:_:)``).
        let origin = (db as? WriteTransaction)?.origin
        if sql.dialect.name == "postgresql" { return try await recordOnPostgres(kind, changes, op: op, owner: owner, origin: origin, on: db) }
        // SQLite (its writes already take turns). One change (the usual case) gets its number inside
        // the insert: one statement fewer in the writer's turn (docs/performance.md). Several get
        // consecutive numbers after the head read once (a later row of one statement would see the
        // earlier ones in the head).
        let single = changes.count == 1
        var next = single ? 0 : try await lastSequence(owner: owner, on: sql) + 1
        for start in stride(from: 0, to: changes.count, by: changesPerStatement) {
            let rows = changes[start..<min(start + changesPerStatement, changes.count)].map { change -> SQLExpression in
                defer { next += 1 }
                return row(kind, change, op: op, owner: owner, origin: origin, seq: single ? head(of: "\(bind: owner)") + " + 1" : SQLBind(Int64(next)))
            }
            try await sql.raw("\(unsafeRaw: insertInto) VALUES \(SQLList(rows)) \(unsafeRaw: replacing)").run()
        }
        SyncEvents.changed(owner: owner, in: db)
    }

    /// One change's values, in ``insertInto``'s order, its number given by `seq`.
    private static func row(_ kind: SyncKind, _ change: (id: UUID, at: Date), op: SyncOp, owner: UUID, origin: SyncOrigin?,
                            seq: any SQLExpression) -> SQLExpression {
        let origin = origin ?? SyncOrigin.server(at: change.at)
        return SQLGroupExpression([
            SQLBind(owner), SQLBind(kind.rawValue), SQLBind(change.id), seq, SQLBind(op.rawValue),
            SQLBind(origin.updatedAt.timeIntervalSince1970), SQLBind(origin.deviceId), SQLBind(origin.mutationId),
            SQLBind(change.at.timeIntervalSince1970),
        ])
    }

    /// The most changes one statement records inside a write transaction (nine values each).
    static let changesPerStatement = 200

    /// PostgreSQL, inside a write transaction: one statement for up to ``changesPerStatement``
    /// changes (``recording(_:_:op:origin:)``). One change, the usual case, is a statement each
    /// connection prepares once (``OneChange``): planning it on every write cost PostgreSQL about a
    /// third of its time on it (docs/performance.md).
    private static func recordOnPostgres(_ kind: SyncKind, _ changes: [(id: UUID, at: Date)], op: SyncOp, owner: UUID,
                                         origin: SyncOrigin?, on db: any Database) async throws {
        guard let postgres = ((db as? WriteTransaction)?.base ?? db) as? any PostgresDatabase else { throw AppError.storageUnavailable }
        try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                for start in stride(from: 0, to: changes.count, by: changesPerStatement) {
                    let part = changes[start..<min(start + changesPerStatement, changes.count)].map { (owner: owner, id: $0.id, at: $0.at) }
                    let statement = recording(kind, part, op: op, origin: origin)
                    if part.count == 1 {
                        for try await _ in try await connection.execute(OneChange(bindings: statement.bindings), logger: db.logger) {}
                    } else {
                        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: statement.sql, binds: statement.bindings),
                                                                      logger: db.logger) {}
                    }
                }
            }
        }.get()
    }

    /// ``recording(_:_:op:origin:)`` of one change, prepared once per connection.
    private struct OneChange: PostgresPreparedStatement {
        private static let sample = recording(.food, [(UUID(), UUID(), Date(timeIntervalSince1970: 0))], op: .upsert, origin: nil)
        static let name = "forkcast_feed_one"
        static let sql = sample.sql
        // Declared: PostgreSQL reads an untyped parameter in a VALUES list as text.
        static let bindingDataTypes = sample.types
        typealias Row = PostgresRow
        var bindings: PostgresBindings
        func makeBindings() -> PostgresBindings { bindings }
        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    /// PostgreSQL: one statement that records `changes` (of one or more owners, each owner's in
    /// order), numbered after each owner's head, and wakes the owners' event streams at commit
    /// (PostgreSQL sends a notification then, and never for a transaction rolled back). Its text
    /// depends only on how many owners and changes it has; the values are its parameters.
    ///
    /// The numbers come from the owner's row in `sync_heads`, moved on by the statement: an update
    /// of a row waits for a writer that moved it before and then reads what that writer committed,
    /// and the row stays locked until this transaction ends. So an owner's numbers are given in
    /// commit order without gaps or repeats, whether the statement runs alone or inside a
    /// transaction. An owner without the row (the first change) starts after the feed's head, and
    /// so does one whose row is behind it (changes an older Forkcast recorded, which kept no row,
    /// while no newer one ran: instances of both at once would give numbers twice, so every
    /// instance is stopped for this upgrade, as the README says).
    static func recording(_ kind: SyncKind, _ changes: [(owner: UUID, id: UUID, at: Date)], op: SyncOp,
                          origin: SyncOrigin?) -> (sql: String, bindings: PostgresBindings, types: [PostgresDataType]) {
        var bindings = PostgresBindings()
        var types: [PostgresDataType] = []
        func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
            bindings.append(value)
            types.append(value.psqlType)
            return "$\(bindings.count)"
        }
        var counts: [UUID: Int64] = [:]
        for change in changes { counts[change.owner, default: 0] += 1 }
        // Several owners' rows are locked in one order, as every writer of several locks them.
        let owners = counts.sorted { $0.key.uuidString < $1.key.uuidString }
        // The owners' turns first (``lockOwner(_:on:)``), in the same statement: a turn is held
        // until the commit, so every round trip saved here is one the owner's next writer waits less.
        let locks = owners.map { "pg_advisory_xact_lock(\(bind(lockKey($0.key))))" }.joined(separator: ", ")
        let heads = owners.map { "(\(bind($0.key)), \(bind($0.value)))" }.joined(separator: ", ")
        var numbers: [UUID: Int64] = [:]
        let rows = changes.map { change -> String in
            numbers[change.owner, default: 0] += 1
            let origin = origin ?? SyncOrigin.server(at: change.at)
            return "(" + [bind(change.owner), bind(kind.rawValue), bind(change.id), bind(numbers[change.owner]!), bind(op.rawValue),
                          bind(origin.updatedAt.timeIntervalSince1970), bind(origin.deviceId), bind(origin.mutationId),
                          bind(change.at.timeIntervalSince1970)].joined(separator: ", ") + ")"
        }
        let sql = """
            WITH locks AS MATERIALIZED (SELECT \(locks)),
            heads AS (
              INSERT INTO sync_heads (owner_id, seq, added)
              SELECT c.owner_id, \(head(column: "c.owner_id")) + c.added, c.added FROM (VALUES \(heads)) AS c (owner_id, added)
              WHERE EXISTS (SELECT FROM locks)
              ON CONFLICT (owner_id) DO UPDATE SET seq = GREATEST(sync_heads.seq, excluded.seq - excluded.added) + excluded.added,
                added = excluded.added
              RETURNING owner_id, seq - added AS base),
            feed AS (
            \(insertInto) SELECT v.owner_id, v.kind, v.record_id, h.base + v.n, v.op, v.updated_at, v.device_id, v.mutation_id, v.changed_at
              FROM (VALUES \(rows.joined(separator: ", "))) AS v (owner_id, kind, record_id, n, op, updated_at, device_id, mutation_id, changed_at),
              heads AS h WHERE h.owner_id = v.owner_id \(replacing)
            )
            SELECT pg_notify(\(bind(SyncEvents.channel)), h.owner_id::text) FROM heads AS h
            """
        return (sql, bindings, types)
    }

    /// Every insert into the feed: its columns, and what a later change of a record replaces.
    private static let insertInto =
        "INSERT INTO sync_records (owner_id, kind, record_id, seq, op, updated_at, device_id, mutation_id, changed_at)"
    private static let replacing = """
        ON CONFLICT (owner_id, kind, record_id) DO UPDATE SET seq = excluded.seq, op = excluded.op,
          updated_at = excluded.updated_at, device_id = excluded.device_id, mutation_id = excluded.mutation_id,
          changed_at = excluded.changed_at
        """

    /// On PostgreSQL, the owner's use cases that read and then write take turns (a
    /// transaction-level advisory lock); every change recorded inside a transaction is recorded
    /// after it, so a transaction holding the owner's row in `sync_heads` (``recording(_:_:op:origin:)``)
    /// always holds the lock already and never waits for it. SQLite's writes already take turns.
    static func lockOwner(_ owner: UUID, on sql: any SQLDatabase) async throws {
        guard sql.dialect.name == "postgresql" else { return }
        try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: lockKey(owner)))").run()
    }

    /// A person's turn for a transaction that may also write their household's shared records (a
    /// synced device's push, a request with an idempotency key): the household's turn first, as
    /// ``Kitchen/enter(_:on:)`` takes it, then theirs. Every transaction takes a household's turn
    /// before any member's, so a shared write (which records in every member's feed) and a
    /// member's own never wait on each other in a circle.
    static func lockPerson(_ user: UUID, on sql: any SQLDatabase) async throws {
        guard sql.dialect.name == "postgresql" else { return }
        if let household = try await sql.raw("SELECT household_id FROM household_members WHERE user_id = \(bind: user)").first()?
            .decode(column: "household_id", as: UUID.self) {
            try await lockOwner(household, on: sql)
        }
        try await lockOwner(user, on: sql)
    }

    /// The advisory lock's key of an owner: the first eight bytes of its id.
    private static func lockKey(_ owner: UUID) -> Int64 {
        let key = owner.uuid
        return Int64(bitPattern: UInt64(key.0) << 56 | UInt64(key.1) << 48 | UInt64(key.2) << 40 | UInt64(key.3) << 32
            | UInt64(key.4) << 24 | UInt64(key.5) << 16 | UInt64(key.6) << 8 | UInt64(key.7))
    }

    /// The owner's newest change number. Never goes back: numbers of forgotten deletions (the
    /// horizon) count too, so a number is never given twice (cursors and kept answers rely on it).
    static func lastSequence(owner: UUID, on sql: any SQLDatabase) async throws -> Int {
        let row = try await sql.raw("SELECT \(head(of: "\(bind: owner)")) AS seq").first()
        return Int(try row?.decode(column: "seq", as: Int64.self) ?? 0)
    }

    /// Where one kind of the owner's records stands, as text: the last change to any of them and the
    /// owner's pruning horizon ("1234:0"). Any change to one of them takes a number above every
    /// earlier one, and pruning the feed moves the horizon, so the text changes whenever they may
    /// have, whatever else the person changes. Plain SQL for the owner the column `column` names
    /// (the token's statement, prepared once): one seek on the index (owner, kind, seq) and one on the horizons.
    static func version(of kind: SyncKind, column: String) -> String {
        """
        ((SELECT COALESCE(MAX(seq), 0) FROM sync_records WHERE owner_id = \(column) AND kind = '\(kind.rawValue)') || ':' ||
          (SELECT COALESCE(MAX(pruned_seq), 0) FROM sync_horizons WHERE owner_id = \(column)))
        """
    }

    /// ``lastSequence(owner:on:)`` as an SQL expression, for the owner `owner` names (a column or a bind).
    static func head(of owner: SQLQueryString) -> SQLQueryString {
        "\(unsafeRaw: headText[0])\(owner)\(unsafeRaw: headText[1])\(owner)\(unsafeRaw: headText[2])"
    }

    /// The same as plain SQL for a column (a statement prepared once).
    static func head(column: String) -> String { headText.joined(separator: column) }

    private static let headText = ["(SELECT COALESCE(MAX(heads.seq), 0) FROM (\n  SELECT MAX(seq) AS seq FROM sync_records WHERE owner_id = ",
                                   "\n  UNION ALL SELECT MAX(pruned_seq) FROM sync_horizons WHERE owner_id = ", ") heads)"]

    /// The owner's pruning horizon: the last change number of the deletions forgotten after
    /// ``SyncMerge/tombstoneDays`` (nil when none was forgotten yet).
    static func horizon(owner: UUID, on db: any Database) async throws -> Int? {
        let row = try await (db as! any SQLDatabase).raw("SELECT pruned_seq FROM sync_horizons WHERE owner_id = \(bind: owner)").first()
        return try row.map { Int(try $0.decode(column: "pruned_seq", as: Int64.self)) }
    }

    /// The current version of a record, if it was ever synced.
    static func version(_ kind: SyncKind, _ id: UUID, owner: UUID, on db: any Database) async throws -> (version: SyncVersion, op: SyncOp)? {
        let sql = db as! any SQLDatabase
        guard let row = try await sql.raw("""
            SELECT op, updated_at, device_id, mutation_id FROM sync_records
            WHERE owner_id = \(bind: owner) AND kind = \(bind: kind.rawValue) AND record_id = \(bind: id)
            """).first() else { return nil }
        let version = SyncVersion(updatedAt: Date(timeIntervalSince1970: try row.decode(column: "updated_at", as: Double.self)),
                                  deviceId: try row.decode(column: "device_id", as: String.self),
                                  mutationId: try row.decode(column: "mutation_id", as: String.self))
        return (version, SyncOp(rawValue: try row.decode(column: "op", as: String.self)) ?? .upsert)
    }

    struct Change: Sendable {
        var seq: Int
        var kind: SyncKind
        var id: UUID
        var op: SyncOp
        var updatedAt: Date
        var deviceId: String
    }

    /// The owner's changes after `since`, oldest first.
    static func changes(owner: UUID, after since: Int, limit: Int, on db: any Database) async throws -> [Change] {
        let sql = db as! any SQLDatabase
        return try await sql.raw("""
            SELECT seq, kind, record_id, op, updated_at, device_id FROM sync_records
            WHERE owner_id = \(bind: owner) AND seq > \(bind: Int64(since)) ORDER BY seq LIMIT \(bind: limit)
            """).all().compactMap { row in
            guard let kind = SyncKind(rawValue: try row.decode(column: "kind", as: String.self)) else { return nil }
            return Change(seq: Int(try row.decode(column: "seq", as: Int64.self)), kind: kind,
                          id: try row.decode(column: "record_id", as: UUID.self),
                          op: SyncOp(rawValue: try row.decode(column: "op", as: String.self)) ?? .upsert,
                          updatedAt: Date(timeIntervalSince1970: try row.decode(column: "updated_at", as: Double.self)),
                          deviceId: try row.decode(column: "device_id", as: String.self))
        }
    }
}
