import ForkcastCore
import Foundation

extension JSONValue {
    /// The JSON an Encodable value encodes to, with the API's date format: what
    /// `JSONEncoder.forkcastSorted` writes, read back as a ``JSONValue``, built directly (a synced
    /// record's answer is made for every pushed change; encoding it to text and parsing the text
    /// again was a third of a large push's time).
    init(encoding value: some Encodable) throws {
        let root = JSONValueNode()
        try root.store(value, codingPath: [])
        self = root.value
    }
}

/// One value being encoded: a scalar, an object's fields or an array's items, filled in by the
/// containers of ``JSONValueNodeEncoder``. Every fixed-size number has its own overload in each
/// container: the standard library's defaults would send it back to `encode<T>`, and round.
final class JSONValueNode {
    private var scalar: JSONValue?
    fileprivate var fields: [String: JSONValueNode]?
    fileprivate var items: [JSONValueNode]?

    var value: JSONValue {
        if let fields { return .object(fields.mapValues(\.value)) }
        if let items { return .array(items.map(\.value)) }
        // A value that encoded nothing is an empty object, as JSONEncoder writes it.
        return scalar ?? .object([:])
    }

    fileprivate func set(_ value: JSONValue) { scalar = value; fields = nil; items = nil }

    fileprivate func number(_ value: Double, codingPath: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        set(.number(value))
    }

    /// A Float as JSONEncoder writes it: the number its text shows (0.1, not 0.100000001).
    fileprivate func float(_ value: Float, codingPath: [any CodingKey]) throws {
        try number(value.isFinite ? Double(value.description) ?? .nan : Double(value), codingPath: codingPath)
    }

    /// The types JSONEncoder writes its own way (dates by the API's strategy, decimals and floats
    /// as the number they print as); everything else encodes itself.
    fileprivate func store<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: set(.string(date.formatted(.iso8601)))
        case let decimal as Decimal: try number(Double(decimal.description) ?? .nan, codingPath: codingPath)
        case let url as URL: set(.string(url.absoluteString))
        case let data as Data: set(.string(data.base64EncodedString()))
        default: try value.encode(to: JSONValueNodeEncoder(node: self, codingPath: codingPath))
        }
    }

    fileprivate func child(_ key: String) -> JSONValueNode {
        let node = JSONValueNode()
        if fields == nil { fields = [:] }
        fields![key] = node
        return node
    }

    fileprivate func appended() -> JSONValueNode {
        let node = JSONValueNode()
        if items == nil { items = [] }
        items!.append(node)
        return node
    }
}

private struct JSONValueNodeEncoder: Encoder {
    let node: JSONValueNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.fields == nil { node.fields = [:] }
        return KeyedEncodingContainer(Keyed(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.items == nil { node.items = [] }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: JSONValueNode
        let codingPath: [any CodingKey]

        func encodeNil(forKey key: Key) throws { node.child(key.stringValue).set(.null) }
        func encode(_ value: Bool, forKey key: Key) throws { node.child(key.stringValue).set(.bool(value)) }
        func encode(_ value: String, forKey key: Key) throws { node.child(key.stringValue).set(.string(value)) }
        func encode(_ value: Double, forKey key: Key) throws { try node.child(key.stringValue).number(value, codingPath: codingPath + [key]) }
        func encode(_ value: Int, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: Int8, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: Int16, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: Int32, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: Int64, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: UInt, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: UInt8, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: UInt16, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: UInt32, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: UInt64, forKey key: Key) throws { node.child(key.stringValue).set(.number(Double(value))) }
        func encode(_ value: Float, forKey key: Key) throws { try node.child(key.stringValue).float(value, codingPath: codingPath + [key]) }
        func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try node.child(key.stringValue).store(value, codingPath: codingPath + [key]) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            JSONValueNodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONValueNodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }
        func superEncoder() -> any Encoder { JSONValueNodeEncoder(node: node.child("super"), codingPath: codingPath) }
        func superEncoder(forKey key: Key) -> any Encoder { JSONValueNodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: JSONValueNode
        let codingPath: [any CodingKey]
        var count: Int { node.items?.count ?? 0 }

        func encodeNil() throws { node.appended().set(.null) }
        func encode(_ value: Bool) throws { node.appended().set(.bool(value)) }
        func encode(_ value: String) throws { node.appended().set(.string(value)) }
        func encode(_ value: Double) throws { try node.appended().number(value, codingPath: codingPath) }
        func encode(_ value: Int) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: Int8) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: Int16) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: Int32) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: Int64) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: UInt) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: UInt8) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: UInt16) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: UInt32) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: UInt64) throws { node.appended().set(.number(Double(value))) }
        func encode(_ value: Float) throws { try node.appended().float(value, codingPath: codingPath) }
        func encode<T: Encodable>(_ value: T) throws { try node.appended().store(value, codingPath: codingPath) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            JSONValueNodeEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
        }
        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            JSONValueNodeEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
        }
        func superEncoder() -> any Encoder { JSONValueNodeEncoder(node: node.appended(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: JSONValueNode
        let codingPath: [any CodingKey]

        func encodeNil() throws { node.set(.null) }
        func encode(_ value: Bool) throws { node.set(.bool(value)) }
        func encode(_ value: String) throws { node.set(.string(value)) }
        func encode(_ value: Double) throws { try node.number(value, codingPath: codingPath) }
        func encode(_ value: Int) throws { node.set(.number(Double(value))) }
        func encode(_ value: Int8) throws { node.set(.number(Double(value))) }
        func encode(_ value: Int16) throws { node.set(.number(Double(value))) }
        func encode(_ value: Int32) throws { node.set(.number(Double(value))) }
        func encode(_ value: Int64) throws { node.set(.number(Double(value))) }
        func encode(_ value: UInt) throws { node.set(.number(Double(value))) }
        func encode(_ value: UInt8) throws { node.set(.number(Double(value))) }
        func encode(_ value: UInt16) throws { node.set(.number(Double(value))) }
        func encode(_ value: UInt32) throws { node.set(.number(Double(value))) }
        func encode(_ value: UInt64) throws { node.set(.number(Double(value))) }
        func encode(_ value: Float) throws { try node.float(value, codingPath: codingPath) }
        func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
    }
}
