import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// The query string as name → values, with strict readers that answer 400 on bad values.
struct QueryParameters {
    private var values: [String: [String]] = [:]

    /// Every value of each name, in order.
    var all: [String: [String]] { values }

    init(_ request: Request) {
        for (name, value) in URLEncoded.pairs(request.url.query ?? "") { values[name, default: []].append(value) }
    }

    func string(_ name: String) -> String? { values[name]?.last }
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String) throws -> Int? { try value(Int.self, name) }

    /// true/false (also 1/0); anything else is a 400.
    func bool(_ name: String) throws -> Bool? { try value(Bool.self, name) }

    /// A date parameter; absent is nil, but present and empty (`?date=`) is a 400 like any bad date.
    func date(_ name: String) throws -> CalendarDate? { try value(CalendarDate.self, name) }

    /// A parameter read as ForkcastContract reads every operation's parameters (one message per kind).
    private func value<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        guard let raw = string(name) else { return nil }
        do { return try ParameterDecoder.value(type, raw, name: name) } catch let error as ParameterError {
            throw AppError.badRequest(error.message)
        }
    }

    func page() throws -> Paging { try Request.paging(page: try int("page"), per: try int("per")) }

    func mealFilter() -> MealFilter {
        MealFilter(protein: string("protein"), carb: string("carb"), components: strings("component"), text: string("q"))
    }
}

extension Request {
    var queryParameters: QueryParameters { QueryParameters(self) }

    /// The page a list asks for, checked (a 400 naming page or per).
    static func paging(page: Int?, per: Int?) throws -> Paging {
        do { return try Paging(page: page, per: per) } catch { throw AppError.badRequest(error.summary) }
    }

    /// A UUID path parameter; a malformed one is simply not found.
    func idParameter(_ name: String = "id", what: String) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(uuidString: raw) else {
            throw AppError.notFound("No \(what) with id \(parameters.get(name) ?? "") exists in your account.")
        }
        return id
    }
}

extension Request {
    /// Decodes a JSON body: 415 when it is not JSON, 400 when empty or malformed, 422 naming the field.
    func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard Self.isJSON(headers.first(name: .contentType)) || headers.contentType.map(Self.isJSON) == true else {
            throw Abort(.unsupportedMediaType)
        }
        guard let body = body.data, body.readableBytes > 0 else {
            throw AppError.badRequest("The body is empty; send a JSON object.")
        }
        return try JSONDecoder.forkcast.decodeNamingMisfits(T.self, from: Data(JSONNumbers.fitForDecimal(Array(body.readableBytesView))))
    }

    /// The usual `application/json` (with or without parameters), read without parsing the header
    /// into a media type as Vapor's `contentType` does (about 1 % of logging an entry).
    private static func isJSON(_ raw: String?) -> Bool {
        guard let raw else { return false }
        return raw == "application/json" || raw.hasPrefix("application/json;")
    }

    /// Any JSON media type: `application/json` or `application/…+json`.
    private static func isJSON(_ type: HTTPMediaType) -> Bool {
        type.type == "application" && (type.subType == "json" || type.subType.hasSuffix("+json"))
    }
}

/// Foundation decodes a JSON number into `Decimal` only within about 1e±127, and calls anything
/// else "not valid JSON" (`1e-300`, `1e308`). Before decoding, such numbers are brought into range:
/// a positive number too small to matter becomes 0, a negative one −1e-100 (still below zero, so a
/// field that may not be negative refuses it: read as 0 it was accepted, schemathesis found), and
/// one too large becomes ±1e100, which every plausible range then refuses with a message naming
/// the field.
extension JSONDecoder {
    /// Request bodies: instants read strictly (``Instant/parse(_:)``).
    static var forkcast: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Instant.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription:
                    "must be an instant in ISO 8601 with its offset, such as 2026-11-22T08:30:00+01:00 (year \(Instant.plausibleYears.lowerBound)–\(Instant.plausibleYears.upperBound)); got \"\(text.prefix(40))\".")
            }
            return date
        }
        return decoder
    }
}

enum JSONNumbers {
    static func fitForDecimal(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0, inString = false
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                // Foundation refuses the escape \u0000; NUL is never meaningful text, so it becomes U+FFFD.
                if b == UInt8(ascii: "\\"), i + 5 < bytes.count, bytes[i + 1] == UInt8(ascii: "u"),
                   bytes[(i + 2)...(i + 5)].elementsEqual("0000".utf8) {
                    out.append(contentsOf: Array("\\ufffd".utf8))
                    i += 6
                    continue
                }
                out.append(b)
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count { out.append(bytes[i + 1]); i += 2; continue }
                if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true; out.append(b); i += 1; continue }
            guard b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) else { out.append(b); i += 1; continue }
            var j = i
            while j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: ".")
                    || bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") || (bytes[j] >= UInt8(ascii: "0") && bytes[j] <= UInt8(ascii: "9")) {
                j += 1
            }
            let token = bytes[i..<j]
            if token.count > 24 || token.contains(UInt8(ascii: "e")) || token.contains(UInt8(ascii: "E")),
               let value = Double(String(decoding: token, as: UTF8.self)) {
                if value == 0 || (value > 0 && value < 1e-100) { out.append(contentsOf: Array("0".utf8)) }
                else if value < 0 && value > -1e-100 { out.append(contentsOf: Array("-1e-100".utf8)) }
                else if abs(value) > 1e100 { out.append(contentsOf: Array((value < 0 ? "-1e100" : "1e100").utf8)) }
                else { out.append(contentsOf: token) }
            } else {
                out.append(contentsOf: token)
            }
            i = j
        }
        return out
    }
}
