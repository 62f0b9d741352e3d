import ForkcastCore
import Foundation

/// Derives JSON Schemas from Swift types by reading them: each type's own `init(from:)` runs against
/// a decoder that answers every question with a stand-in value and writes down what was asked (which
/// keys, which types, required or `IfPresent`). So a field added to a type is in the document without
/// another edit. Named types become components; leaves (``SchemaLeaf``) are written inline.
public final class SchemaBook {
    /// The components so far, by name. Those reached from an answer (and from no request) list
    /// the only fields they have.
    public var components: [String: JSONValue] {
        var result = recorded
        for name in closed.subtracting(opened) {
            guard case .object(var schema)? = result[name], schema["properties"] != nil else { continue }
            schema["additionalProperties"] = false
            result[name] = .object(schema)
        }
        return result
    }
    private var recorded: [String: JSONValue] = ["Date": CalendarDate.component, "DateInput": CalendarDate.inputComponent]
    /// Components reached from a request: unknown fields in them are ignored, so they stay open.
    private var opened: Set<String> = []
    private var samples: [ObjectIdentifier: Any] = [:]
    private var names: [ObjectIdentifier: String] = [:]
    /// Components reached from an answer: they name every field that exists (no others).
    private var closed: Set<String> = []
    private var answering = false

    public init() {}

    /// The schema of a request body or parameter type (fields beyond the known ones are ignored).
    public func input<T: Decodable>(_ type: T.Type) throws -> JSONValue {
        answering = false
        return try describe(type).schema
    }

    /// The schema of an answer: every object it reaches lists the only fields it has.
    public func answer<T: Decodable>(_ type: T.Type) throws -> JSONValue {
        answering = true
        defer { answering = false }
        return try describe(type).schema
    }

    /// The keys of a parameters type, in order, with their schemas and whether each is required.
    public func fields<T: Decodable>(of type: T.Type) throws -> [(name: String, schema: JSONValue, required: Bool)] {
        if T.self == Nothing.self { return [] }
        let recorder = Recorder(book: self)
        _ = try T(from: recorder)
        return recorder.object.properties.map { ($0.name, $0.schema, $0.required) }
    }

    func describe<T: Decodable>(_ type: T.Type) throws -> (schema: JSONValue, sample: T) {
        if !answering, let leaf = T.self as? any SchemaInputLeaf.Type {
            return (leaf.inputLeafSchema, leaf.schemaSample as! T)
        }
        if let leaf = T.self as? any SchemaLeaf.Type {
            return (leaf.leafSchema, leaf.schemaSample as! T)
        }
        if let composite = T.self as? any SchemaComposite.Type {
            let (schema, sample) = try composite.describeComposite(in: self)
            return (schema, sample as! T)
        }
        let key = ObjectIdentifier(T.self)
        let name = (T.self as? any SchemaDocumented.Type)?.schemaName ?? String(describing: T.self)
        if let sample = samples[key] as? T {
            mark(name)
            return (["$ref": .string("#/components/schemas/\(name)")], sample)
        }
        if let other = names.first(where: { $0.value == name && $0.key != key }) {
            throw SchemaError("two types are both named \(name) in the document (\(T.self), \(other.key))")
        }
        names[key] = name
        let recorder = Recorder(book: self)
        let sample: T
        do { sample = try T(from: recorder) } catch {
            throw SchemaError("\(T.self) could not be read for the document: \(error). Make it a SchemaLeaf, or give it stand-ins its init(from:) accepts.")
        }
        samples[key] = sample
        var schema: [String: JSONValue]
        if let single = recorder.single {
            schema = single.objectFields ?? ["allOf": [single]]
        } else {
            let object = recorder.object
            schema = ["type": "object", "properties": .object(Dictionary(object.properties.map { ($0.name, $0.schema) }, uniquingKeysWith: { $1 }))]
            let writesNulls = (T.self as? any SchemaDocumented.Type)?.writesNulls ?? false
            let required = object.properties.filter { $0.required || writesNulls }.map { JSONValue.string($0.name) }
            if !required.isEmpty { schema["required"] = .array(required) }
        }
        if let documented = T.self as? any SchemaDocumented.Type {
            if let description = documented.schemaDescription { schema["description"] = .string(description) }
            if case .object(var properties) = schema["properties"] {
                for (field, note) in documented.fieldNotes {
                    guard let derived = properties[field] else {
                        throw SchemaError("\(name).fieldNotes names \(field), which \(T.self) does not have")
                    }
                    properties[field] = note.applied(to: derived)
                }
                schema["properties"] = .object(properties)
            }
            for (keyword, value) in documented.schemaExtras { schema[keyword] = value }
        }
        recorded[name] = .object(schema)
        mark(name)
        return (["$ref": .string("#/components/schemas/\(name)")], sample)
    }

    /// Marks a component, and the components it refers to, as reached from an answer or a request.
    private func mark(_ name: String) {
        if answering { guard closed.insert(name).inserted else { return } } else { guard opened.insert(name).inserted else { return } }
        guard let schema = recorded[name] else { return }
        for ref in Self.references(in: schema) { mark(ref) }
    }

    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let fields):
            if case .string(let ref)? = fields["$ref"], ref.hasPrefix("#/components/schemas/") {
                return [String(ref.dropFirst("#/components/schemas/".count))]
            }
            return fields.values.flatMap(references(in:))
        case .array(let items): return items.flatMap(references(in:))
        default: return []
        }
    }

    /// A schema that may also be null.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var fields) = schema else { return schema }
        if fields["$ref"] == nil, fields["anyOf"] == nil, fields["allOf"] == nil, fields["enum"] == nil {
            switch fields["type"] {
            case .string(let type)?: fields["type"] = [.string(type), "null"]; return .object(fields)
            case .array(let types)? where !types.contains("null"): fields["type"] = .array(types + ["null"]); return .object(fields)
            case .array?: return schema
            default: break
            }
        }
        if fields.isEmpty { return schema }
        return ["anyOf": [schema, ["type": "null"]]]
    }
}

public struct SchemaError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension JSONValue {
    var objectFields: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }
}

/// Arrays, optionals and string-keyed dictionaries: described by what they hold.
protocol SchemaComposite {
    static func describeComposite(in book: SchemaBook) throws -> (JSONValue, Any)
}

extension Array: SchemaComposite where Element: Decodable {
    static func describeComposite(in book: SchemaBook) throws -> (JSONValue, Any) {
        let (items, sample) = try book.describe(Element.self)
        return (["type": "array", "items": items], [sample])
    }
}

extension Optional: SchemaComposite where Wrapped: Decodable {
    static func describeComposite(in book: SchemaBook) throws -> (JSONValue, Any) {
        let (schema, sample) = try book.describe(Wrapped.self)
        return (SchemaBook.nullable(schema), Optional(sample) as Any)
    }
}

extension Dictionary: SchemaComposite where Key == String, Value: Decodable {
    static func describeComposite(in book: SchemaBook) throws -> (JSONValue, Any) {
        let (values, _) = try book.describe(Value.self)
        return (["type": "object", "additionalProperties": values], [String: Value]())
    }
}

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
