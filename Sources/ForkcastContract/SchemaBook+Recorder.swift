import ForkcastCore
import Foundation

/// The decoder that writes down what a type's `init(from:)` asks for.
final class Recorder: Decoder {
    struct Property {
        var name: String
        var schema: JSONValue
        var required: Bool
    }

    final class Object {
        var properties: [Property] = []
        var probed: Set<String> = []
        func record(_ name: String, _ schema: JSONValue, required: Bool) {
            if let index = properties.firstIndex(where: { $0.name == name }) {
                properties[index].required = properties[index].required || required
            } else {
                properties.append(Property(name: name, schema: required ? schema : SchemaBook.nullable(schema), required: required))
            }
        }
    }

    let book: SchemaBook
    let object = Object()
    /// Set when the type reads one value rather than an object.
    var single: JSONValue?
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(book: SchemaBook) { self.book = book }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(recorder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(recorder: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(recorder: self) }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        let object: Object
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        /// A key asked about first (`contains`, `decodeNil`) may be absent or null.
        func contains(_ key: Key) -> Bool {
            object.probed.insert(key.stringValue)
            return true
        }
        func decodeNil(forKey key: Key) throws -> Bool {
            object.probed.insert(key.stringValue)
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let (schema, sample) = try recorder.book.describe(T.self)
            object.record(key.stringValue, schema,
                          required: !(T.self is any SchemaOptionalMarker.Type) && !object.probed.contains(key.stringValue))
            return sample
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Leaf<Bool>.self, forKey: key).value }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(Leaf<String>.self, forKey: key).value }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Leaf<Double>.self, forKey: key).value }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(Leaf<Float>.self, forKey: key).value }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Leaf<Int>.self, forKey: key).value }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Leaf<Int8>.self, forKey: key).value }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(Leaf<Int16>.self, forKey: key).value }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(Leaf<Int32>.self, forKey: key).value }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(Leaf<Int64>.self, forKey: key).value }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Leaf<UInt>.self, forKey: key).value }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(Leaf<UInt8>.self, forKey: key).value }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(Leaf<UInt16>.self, forKey: key).value }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(Leaf<UInt32>.self, forKey: key).value }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(Leaf<UInt64>.self, forKey: key).value }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let (schema, sample) = try recorder.book.describe(T.self)
            object.record(key.stringValue, schema, required: false)
            return sample
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(Leaf<Bool>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(Leaf<String>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(Leaf<Double>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(Leaf<Float>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(Leaf<Int>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(Leaf<Int8>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(Leaf<Int16>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(Leaf<Int32>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(Leaf<Int64>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(Leaf<UInt>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(Leaf<UInt8>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(Leaf<UInt16>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(Leaf<UInt32>.self, forKey: key)?.value }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(Leaf<UInt64>.self, forKey: key)?.value }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw SchemaError("nested containers (\(key.stringValue)) are not read for the document; use a type")
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw SchemaError("nested containers (\(key.stringValue)) are not read for the document; use a type")
        }

        func superDecoder() throws -> any Decoder { recorder }
        func superDecoder(forKey key: Key) throws -> any Decoder { recorder }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 1 }
        var isAtEnd: Bool { currentIndex > 0 }
        var currentIndex = 0

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (schema, sample) = try recorder.book.describe(T.self)
            recorder.single = ["type": "array", "items": schema]
            currentIndex += 1
            return sample
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(Leaf<Bool>.self).value }
        mutating func decode(_ type: String.Type) throws -> String { try decode(Leaf<String>.self).value }
        mutating func decode(_ type: Double.Type) throws -> Double { try decode(Leaf<Double>.self).value }
        mutating func decode(_ type: Float.Type) throws -> Float { try decode(Leaf<Float>.self).value }
        mutating func decode(_ type: Int.Type) throws -> Int { try decode(Leaf<Int>.self).value }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(Leaf<Int8>.self).value }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(Leaf<Int16>.self).value }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(Leaf<Int32>.self).value }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(Leaf<Int64>.self).value }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(Leaf<UInt>.self).value }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(Leaf<UInt8>.self).value }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(Leaf<UInt16>.self).value }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(Leaf<UInt32>.self).value }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(Leaf<UInt64>.self).value }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw SchemaError("nested containers are not read for the document; use a type")
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw SchemaError("nested containers are not read for the document; use a type")
        }

        mutating func superDecoder() throws -> any Decoder { recorder }
    }

    struct Single: SingleValueDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (schema, sample) = try recorder.book.describe(T.self)
            recorder.single = schema
            return sample
        }
        func decode(_ type: Bool.Type) throws -> Bool { try decode(Leaf<Bool>.self).value }
        func decode(_ type: String.Type) throws -> String { try decode(Leaf<String>.self).value }
        func decode(_ type: Double.Type) throws -> Double { try decode(Leaf<Double>.self).value }
        func decode(_ type: Float.Type) throws -> Float { try decode(Leaf<Float>.self).value }
        func decode(_ type: Int.Type) throws -> Int { try decode(Leaf<Int>.self).value }
        func decode(_ type: Int8.Type) throws -> Int8 { try decode(Leaf<Int8>.self).value }
        func decode(_ type: Int16.Type) throws -> Int16 { try decode(Leaf<Int16>.self).value }
        func decode(_ type: Int32.Type) throws -> Int32 { try decode(Leaf<Int32>.self).value }
        func decode(_ type: Int64.Type) throws -> Int64 { try decode(Leaf<Int64>.self).value }
        func decode(_ type: UInt.Type) throws -> UInt { try decode(Leaf<UInt>.self).value }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(Leaf<UInt8>.self).value }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(Leaf<UInt16>.self).value }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(Leaf<UInt32>.self).value }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(Leaf<UInt64>.self).value }
    }
}

/// Optional, seen through a generic `decode`, is a field that may be left out.
protocol SchemaOptionalMarker {}
extension Optional: SchemaOptionalMarker {}

/// A primitive, read through the generic path as the leaf it is.
struct Leaf<Value: Decodable>: Decodable, SchemaLeaf {
    var value: Value
    init(from decoder: any Decoder) throws { throw SchemaError("a leaf is never decoded") }
    init(value: Value) { self.value = value }
    static var leafSchema: JSONValue {
        switch Value.self {
        case is String.Type: String.leafSchema
        case is Bool.Type: Bool.leafSchema
        case is Double.Type, is Float.Type: Double.leafSchema
        default: Int.leafSchema
        }
    }
    static var schemaSample: Leaf<Value> {
        let value: Any = switch Value.self {
        case is String.Type: ""
        case is Bool.Type: false
        case is Double.Type: 0.0
        case is Float.Type: Float(0)
        case is Int.Type: 0
        case is Int8.Type: Int8(0)
        case is Int16.Type: Int16(0)
        case is Int32.Type: Int32(0)
        case is Int64.Type: Int64(0)
        case is UInt.Type: UInt(0)
        case is UInt8.Type: UInt8(0)
        case is UInt16.Type: UInt16(0)
        case is UInt32.Type: UInt32(0)
        default: UInt64(0)
        }
        return Leaf(value: value as! Value)
    }
}
