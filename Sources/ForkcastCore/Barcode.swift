/// A product barcode (EAN-13, UPC-A, EAN-8), normalised so the UPC-A and EAN-13 forms of one
/// product are the same value: codes of 9 to 13 digits are left-padded with zeros to 13, a GTIN-14
/// with a leading zero loses it, EAN-8 stays 8 digits.
public struct Barcode: Hashable, Sendable, Codable, CustomStringConvertible {
    public let digits: String

    /// EAN-8 to GTIN-14. (A 6-digit UPC-E is a compressed UPC-A; padding it with zeros would name
    /// another product, so it is refused rather than guessed.)
    public static let digitCounts = 8...14
    /// The rule in words, for every message that states it.
    public static let rule = "a barcode is the 8 to 14 digits under the stripes"

    public init?(_ raw: String) {
        let text = raw.filter { !$0.isWhitespace && $0 != "-" }
        guard Self.digitCounts.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var code = text
        if code.count == 14 {
            guard code.hasPrefix("0") else { return nil }
            code.removeFirst()
        }
        if code.count <= 8 {
            code = String(repeating: "0", count: 8 - code.count) + code
        } else {
            code = String(repeating: "0", count: 13 - code.count) + code
        }
        digits = code
    }

    public var description: String { digits }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let code = Barcode(raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(raw.prefix(20))' is not a barcode: \(Barcode.rule)")
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(digits)
    }
}
