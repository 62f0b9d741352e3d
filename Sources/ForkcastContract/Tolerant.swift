import ForkcastCore
import Foundation

/// An enumeration's value in an answer: one this build knows, or one a newer server added, kept as
/// its text. So an app already shipped keeps reading answers when the server gains a food source, an
/// icon or a photo format; the document still lists the values this build knows.
public enum Tolerant<Value>: Sendable, Hashable
where Value: RawRepresentable & CaseIterable & Sendable & Hashable, Value.RawValue == String {
    case known(Value)
    case unknown(String)

    public init(_ value: Value) { self = .known(value) }

    /// The value, when this build knows it.
    public var value: Value? {
        if case .known(let value) = self { value } else { nil }
    }

    /// The value as the API writes it.
    public var rawValue: String {
        switch self {
        case .known(let value): value.rawValue
        case .unknown(let text): text
        }
    }

    public static func == (lhs: Tolerant, rhs: Value) -> Bool { lhs.value == rhs }
    public static func != (lhs: Tolerant, rhs: Value) -> Bool { lhs.value != rhs }
}

extension Tolerant: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = Value(rawValue: text).map(Tolerant.known) ?? .unknown(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension Tolerant: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "string", "enum": .array(Value.allCases.map { .string($0.rawValue) })] }
    public static var schemaSample: Tolerant { .known(Value.allCases.first!) }
}
