import Crypto
import Fluent
import ForkcastContract
import ForkcastCore
import Foundation
import SQLKit
import Vapor

/// A creating POST sent with `Idempotency-Key` (``HeaderParameter/idempotencyKey``): the handler's
/// change and its answer are written in one transaction, so a request sent again after an answer
/// that never came, or a 503 whose outcome is unknown, finds either nothing (and is done now) or the
/// answer kept with the change (and gets it again). Nothing is made twice.
///
/// The answers live beside a synced device's pushed mutations (`sync_mutations`), under the device
/// id no device may use, and go with them after ``SyncMerge/tombstoneDays``.
enum IdempotencyKey {
    static let header = "Idempotency-Key"

    /// What is kept of the first answer.
    private struct Kept: Codable {
        /// The request it answered (method, path, query and body), hashed.
        var request: String
        var status: Int
        var location: String?
        var body: String
    }

    /// Runs `handler` inside one write with its answer kept under the request's key, or answers
    /// what was kept. Without the header it runs `handler` alone.
    static func answer(_ req: Request, _ handler: @escaping @Sendable (Request) async throws -> Response) async throws -> Response {
        guard let key = req.headers.first(name: header) else { return try await handler(req) }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw AppError.badRequest("\(header) must be 1 to 255 visible ASCII characters (a UUID, say); got \(key.utf8.count) bytes.")
        }
        let owner = try req.requireUser().requireID()
        let mutation = "\(req.method.rawValue) \(req.url.path) \(key)"
        var hash = SHA256()
        hash.update(data: Data("\(req.method.rawValue) \(req.url.string)\n".utf8))
        if let body = req.body.data.map({ Data(buffer: $0) }) {
            // The same JSON with its fields in another order (another encoder's) is the same request.
            let canonical = (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed))
                .flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) }
            hash.update(data: canonical ?? body)
        }
        let request = hash.finalize().map { String(format: "%02x", $0) }.joined()
        // The handler's use cases write on the transaction; what runs after it, on the request's own.
        let outside = req.database
        defer { req.database = outside }
        return try await outside.write { tx in
            let sql = tx as any SQLDatabase
            // PostgreSQL: the same key sent twice at once takes turns here (SQLite's writers always do).
            try await SyncLog.lockPerson(owner, on: sql)
            let device = SyncMerge.serverDeviceId
            if let row = try await sql.raw("""
                SELECT result FROM sync_mutations WHERE owner_id = \(bind: owner) AND device_id = \(bind: device) AND mutation_id = \(bind: mutation)
                """).first() {
                let kept = try JSONDecoder().decode(Kept.self, from: Data(try row.decode(column: "result", as: String.self).utf8))
                guard kept.request == request else {
                    throw AppError.validation(ValidationError([.init(field: header, message: "\(header) was already used for another request; send a new key with each change.")]))
                }
                var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8", "Idempotent-Replayed": "true"]
                if let location = kept.location { headers.add(name: .location, value: location) }
                return Response(status: .init(statusCode: kept.status), headers: headers, body: .init(string: kept.body))
            }
            req.database = tx
            let response = try await handler(req)
            let body = response.body.buffer.map { String(buffer: $0) } ?? ""
            let kept = Kept(request: request, status: Int(response.status.code), location: response.headers.first(name: .location), body: body)
            try await sql.raw("""
                INSERT INTO sync_mutations (owner_id, device_id, mutation_id, result, created_at)
                VALUES (\(bind: owner), \(bind: device), \(bind: mutation), \(bind: String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)),
                        \(bind: req.now.timeIntervalSince1970))
                """).run()
            return response
        }
    }
}
