import ForkcastCore
import Foundation

/// Reading an export's text: a tag's attributes, XML's entities, and its units of weight and height.
extension AppleHealthImport {
    static func attributes(of tag: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        let text = String(decoding: tag, as: UTF8.self)
        var rest = Substring(text)
        while let eq = rest.firstIndex(of: "=") {
            let key = rest[..<eq].split(whereSeparator: { $0.isWhitespace }).last.map(String.init) ?? ""
            var after = rest[rest.index(after: eq)...].drop { $0.isWhitespace }
            guard let q = after.first, q == "\"" || q == "'" else { break }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: q) else { break }
            result[key] = decodeEntities(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return result
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func kilograms(_ value: Decimal, unit: String) -> Decimal? {
        switch unit {
        case "kg": value
        case "g": value / 1000
        case "lb": BodyUnits.kilograms(fromPounds: value)
        case "st": BodyUnits.kilograms(fromPounds: value * 14)
        case "oz": BodyUnits.kilograms(fromPounds: value / 16)
        default: nil
        }
    }

    static func centimetres(_ value: Decimal, unit: String) -> Decimal? {
        switch unit {
        case "cm": value
        case "m": value * 100
        case "mm": value / 10
        case "in": BodyUnits.centimetres(fromInches: value)
        case "ft": BodyUnits.centimetres(fromInches: value * 12)
        default: nil
        }
    }
}
