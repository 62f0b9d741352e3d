import ForkcastContract
import ForkcastCore
import Foundation

/// The OpenAPI 3.1 description of `/api/v1`, built once from ForkcastContract's operations
/// (``APIv1/operations``): nothing of it is written by hand.
enum OpenAPIDocument {
    /// The document's bytes, as `/api/v1/openapi.json` answers them.
    static func data() throws -> Data { try built.get().data }

    /// The document itself (the API reference page renders it).
    static func value() throws -> JSONValue { try built.get().value }

    private static let built: Result<(value: JSONValue, data: Data), any Error> = Result {
        let document = try APIDocument.build(APIv1.operations)
        return (document, try document.encodedDocument())
    }
}
