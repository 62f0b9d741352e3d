import Vapor

extension RoutesBuilder {
    /// Registers a web route at a ``SiteURL``'s pattern.
    @discardableResult
    func on<Response: AsyncResponseEncodable>(_ method: HTTPMethod, _ url: SiteURL, body: HTTPBodyStreamStrategy = .collect,
                                              use closure: @escaping @Sendable (Request) async throws -> Response) -> Route {
        on(method, url.pathComponents, body: body, use: closure)
    }

    @discardableResult
    func get<Response: AsyncResponseEncodable>(_ url: SiteURL, use closure: @escaping @Sendable (Request) async throws -> Response) -> Route {
        on(.GET, url, use: closure)
    }

    @discardableResult
    func post<Response: AsyncResponseEncodable>(_ url: SiteURL, use closure: @escaping @Sendable (Request) async throws -> Response) -> Route {
        on(.POST, url, use: closure)
    }
}
