@testable import ForkcastServer
import ForkcastCore
import Foundation
import PropertyBased
import Testing

/// A synced record's answer is built as a JSONValue directly; it must be the value the API's
/// encoder writes and a JSON reader reads back, for every kind of field an answer holds.
@Suite("A value encoded straight to a JSONValue")
struct JSONValueEncodingTests {
    enum Kind: String, Codable { case meal, food }

    struct Inner: Codable, Equatable {
        var name: String
        var amount: Decimal
        var unit: String?
    }

    struct Sample: Codable {
        var id: UUID
        var text: String
        var double: Double
        var decimal: Decimal
        var float: Float
        var small: Int8
        var large: UInt64
        var int: Int
        var flag: Bool
        var when: Date
        var kind: Kind
        var missing: String?
        var present: Double?
        var items: [Inner]
        var nested: [[Int?]]
        var byName: [String: Decimal]
        var link: URL
        var empty: [String]
    }

    static func roundTrip(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder.forkcastSorted.encode(value))
    }

    static let texts = Gen<String?>.element(of: ["", "Rice", "Crème fraîche", "שקשוקה", "e\u{301}", "\"<b>&'\\", "寿司🍲", "\u{FFFD}"]).map { $0! }

    @Test func itIsWhatTheEncoderWritesAndAReaderReadsBack() async throws {
        await propertyCheck(count: 300, input: Gen.double(in: -1e12...1e12), Gen.int(in: -1_000_000...1_000_000), Self.texts,
                            Gen.int(in: -2_208_988_800...7_258_118_400)) { double, int, text, seconds in
            let decimal = Decimal(string: String(format: "%.3f", double / 1000)) ?? 0
            let sample = Sample(id: UUID(), text: text, double: double, decimal: decimal, float: Float(double),
                                small: Int8(truncatingIfNeeded: int), large: UInt64(abs(int)) << 40, int: int, flag: int % 2 == 0,
                                when: Date(timeIntervalSince1970: TimeInterval(seconds)), kind: int % 2 == 0 ? .meal : .food,
                                missing: nil, present: int % 3 == 0 ? nil : double / 7,
                                items: [Inner(name: text, amount: decimal, unit: nil), Inner(name: "g", amount: Decimal(int), unit: "ml")],
                                nested: [[1, nil, int], []], byName: [text: decimal, "b": 0.1], link: URL(string: "https://example.com/p?q=\(int)")!,
                                empty: [])
            let direct = try? JSONValue(encoding: sample)
            #expect(direct != nil && direct == (try? Self.roundTrip(sample)))
        }
    }

    @Test func aDecimalKeepsTheNumberItPrintsAs() throws {
        for text in ["72.12", "0.1", "0.3", "1e-7", "123456789.123456789", "-0.05"] {
            let value = Decimal(string: text)!
            #expect(try JSONValue(encoding: ["v": value]) == Self.roundTrip(["v": value]), "\(text)")
        }
        #expect(try JSONValue(encoding: [Float(0.1)]) == .array([.number(0.1)]), "as JSONEncoder writes it")
    }

    @Test func whatJSONCannotHoldIsRefusedAsByTheEncoder() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: ["v": Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [Double.infinity]) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Float.infinity) }
    }
}
