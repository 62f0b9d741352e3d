import Fluent
import ForkcastContract
import SQLKit
import Vapor

/// `/healthz` and `/api/v1/openapi.json`.
struct SystemController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz", use: health)
        routes.get(APIv1.documentPath.pathComponents, use: openAPI)
    }

    struct Health: Content {
        var status: String
        var database: String
        /// Whether a write can be committed now (a full disk or a lock held elsewhere says no).
        var writable: Bool
    }

    /// 200 when the database answers and takes a write; 503 otherwise, promptly (the write waits
    /// at most a few seconds for a lock).
    @Sendable func health(req: Request) async throws -> Response {
        let kind = req.application.forkcastConfig.storage.kindName
        do {
            _ = try await (req.db as! any SQLDatabase).raw("SELECT 1 AS ok").first()
        } catch {
            req.logger.error("health check failed: \(String(reflecting: error))")
            return try await Health(status: "unavailable", database: kind, writable: false).encodeResponse(status: .serviceUnavailable, for: req)
        }
        // Writes failing for storage reasons a moment ago: not writable, even if the probe's one
        // row still fits (a full disk leaves room in the WAL for it).
        if req.application.writeGate.health.isFailing {
            return try await Health(status: "read-only", database: kind, writable: false).encodeResponse(status: .serviceUnavailable, for: req)
        }
        do {
            let now = req.now.timeIntervalSince1970
            try await req.db.write(timeout: .seconds(3)) { tx in
                try await (tx as! any SQLDatabase).raw("""
                    INSERT INTO health_probe (id, checked_at) VALUES (1, \(bind: now))
                    ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
                    """).run()
            }
            return try await Health(status: "ok", database: kind, writable: true).encodeResponse(status: .ok, for: req)
        } catch {
            req.logger.error("health check write failed: \(String(reflecting: error))")
            return try await Health(status: "read-only", database: kind, writable: false).encodeResponse(status: .serviceUnavailable, for: req)
        }
    }

    @Sendable func openAPI(req: Request) async throws -> Response {
        Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(data: try OpenAPIDocument.data()))
    }
}

extension AppConfig.Storage {
    var kindName: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgresql"
        }
    }
}
