import Vapor

/// A piece of HTML. Interpolated `String`s are escaped; interpolated `HTML` is inserted as is, so
/// user text can only reach a page escaped.
struct HTML: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    let html: String

    init(raw: String) { html = raw }
    init(stringLiteral value: String) { html = value }
    init(stringInterpolation: StringInterpolation) { html = stringInterpolation.out }

    var description: String { html }

    static let empty = HTML(raw: "")

    struct StringInterpolation: StringInterpolationProtocol {
        var out = ""
        init(literalCapacity: Int, interpolationCount: Int) { out.reserveCapacity(literalCapacity + interpolationCount * 16) }
        mutating func appendLiteral(_ literal: String) { out += literal }
        mutating func appendInterpolation(_ text: String) { out += HTML.escape(text) }
        mutating func appendInterpolation(_ text: String?) { out += HTML.escape(text ?? "") }
        mutating func appendInterpolation(_ number: Int) { out += String(number) }
        mutating func appendInterpolation(_ html: HTML) { out += html.html }
        mutating func appendInterpolation(_ parts: [HTML]) { for part in parts { out += part.html } }
        mutating func appendInterpolation(_ html: HTML?) { out += html?.html ?? "" }
        /// `\(if: condition, "text")` inserts the HTML only when the condition holds.
        mutating func appendInterpolation(if condition: Bool, _ html: HTML) { if condition { out += html.html } }
    }

    /// Escapes text for an element body or a quoted attribute value.
    ///
    /// Works on UTF-8 bytes, not Characters: `"` followed by a combining mark is one Character that
    /// is not `"`, yet the browser still sees a quote. NUL becomes U+FFFD as browsers would.
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): bytes.append(contentsOf: "&#39;".utf8)
            case UInt8(ascii: "`"): bytes.append(contentsOf: "&#96;".utf8)
            case 0: bytes.append(contentsOf: "\u{FFFD}".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func response(status: HTTPResponseStatus = .ok) -> Response {
        let response = Response(status: status, body: .init(string: html))
        response.headers.contentType = .html
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}

extension Array where Element == HTML {
    func joined() -> HTML { HTML(raw: map(\.html).joined()) }
}
