import FluentKit
@testable import ForkcastServer
import ForkcastContract
import ForkcastCore
import Foundation
import PropertyBased
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

/// A browser: keeps cookies between requests and reads the CSRF token from pages.
struct Browser {
    let app: Application
    var cookies: [String: String] = [:]
    var headers: HTTPHeaders = [:]

    @discardableResult
    mutating func send(_ method: HTTPMethod, _ path: String, form: [String: String]? = nil) async throws -> TestingHTTPResponse {
        try await send(method, path, pairs: form.map { $0.map { ($0.key, $0.value) } })
    }

    /// A form whose fields may repeat (a plate's rows).
    @discardableResult
    mutating func send(_ method: HTTPMethod, _ path: String, pairs form: [(String, String)]?) async throws -> TestingHTTPResponse {
        var headers = self.headers
        if !cookies.isEmpty { headers.replaceOrAdd(name: .cookie, value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
        var body: ByteBuffer?
        if let form {
            var components = URLComponents()
            components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
            body = ByteBuffer(string: components.percentEncodedQuery!.replacingOccurrences(of: "+", with: "%2B"))
            headers.replaceOrAdd(name: .contentType, value: "application/x-www-form-urlencoded")
        }
        let response = try await app.testing().sendRequest(method, path, headers: headers, body: body)
        for (name, value) in response.headers.setCookie?.all ?? [:] {
            if value.expires.map({ $0 < Date() }) == true || value.string.isEmpty { cookies[name] = nil } else { cookies[name] = value.string }
        }
        return response
    }

    mutating func csrf(from path: String) async throws -> String {
        let page = try await send(.GET, path).body.string
        let marker = "name=\"csrf-token\" content=\""
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }

    mutating func signIn(_ email: String = "owner@example.com", password: String = "correct horse", next: String? = nil) async throws -> TestingHTTPResponse {
        let token = try await csrf(from: "/login")
        var form = ["_csrf": token, "email": email, "password": password]
        if let next { form["next"] = next }
        return try await send(.POST, "/login", form: form)
    }
}
