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
