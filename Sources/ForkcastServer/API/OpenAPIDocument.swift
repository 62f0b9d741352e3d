import ForkcastContract
import ForkcastCore
import Foundation

/// The OpenAPI 3.1 description of `/api/v1`, built once from ForkcastContract's operations
/// (``APIv1/operations``); the families not yet moved there come from the bundled legacy document,
/// which the built operations replace path by path.
enum OpenAPIDocument {
    /// The document's bytes, as `/api/v1/openapi.json` answers them.
    static func data() throws -> Data { try built.get().data }

    /// The document itself (the API reference page renders it).
    static func value() throws -> JSONValue { try built.get().value }

    private static let built: Result<(value: JSONValue, data: Data), any Error> = Result {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "Public") else {
            throw ConfigError("openapi.json is missing from the bundle")
        }
        let legacy = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        let document = try APIDocument.build(APIv1.operations, legacy: legacy)
        return (document, try document.encodedDocument())
    }
}
