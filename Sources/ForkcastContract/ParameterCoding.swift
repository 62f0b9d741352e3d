import ForkcastCore
import Foundation

/// A path or query parameter that could not be read, with the message a person can act on.
public struct ParameterError: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String
    public var description: String { message }

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

/// Reads an operation's `Parameters` from the path's and query's text values (the server's side).
public enum ParameterDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from values: [String: [String]]) throws -> T {
        if T.self == Nothing.self { return Nothing() as! T }
        return try T(from: Reader(values: values))
    }

    /// One parameter's text read as `type` (a whole number, true/false, a UUID, a date, an instant
    /// or an enumeration), or a ``ParameterError`` saying what the parameter must be.
    public static func value<T: Decodable>(_ type: T.Type, _ raw: String, name: String) throws -> T {
        try Keyed<AnyKey>.read(type, raw, name: name)
    }

    struct Reader: Decoder {
        let values: [String: [String]]
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(values: values))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ParameterError(name: "", message: "parameters are named") }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ParameterError(name: "", message: "parameters are named") }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: [String]]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { values.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { values[key.stringValue]?.last != nil }
        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let name = key.stringValue
            if let boxed = T.self as? any PrimitiveBox.Type {
                guard let raw = values[name]?.last else { throw ParameterError(name: name, message: "\(name) is required.") }
                return try boxed.read(raw, name: name) as! T
            }
            if let repeated = T.self as? any RepeatedParameter.Type {
                return try repeated.read(values[name] ?? [], name: name) as! T
            }
            guard let raw = values[name]?.last else { throw ParameterError(name: name, message: "\(name) is required.") }
            return try Self.read(T.self, raw, name: name)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Box<Bool>.self, forKey: key).value }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(Box<String>.self, forKey: key).value }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Box<Double>.self, forKey: key).value }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(Box<Float>.self, forKey: key).value }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Box<Int>.self, forKey: key).value }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Box<Int8>.self, forKey: key).value }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(Box<Int16>.self, forKey: key).value }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(Box<Int32>.self, forKey: key).value }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(Box<Int64>.self, forKey: key).value }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Box<UInt>.self, forKey: key).value }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(Box<UInt8>.self, forKey: key).value }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(Box<UInt16>.self, forKey: key).value }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(Box<UInt32>.self, forKey: key).value }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(Box<UInt64>.self, forKey: key).value }

        static func read<T: Decodable>(_ type: T.Type, _ raw: String, name: String) throws -> T {
            let shown = raw.prefix(40)
            switch T.self {
            case is String.Type: return raw as! T
            case is Int.Type:
                guard let value = Int(raw) else { throw ParameterError(name: name, message: "\(name) must be a whole number; got \"\(shown)\".") }
                return value as! T
            case is Bool.Type:
                switch raw.lowercased() {
                case "true", "1": return true as! T
                case "false", "0": return false as! T
                default: throw ParameterError(name: name, message: "\(name) must be true or false; got \"\(shown)\".")
                }
            case is UUID.Type:
                guard let value = UUID(uuidString: raw) else { throw ParameterError(name: name, message: "\(name) must be a UUID; got \"\(shown)\".") }
                return value as! T
            case is CalendarDate.Type:
                guard let date = CalendarDate(input: raw) else {
                    throw ParameterError(name: name, message: "\(name) must be a date that exists, written YYYY-MM-DD, in the years \(CalendarDate.plausibleYears.lowerBound)–\(CalendarDate.plausibleYears.upperBound); got \"\(shown)\".")
                }
                return date as! T
            case is Date.Type:
                guard let instant = Instant.parse(raw) else {
                    throw ParameterError(name: name, message: "\(name) must be an instant in ISO 8601 with its offset; got \"\(shown)\".")
                }
                return instant as! T
            default:
                // An enumeration or another type read from one string.
                do { return try T(from: TextValue(text: raw)) } catch {
                    if let choices = T.self as? any SchemaLeaf.Type, case .array(let values)? = choices.leafSchema["enum"] {
                        let names = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
                        throw ParameterError(name: name, message: "\(name) must be one of: \(names.joined(separator: ", ")); got \"\(shown)\".")
                    }
                    throw ParameterError(name: name, message: "\(name) is not valid; got \"\(shown)\".")
                }
            }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw ParameterError(name: key.stringValue, message: "parameters are flat")
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw ParameterError(name: key.stringValue, message: "parameters are flat")
        }
        func superDecoder() throws -> any Decoder { Reader(values: values) }
        func superDecoder(forKey key: Key) throws -> any Decoder { Reader(values: values) }
    }

    /// One string, for a type that decodes itself from a single value.
    struct TextValue: Decoder, SingleValueDecodingContainer {
        let text: String
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw ParameterError(name: "", message: "a single value") }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ParameterError(name: "", message: "a single value") }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
        func decodeNil() -> Bool { false }
        func decode(_ type: String.Type) throws -> String { text }
        func decode(_ type: Bool.Type) throws -> Bool { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Double.Type) throws -> Double { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Float.Type) throws -> Float { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Int.Type) throws -> Int { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Int8.Type) throws -> Int8 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Int16.Type) throws -> Int16 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Int32.Type) throws -> Int32 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: Int64.Type) throws -> Int64 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: UInt.Type) throws -> UInt { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: UInt8.Type) throws -> UInt8 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: UInt16.Type) throws -> UInt16 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: UInt32.Type) throws -> UInt32 { throw ParameterError(name: "", message: "text expected") }
        func decode(_ type: UInt64.Type) throws -> UInt64 { throw ParameterError(name: "", message: "text expected") }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard T.self == String.self else { throw ParameterError(name: "", message: "text expected") }
            return text as! T
        }
    }
}

