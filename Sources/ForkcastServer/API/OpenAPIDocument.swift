import Foundation

/// The OpenAPI 3.1 description of `/api/v1`, shipped as a resource and checked against the real
/// routes by a test.
enum OpenAPIDocument {
    static func data() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "Public") else {
            throw ConfigError("openapi.json is missing from the bundle")
        }
        return try Data(contentsOf: url)
    }
}
