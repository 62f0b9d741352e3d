import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// `GET /api/docs`: the API reference page, open to anyone (like the document it shows).
struct APIDocsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.apiDocs.pathComponents, use: page)
    }

    /// The reference, rendered once for signed-in people and once for visitors (about 300 KB of
    /// HTML: not remade on an event loop for every visit).
    private static let contents: Result<(signedIn: HTML, visitor: HTML), any Error> = Result {
        let document = try OpenAPIDocument.value()
        return (APIDocsPage(document: document, signedIn: true).content, APIDocsPage(document: document, signedIn: false).content)
    }

    @Sendable func page(req: Request) async throws -> Response {
        let layout = req.layout("API reference", .none, scripts: [SiteURL.script("api-docs").path])
        let contents = try Self.contents.get()
        return layout.render(layout.signedIn ? contents.signedIn : contents.visitor).response()
    }
}
