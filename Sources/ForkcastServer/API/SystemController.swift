import Fluent
import ForkcastContract
import SQLKit
import Vapor

/// `/healthz` and `/api/v1/openapi.json` (ForkcastContract's ``Service`` operations).
enum SystemController {
    static func register(_ routes: OperationRoutes) {
        routes.raw(Service.Health.self) { req, _ in try await health(req: req) }
        routes.raw(Service.Document.self) { _, _ in
            Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(data: try OpenAPIDocument.data()))
        }
    }

    /// 200 when the database answers and takes a write; 503 otherwise, promptly (the write waits
    /// at most a few seconds for a lock).
    static func health(req: Request) async throws -> Response {
        let kind = req.application.forkcastConfig.storage.kind
        do {
            _ = try await (req.db as! any SQLDatabase).raw("SELECT 1 AS ok").first()
        } catch {
            req.logger.error("health check failed: \(String(reflecting: error))")
            return try answer(.unavailable, kind, status: .serviceUnavailable)
        }
        // Writes failing for storage reasons a moment ago: not writable, even if the probe's one
        // row still fits (a full disk leaves room in the WAL for it).
        if req.application.writeGate.health.isFailing {
            return try answer(.readOnly, kind, status: .serviceUnavailable)
        }
        do {
            let now = req.now.timeIntervalSince1970
            try await req.db.write(timeout: .seconds(3)) { tx in
                try await (tx as! any SQLDatabase).raw("""
                    INSERT INTO health_probe (id, checked_at) VALUES (1, \(bind: now))
                    ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
                    """).run()
            }
            return try answer(.ok, kind, status: .ok)
        } catch {
            req.logger.error("health check write failed: \(String(reflecting: error))")
            return try answer(.readOnly, kind, status: .serviceUnavailable)
        }
    }

    private static func answer(_ state: HealthReport.Status, _ kind: HealthReport.Database, status: HTTPStatus) throws -> Response {
        let response = Response(status: status)
        try response.content.encode(HealthReport(status: state, database: kind, writable: state == .ok), as: .json)
        return response
    }
}

extension AppConfig.Storage {
    var kind: HealthReport.Database {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgresql
        }
    }
}
