import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// `GET /api/docs`: the API reference page, open to anyone (like the document it shows).
struct APIDocsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.apiDocs.pathComponents, use: page)
    }

    /// The document, read once.
    private static let document: Result<JSONValue, any Error> = Result {
        try JSONDecoder().decode(JSONValue.self, from: try OpenAPIDocument.data())
    }

    @Sendable func page(req: Request) async throws -> Response {
        let layout = req.layout("API reference", .none, scripts: [SiteURL.script("api-docs").path])
        return APIDocsPage(document: try Self.document.get(), signedIn: layout.signedIn).render(layout: layout).response()
    }
}