/// `?component=a&component=b`: a parameter that may be given more than once.
protocol RepeatedParameter {
    static func read(_ values: [String], name: String) throws -> Any
}

extension Array: RepeatedParameter where Element: Decodable {
    static func read(_ values: [String], name: String) throws -> Any {
        try values.map { try ParameterDecoder.Keyed<AnyKey>.read(Element.self, $0, name: name) }
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Writes an operation's `Parameters` as text values by name (the client's side): a path's
/// parameters fill its template, the rest become the query.
public enum ParameterEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> [(name: String, value: String)] {
        if T.self == Nothing.self { return [] }
        let writer = Writer()
        try value.encode(to: writer)
        return writer.box.pairs
    }

    final class Box { var pairs: [(name: String, value: String)] = [] }

    struct Writer: Encoder {
        let box = Box()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(Keyed<Key>(box: box)) }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("parameters are named") }
        func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("parameters are named") }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: String, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Float, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { box.pairs.append((key.stringValue, String(value))) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let many = value as? [any Encodable] {
                for item in many { box.pairs.append((key.stringValue, try Self.text(item))) }
            } else {
                box.pairs.append((key.stringValue, try Self.text(value)))
            }
        }

        static func text(_ value: any Encodable) throws -> String {
            switch value {
            case let text as String: return text
            case let number as Int: return String(number)
            case let flag as Bool: return flag ? "true" : "false"
            case let id as UUID: return id.uuidString.lowercased()
            case let date as CalendarDate: return date.iso
            case let instant as Date: return Instant.format(instant)
            default:
                let capture = TextCapture()
                try value.encode(to: capture)
                guard let text = capture.box.text else { throw ParameterError(name: "", message: "\(type(of: value)) is not written as text") }
                return text
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> { fatalError("parameters are flat") }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { fatalError("parameters are flat") }
        mutating func superEncoder() -> any Encoder { Writer() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Writer() }
    }

    final class TextBox { var text: String? }

    /// One value a type writes as a single string (an enumeration).
    struct TextCapture: Encoder, SingleValueEncodingContainer {
        let box = TextBox()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { fatalError("a single value") }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a single value") }
        func singleValueContainer() -> any SingleValueEncodingContainer { self }
        mutating func encodeNil() throws {}
        mutating func encode(_ value: String) throws { box.text = value }
        mutating func encode(_ value: Bool) throws { box.text = String(value) }
        mutating func encode(_ value: Double) throws { box.text = String(value) }
        mutating func encode(_ value: Float) throws { box.text = String(value) }
        mutating func encode(_ value: Int) throws { box.text = String(value) }
        mutating func encode(_ value: Int8) throws { box.text = String(value) }
        mutating func encode(_ value: Int16) throws { box.text = String(value) }
        mutating func encode(_ value: Int32) throws { box.text = String(value) }
        mutating func encode(_ value: Int64) throws { box.text = String(value) }
        mutating func encode(_ value: UInt) throws { box.text = String(value) }
        mutating func encode(_ value: UInt8) throws { box.text = String(value) }
        mutating func encode(_ value: UInt16) throws { box.text = String(value) }
        mutating func encode(_ value: UInt32) throws { box.text = String(value) }
        mutating func encode(_ value: UInt64) throws { box.text = String(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            guard let text = value as? String else { throw ParameterError(name: "", message: "text expected") }
            box.text = text
        }
    }
}

/// A primitive read through the generic path.
protocol PrimitiveBox { static func read(_ raw: String, name: String) throws -> Any }
struct Box<Value: Decodable>: Decodable, PrimitiveBox {
    var value: Value
    init(from decoder: any Decoder) throws { throw ParameterError(name: "", message: "never decoded") }
    init(value: Value) { self.value = value }
    static func read(_ raw: String, name: String) throws -> Any {
        Box(value: try ParameterDecoder.Keyed<AnyKey>.read(Value.self, raw, name: name))
    }
}
