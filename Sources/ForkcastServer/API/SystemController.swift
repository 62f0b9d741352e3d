import Fluent
import SQLKit
import Vapor

/// `/healthz` and `/api/v1/openapi.json`.
struct SystemController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz", use: health)
        routes.get("api", "v1", "openapi.json", use: openAPI)
    }

    struct Health: Content {
        var status: String
        var database: String
    }

    @Sendable func health(req: Request) async throws -> Response {
        let kind = req.application.forkcastConfig.storage.kindName
        do {
            _ = try await (req.db as! any SQLDatabase).raw("SELECT 1 AS ok").first()
            return try await Health(status: "ok", database: kind).encodeResponse(status: .ok, for: req)
        } catch {
            req.logger.error("health check failed: \(String(reflecting: error))")
            return try await Health(status: "unavailable", database: kind).encodeResponse(status: .serviceUnavailable, for: req)
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
