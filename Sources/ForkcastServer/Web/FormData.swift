import ForkcastCore
import Foundation
import Vapor

/// `name=value&…` text (a form body or a query string) as name → values, keeping repeated names.
/// Read by hand: a stray `%`, `"` or `{` in what a person typed is taken as it is, never a reason
/// to fail (Foundation's URLComponents traps on such text).
enum URLEncoded {
    static func pairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                // Most names and values need no decoding: no Foundation call for them (this runs on
                // every request with a query).
                guard part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") || $0 == 0 }) else { return String(part) }
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                let decoded = spaced.removingPercentEncoding ?? spaced
                // Nobody types NUL. It is read as U+FFFD, as JSON's `\u0000` is, so a form stores
                // what the API would: SQLite would cut the text at it, PostgreSQL refuse it.
                return decoded.utf8.contains(0) ? decoded.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : decoded
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

/// An `application/x-www-form-urlencoded` body as name → values, keeping repeated names.
struct FormData {
    private var values: [String: [String]] = [:]

    init(_ request: Request) {
        guard let buffer = request.body.data else { return }
        for (name, value) in URLEncoded.pairs(String(buffer: buffer)) { values[name, default: []].append(value) }
    }

    subscript(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// A yes-or-no field that a page always sends (a hidden `true` or `false`); anything else is a
    /// ``ValidationError`` naming it, never read as a yes.
    func flag(_ name: String) throws -> Bool {
        switch self[name] {
        case "true": true
        case "false": false
        case let other: throw ValidationError(field: name, "Send true or false; got \(other.map { "\"\($0.prefix(40))\"" } ?? "nothing").")
        }
    }
}
