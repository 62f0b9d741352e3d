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

    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
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
