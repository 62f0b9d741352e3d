import Foundation
import NIOCore
import Vapor

/// A local stand-in for Open Food Facts that serves the real fixtures and misbehaves on demand:
/// slow answers, 429, 503, bad JSON and cut connections. No test touches the internet.
final class FakeOpenFoodFacts: @unchecked Sendable {
    let app: Application
    private let lock = NSLock()
    private var requests: [(path: String, userAgent: String?)] = []
    /// 503s still to send before answering normally.
    var unavailableCount = 0

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/openfoodfacts")

    /// Barcodes with special behaviour.
    enum Code {
        static let throttled = "0000000000429"
        static let flaky = "0000000000503"
        static let slow = "0000000000777"
        static let badJSON = "0000000000666"
        static let cut = "0000000000555"
    }

    private init(app: Application) { self.app = app }

    static func start() async throws -> FakeOpenFoodFacts {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        let fake = FakeOpenFoodFacts(app: app)
        app.get("api", "v2", "product", ":code") { req async throws -> Response in
            fake.record(req)
            return try await fake.product(req.parameters.get("code") ?? "", req: req)
        }
        app.get("cgi", "search.pl") { req async throws -> Response in
            fake.record(req)
            let terms = (try? req.query.get(String.self, at: "search_terms")) ?? ""
            if terms == "busy" { return Response(status: .tooManyRequests, headers: ["Retry-After": "1"]) }
            return try fake.file("search_cgi_fanta_no_nutriments.json")
        }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        return fake
    }

    var baseURL: String { "http://127.0.0.1:\(app.http.server.shared.localAddress!.port!)" }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    var requestCount: Int { lock.withLock { requests.count } }
    var userAgents: [String?] { lock.withLock { requests.map(\.userAgent) } }
    func count(_ path: String) -> Int { lock.withLock { requests.filter { $0.path.contains(path) }.count } }

    private func record(_ req: Request) {
        lock.withLock { requests.append((req.url.string, req.headers.first(name: .userAgent))) }
    }

    private func file(_ name: String, status: HTTPResponseStatus = .ok) throws -> Response {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
        return Response(status: status, headers: ["Content-Type": "application/json"], body: .init(data: data))
    }

    private func product(_ code: String, req: Request) async throws -> Response {
        switch code {
        case "0737628064502", "737628064502": return try file("v0_product_0737628064502_thai_noodle_kit_serving_size.json")
        case "5449000011527": return try file("v0_product_5449000011527_fanta_kj_only.json")
        case "0200000000034": return try file("v2_product_0200000000034_fields_nutriments_kj_only.json")
        case Code.throttled: return Response(status: .tooManyRequests, headers: ["Retry-After": "1"])
        case Code.flaky:
            let fail = lock.withLock { () -> Bool in
                if unavailableCount > 0 { unavailableCount -= 1; return true }
                return false
            }
            if fail { return Response(status: .serviceUnavailable) }
            return try file("v0_product_5449000011527_fanta_kj_only.json")
        case Code.slow:
            try await Task.sleep(for: .seconds(3))
            return try file("v0_product_5449000011527_fanta_kj_only.json")
        case Code.badJSON:
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: "{\"status\": 1, \"product\": {"))
        case Code.cut:
            // Start an answer, then drop the connection.
            return Response(status: .ok, body: .init(asyncStream: { writer in
                try await writer.write(.buffer(ByteBuffer(string: "{\"code\":\"0000000000555\",\"status\":1,\"pro")))
                try await writer.write(.error(Abort(.internalServerError)))
            }))
        default:
            // Open Food Facts answers unknown products with HTTP 404 and status 0 on API v2.
            return try file("v2_product_12345678_not_found.json", status: .notFound)
        }
    }
}
