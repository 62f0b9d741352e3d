import Foundation
import SQLiteKit
import SQLKit
import Vapor
// SQLite itself, as sqlite-nio builds it into the binary (the library Fluent's connections use):
// SQLiteNIO prepares every statement anew and offers no way to keep one.
import VaporCSQLite

/// The read every API request starts with (its bearer token, ``BearerAuthenticator``), answered
/// from a statement SQLite keeps prepared, on the thread that asks (SQLite only; docs/performance.md).
///
/// Through Fluent, that query was parsed and planned anew on every request (about 33 µs, a tenth of
/// a kept diary day's CPU), then ran on SQLiteNIO's thread pool: two thread switches more. Here a
/// few connections of the application's own keep each statement they ran prepared; a request takes
/// a free connection and steps the statement where it is (about 8 µs: the pages are in memory).
///
/// Each run is a read transaction of its own (the statement is reset at once), so it sees every
/// write committed before it started, by any connection or process, as Fluent's connections do.
/// The connections never write (`query_only`) and never wait for a lock: when SQLite answers busy
/// or anything fails, ``rows(_:serializedFor:)`` is nil and the caller asks Fluent instead.
final class PreparedReads: Sendable {
    let path: String
    private let connections: [Connection]

    /// `connections`: as many as threads may ask at once (the event loops); more only wait less.
    init(path: String, connections: Int = System.coreCount) {
        self.path = path
        self.connections = (0..<max(1, connections)).map { _ in Connection() }
    }

    /// The rows of `query` as `database` would serialize it, or nil when this could not answer it.
    func rows(_ query: some SQLExpression, serializedFor database: any SQLDatabase) -> [any SQLRow]? {
        var serializer = SQLSerializer(database: database)
        query.serialize(to: &serializer)
        let encoder = SQLiteDataEncoder()
        guard let binds = try? serializer.binds.map({ try encoder.encode($0) }) else { return nil }
        // A free connection if there is one, else the first (each run holds it for microseconds).
        let connection = connections.first { $0.lock.try() } ?? {
            connections[0].lock.lock()
            return connections[0]
        }()
        defer { connection.lock.unlock() }
        return connection.rows(serializer.sql, binds, path: path)
    }

    /// How often SQLite had to prepare a kept statement again (a changed schema, or a bound value
    /// the plan depends on), over every connection: for tests, and curiosity.
    var replans: Int {
        connections.reduce(0) { sum, connection in
            connection.lock.lock()
            defer { connection.lock.unlock() }
            return sum + connection.replans
        }
    }

    /// Finalizes every statement and closes every connection (the application is shutting down).
    func close() {
        for connection in connections {
            connection.lock.lock()
            connection.close()
            connection.lock.unlock()
        }
    }

    /// Closes the connections when the application shuts down.
    struct Closing: LifecycleHandler {
        let reads: PreparedReads
        func shutdown(_ application: Application) { reads.close() }
    }

