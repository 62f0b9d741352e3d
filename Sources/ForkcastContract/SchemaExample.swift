import ForkcastCore
import Foundation

extension APIDocument {
    /// A value that fits `schema`, for a reference page's examples and its "try it" form: the
    /// schema's own example or default where it has one, else the first choice of an enumeration,
    /// a sample of its format, or the smallest number it allows.
    public static func example(of schema: JSONValue, in document: JSONValue, depth: Int = 0) -> JSONValue {
        guard depth < 8, case .object(let fields) = schema else { return .null }
        if let example = fields["example"] { return example }
        if case .string(let ref)? = fields["$ref"] {
            let parts = ref.split(separator: "/").dropFirst().map(String.init)
            var target: JSONValue? = document
            for part in parts { target = target?[part] }
            return target.map { example(of: $0, in: document, depth: depth + 1) } ?? .null
        }
        if let defaultValue = fields["default"] { return defaultValue }
        if case .array(let choices)? = fields["enum"], let first = choices.first { return first }
        // An object with its own fields: every field, but those only another way of sending the
        // same thing needs (pounds when kilograms are given).
        if case .object(let properties)? = fields["properties"] {
            let alternatives = alternativeFields(schema)
            var object: [String: JSONValue] = [:]
            let preferred = firstChoiceProperties(schema)
            for (name, property) in properties where !alternatives.contains(name) {
                object[name] = example(of: preferred[name].map { merged(property, $0) } ?? property, in: document, depth: depth + 1)
            }
            return .object(object)
        }
        for combinator in ["anyOf", "oneOf", "allOf"] {
            if case .array(let options)? = fields[combinator],
               let option = options.first(where: { $0["type"] != "null" }) {
                var merged = option
                if combinator == "allOf", case .object(var own) = schema {
                    own[combinator] = nil
                    if own["properties"] != nil || own["type"] != nil { merged = .object(own) }
                }
                return example(of: merged, in: document, depth: depth + 1)
            }
        }
        let type: String? = switch fields["type"] {
        case .string(let type)?: type
        case .array(let types)?: types.compactMap(\.string).first { $0 != "null" }
        default: fields["properties"] != nil ? "object" : nil
        }
        switch type {
        case "object": return [:]
        case "array":
            guard let items = fields["items"] else { return [] }
            return [example(of: items, in: document, depth: depth + 1)]
        case "integer", "number":
            if case .number(let minimum)? = fields["minimum"] { return .number(max(minimum, 1)) }
            if case .number(let minimum)? = fields["exclusiveMinimum"] { return .number(minimum + 1) }
            return 1
        case "boolean": return true
        case "string":
            switch fields["format"]?.string {
            case "uuid": return "3f2b8c1e-5d4a-4b6f-9a7e-2c1d0e9f8a7b"
            case "date-time": return "2026-11-22T08:30:00+01:00"
            case "date": return "2026-11-21"
            case "email": return "ada@example.com"
            case "uri": return "https://example.com/"
            default: return "text"
            }
        default: return .null
        }
    }

    /// The fields that only a later choice of an `anyOf`/`oneOf` requires (within `allOf` too).
    static func alternativeFields(_ schema: JSONValue) -> Set<String> {
        func required(_ option: JSONValue) -> Set<String> {
            if case .array(let names)? = option["required"] { Set(names.compactMap(\.string)) } else { [] }
        }
        var result = Set<String>()
        for combinator in ["anyOf", "oneOf"] {
            if case .array(let options)? = schema[combinator], let first = options.first {
                for option in options.dropFirst() { result.formUnion(required(option).subtracting(required(first))) }
            }
        }
        if case .array(let members)? = schema["allOf"] {
            for member in members { result.formUnion(alternativeFields(member)) }
        }
        return result
    }

    /// What the first choice of each `anyOf`/`oneOf` says of the fields (its bounds), by field.
    static func firstChoiceProperties(_ schema: JSONValue) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for combinator in ["anyOf", "oneOf"] {
            if case .array(let options)? = schema[combinator], case .object(let properties)? = options.first?["properties"] {
                result.merge(properties) { $1 }
            }
        }
        if case .array(let members)? = schema["allOf"] {
            for member in members { result.merge(firstChoiceProperties(member)) { $1 } }
        }
        return result
    }

    /// `base` with the keywords of `over` on top (a `null` type in `over` is left out).
    static func merged(_ base: JSONValue, _ over: JSONValue) -> JSONValue {
        guard case .object(var fields) = base, case .object(let extra) = over, extra["type"] != "null" else { return base }
        for (key, value) in extra { fields[key] = value }
        return .object(fields)
    }
}
