import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// Checks answers against the served OpenAPI document: the status must be documented for the
/// operation, and a JSON body must match the documented schema. Every request a test sends through
/// ``Client`` is checked, so the document cannot drift from the code that answers.
enum OpenAPIConformance {
    /// The document, read once from the server's bundled copy.
    nonisolated(unsafe) static let document: [String: Any] = {
        let data = try! OpenAPIDocument.data()
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }()

    nonisolated(unsafe) static let operations: [(regex: NSRegularExpression, template: String, methods: [String: Any])] = {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return paths.map { template, item in
            let segments = template.split(separator: "/").map { segment in
                segment.hasPrefix("{") ? "[^/]+" : NSRegularExpression.escapedPattern(for: String(segment))
            }
            let pattern = "^/" + segments.joined(separator: "/") + "$"
            return (try! NSRegularExpression(pattern: pattern), template, item)
        }.sorted { $0.template.contains("{") == $1.template.contains("{") ? $0.template < $1.template : !$0.template.contains("{") }
    }()

    /// The problems with one answer (empty when it conforms).
    static func problems(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        let bare = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        guard let operation = operations.first(where: {
            $0.regex.firstMatch(in: bare, range: NSRange(bare.startIndex..., in: bare)) != nil && $0.methods[method.lowercased()] != nil
        }) else {
            // A path or method the document does not have: only a 404/405 may answer it.
            return [404, 405].contains(status) ? [] : ["\(method) \(bare) is not in the OpenAPI document (answered \(status))"]
        }
        let op = operation.methods[method.lowercased()] as! [String: Any]
        let responses = op["responses"] as? [String: Any] ?? [:]
        guard var response = (responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["default"]) as? [String: Any] else {
            return ["\(method) \(operation.template): status \(status) is not documented (documented: \(responses.keys.sorted()))"]
        }
        if let ref = response["$ref"] as? String {
            let name = ref.replacingOccurrences(of: "#/components/responses/", with: "")
            guard let shared = ((document["components"] as? [String: Any])?["responses"] as? [String: Any])?[name] as? [String: Any] else {
                return ["\(method) \(operation.template) \(status): unknown response \(ref)"]
            }
            response = shared
        }
        guard !body.isEmpty, let contentType, contentType.contains("json") else { return [] }
        let media = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? contentType
        guard let content = response["content"] as? [String: Any] else {
            return ["\(method) \(operation.template) \(status): a body was sent but none is documented"]
        }
        guard let entry = content[media] as? [String: Any] else {
            return ["\(method) \(operation.template) \(status): content type \(media) is not documented (\(content.keys.sorted()))"]
        }
        guard let schema = entry["schema"] else { return [] }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            return ["\(method) \(operation.template) \(status): the body is not JSON"]
        }
        return validate(value, against: schema, at: "body").map { "\(method) \(operation.template) \(status): \($0)" }
    }

    /// A small JSON Schema (2020-12 subset the document uses) validator.
    static func validate(_ value: JSONValue, against schemaValue: Any, at path: String) -> [String] {
        guard var schema = schemaValue as? [String: Any] else { return [] }
        if let ref = schema["$ref"] as? String {
            let name = ref.replacingOccurrences(of: "#/components/schemas/", with: "")
            guard let target = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] else {
                return ["\(path): unknown schema \(ref)"]
            }
            schema = target as? [String: Any] ?? [:]
        }
        var problems: [String] = []
        if let all = schema["allOf"] as? [Any] { for s in all { problems += validate(value, against: s, at: path) } }
        if let any = schema["anyOf"] as? [Any], !any.contains(where: { validate(value, against: $0, at: path).isEmpty }) {
            problems.append("\(path): matches none of anyOf")
        }
        if let one = schema["oneOf"] as? [Any], one.filter({ validate(value, against: $0, at: path).isEmpty }).count != 1 {
            problems.append("\(path): does not match exactly one of oneOf")
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [types as? String].compactMap { $0 }
            if !allowed.contains(where: { isType(value, $0) }) {
                return problems + ["\(path): \(value) is not \(allowed.joined(separator: "|"))"]
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { equal($0, value) }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if case .string(let text) = value, let pattern = schema["pattern"] as? String,
           let regex = try? NSRegularExpression(pattern: pattern),
           regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
            problems.append("\(path): \"\(text.prefix(60))\" does not match \(pattern)")
        }
        problems += bounds(value, schema, at: path)
        if case .object(let object) = value {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): \(key) is required")
            }
            for (key, item) in object {
                if let propertySchema = properties[key] {
                    problems += validate(item, against: propertySchema, at: "\(path).\(key)")
                } else if (schema["additionalProperties"] as? Bool) == false {
                    problems.append("\(path): \(key) is not documented")
                } else if let extra = schema["additionalProperties"] as? [String: Any] {
                    problems += validate(item, against: extra, at: "\(path).\(key)")
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] {
            for (index, item) in array.enumerated() { problems += validate(item, against: items, at: "\(path)[\(index)]") }
        }
        return problems
    }

    /// Formats, numeric bounds, lengths and item counts: every constraint the document states.
    static func bounds(_ value: JSONValue, _ schema: [String: Any], at path: String) -> [String] {
        var problems: [String] = []
        func number(_ key: String) -> Double? { (schema[key] as? NSNumber)?.doubleValue }
        switch value {
        case .number(let n):
            if let minimum = number("minimum"), n < minimum { problems.append("\(path): \(n) is below the minimum \(minimum)") }
            if let maximum = number("maximum"), n > maximum { problems.append("\(path): \(n) is above the maximum \(maximum)") }
            if let minimum = number("exclusiveMinimum"), n <= minimum { problems.append("\(path): \(n) is not above \(minimum)") }
            if let maximum = number("exclusiveMaximum"), n >= maximum { problems.append("\(path): \(n) is not below \(maximum)") }
        case .string(let text):
            let length = text.unicodeScalars.count
            if let minimum = number("minLength"), Double(length) < minimum { problems.append("\(path): \(length) characters, fewer than \(minimum)") }
            if let maximum = number("maxLength"), Double(length) > maximum { problems.append("\(path): \(length) characters, more than \(maximum)") }
            if let format = schema["format"] as? String, !conforms(text, format: format) {
                problems.append("\(path): \"\(text.prefix(60))\" is not a \(format)")
            }
        case .array(let items):
            if let minimum = number("minItems"), Double(items.count) < minimum { problems.append("\(path): \(items.count) items, fewer than \(minimum)") }
            if let maximum = number("maxItems"), Double(items.count) > maximum { problems.append("\(path): \(items.count) items, more than \(maximum)") }
        default: break
        }
        return problems
    }

    /// The formats the document uses, read as strictly as a client would.
    static func conforms(_ text: String, format: String) -> Bool {
        switch format {
        // RFC 3339's syntax (any year: a synced device's clock may say 1852).
        case "date-time": text.wholeMatch(of: /[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])/) != nil
        case "date": CalendarDate(iso: text) != nil
        case "uuid": UUID(uuidString: text) != nil
        case "uri": URL(string: text)?.scheme != nil
        case "uri-reference": URL(string: text) != nil
        case "email": text.contains("@")
        default: true
        }
    }

    static func isType(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): true
        case ("integer", .number(let n)): n.rounded() == n
        default: false
        }
    }

    static func equal(_ option: Any, _ value: JSONValue) -> Bool {
        switch value {
        case .null: option is NSNull
        case .string(let s): (option as? String) == s
        case .number(let n): (option as? NSNumber)?.doubleValue == n
        case .bool(let b): (option as? Bool) == b
        default: false
        }
    }

    /// Records a test issue for a non-conforming answer.
    static func check(method: HTTPMethod, path: String, response: TestingHTTPResponse) {
        let problems = problems(method: method.rawValue, path: path, status: Int(response.status.code),
                                contentType: response.headers.first(name: .contentType), body: Data(buffer: response.body))
        for problem in problems { Issue.record("OpenAPI: \(problem)") }
    }
}
