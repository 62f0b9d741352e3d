import ForkcastContract
import ForkcastCore
import Foundation

/// The OpenAPI 3.1 description of `/api/v1`, built once from ForkcastContract's operations
/// (``APIv1/operations``); the families not yet moved there come from the bundled legacy document,
/// which the built operations replace path by path.
enum OpenAPIDocument {
    static func data() throws -> Data { try built.get() }

    private static let built: Result<Data, any Error> = Result {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "Public") else {
            throw ConfigError("openapi.json is missing from the bundle")
        }
        let legacy = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        return try APIDocument.build(APIv1.operations, legacy: legacy).encodedDocument()
    }
}