    /// One SQLite connection and its prepared statements; every member is used under `lock` only.
    private final class Connection: @unchecked Sendable {
        let lock = NSLock()
        private var handle: OpaquePointer?
        /// Closed for good (the application shut down): a late caller asks Fluent, nothing reopens.
        private var closed = false
        private var statements: [String: (statement: OpaquePointer, columns: [String])] = [:]
        /// Statements kept per connection; a query text beyond them is prepared for one run.
        private static let keptStatements = 16
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        func rows(_ sql: String, _ binds: [SQLiteData], path: String) -> [any SQLRow]? {
            guard let handle = open(path) else { return nil }
            let kept = statements[sql]
            guard let (statement, columns) = kept ?? prepare(sql, on: handle) else { return nil }
            defer {
                sqlite_nio_sqlite3_reset(statement)  // ends the read transaction
                sqlite_nio_sqlite3_clear_bindings(statement)
                if kept == nil {
                    if statements.count < Self.keptStatements {
                        statements[sql] = (statement, columns)
                    } else {
                        sqlite_nio_sqlite3_finalize(statement)
                    }
                }
            }
            for (index, bind) in binds.enumerated() {
                let position = Int32(index + 1)
                let status: Int32 = switch bind {
                case .integer(let value): sqlite_nio_sqlite3_bind_int64(statement, position, Int64(value))
                case .float(let value): sqlite_nio_sqlite3_bind_double(statement, position, value)
                case .text(let value):
                    sqlite_nio_sqlite3_bind_text64(statement, position, value, UInt64(value.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
                case .blob(let value):
                    value.withUnsafeReadableBytes {
                        sqlite_nio_sqlite3_bind_blob64(statement, position, $0.baseAddress, UInt64($0.count), Self.transient)
                    }
                case .null: sqlite_nio_sqlite3_bind_null(statement, position)
                }
                guard status == SQLITE_OK else { return nil }
            }
            var rows: [any SQLRow] = []
            while true {
                switch sqlite_nio_sqlite3_step(statement) {
                case SQLITE_ROW:
                    guard let values = Self.values(of: statement, count: columns.count) else { return nil }
                    rows.append(Row(columns: columns, values: values))
                case SQLITE_DONE:
                    return rows
                default:
                    return nil  // busy (another connection is recovering the WAL), or an error: Fluent answers
                }
            }
        }

        var replans: Int {
            statements.values.reduce(0) { $0 + Int(sqlite_nio_sqlite3_stmt_status($1.statement, SQLITE_STMTSTATUS_REPREPARE, 0)) }
        }

        func close() {
            for (statement, _) in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            statements = [:]
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            handle = nil
            closed = true
        }

        private func open(_ path: String) -> OpaquePointer? {
            if let handle { return handle }
            guard !closed else { return nil }
            var opened: OpaquePointer?
            guard sqlite_nio_sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
                  sqlite_nio_sqlite3_exec(opened, "PRAGMA query_only = ON", nil, nil, nil) == SQLITE_OK
            else {
                sqlite_nio_sqlite3_close_v2(opened)
                return nil
            }
            handle = opened
            return opened
        }

        private func prepare(_ sql: String, on handle: OpaquePointer) -> (statement: OpaquePointer, columns: [String])? {
            var prepared: OpaquePointer?
            guard sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK,
                  let statement = prepared else {
                sqlite_nio_sqlite3_finalize(prepared)
                return nil
            }
            let columns = (0..<sqlite_nio_sqlite3_column_count(statement)).map { index in
                sqlite_nio_sqlite3_column_name(statement, index).map { String(cString: $0) } ?? ""
            }
            return (statement, columns)
        }

        /// The current row's values, read as SQLiteNIO reads them.
        private static func values(of statement: OpaquePointer, count: Int) -> [SQLiteData]? {
            var values: [SQLiteData] = []
            values.reserveCapacity(count)
            for index in 0..<Int32(count) {
                switch sqlite_nio_sqlite3_column_type(statement, index) {
                case SQLITE_INTEGER: values.append(.integer(Int(sqlite_nio_sqlite3_column_int64(statement, index))))
                case SQLITE_FLOAT: values.append(.float(sqlite_nio_sqlite3_column_double(statement, index)))
                case SQLITE_TEXT:
                    guard let text = sqlite_nio_sqlite3_column_text(statement, index) else { return nil }
                    // By its length: text may hold NUL characters, where String(cString:) would stop.
                    let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                    values.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)))
                case SQLITE_BLOB:
                    let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                    var buffer = ByteBufferAllocator().buffer(capacity: length)
                    if let bytes = sqlite_nio_sqlite3_column_blob(statement, index) {
                        buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: length))
                    }
                    values.append(.blob(buffer))
                case SQLITE_NULL: values.append(.null)
                default: return nil
                }
            }
            return values
        }
    }

    struct MissingColumn: Error {
        let column: String
    }

    /// A row as SQLiteKit's rows answer: values decoded by `SQLiteDataDecoder`.
    private struct Row: SQLRow {
        let columns: [String]
        let values: [SQLiteData]

        var allColumns: [String] { columns }
        func contains(column: String) -> Bool { columns.contains(column) }

        func decodeNil(column: String) throws -> Bool {
            guard let index = columns.firstIndex(of: column) else { return true }
            return values[index] == .null
        }

        func decode<D: Decodable>(column: String, as: D.Type) throws -> D {
            guard let index = columns.firstIndex(of: column) else { throw MissingColumn(column: column) }
            return try SQLiteDataDecoder().decode(D.self, from: values[index])
        }
    }
}

extension Application {
    private struct PreparedReadsKey: StorageKey { typealias Value = PreparedReads }

    /// This application's prepared reads, when its database is SQLite (set up by `configure`).
    var preparedReads: PreparedReads? {
        get { storage[PreparedReadsKey.self] }
        set { storage[PreparedReadsKey.self] = newValue }
    }
}
