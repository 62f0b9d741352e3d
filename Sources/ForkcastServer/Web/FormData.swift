import Foundation
import Vapor

/// An `application/x-www-form-urlencoded` body as name → values, keeping repeated names.
struct FormData {
    private var values: [String: [String]] = [:]

    init(_ request: Request) {
        guard let buffer = request.body.data else { return }
        let body = String(buffer: buffer).replacingOccurrences(of: "+", with: "%20")
        var components = URLComponents()
        components.percentEncodedQuery = body
        for item in components.queryItems ?? [] {
            values[item.name, default: []].append(item.value ?? "")
        }
    }

    subscript(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}
