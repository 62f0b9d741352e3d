import ForkcastCore
import Foundation

/// Builds the OpenAPI 3.1 document of API v1 from the operations themselves (``APIv1/operations``):
/// paths, parameters, bodies and answers come from the Swift types, so the document cannot say
/// something the code does not do. Shared answers are components written once (one Problem, one
/// 503, one paging envelope).
public enum APIDocument {
    /// The shared problem answers, by name, for the statuses every operation of a kind has.
    static let sharedResponses: [(name: String, outcome: Outcome)] = [
        ("Malformed", .malformed), ("NotSignedIn", .notSignedIn), ("CSRFRefused", .csrf), ("TooLarge", .tooLarge),
        ("NotJSON", .notJSON), ("Invalid", .invalid), ("Unavailable", .unavailable),
    ]

    /// The document for `operations`.
    public static func build(_ operations: [any APIOperation.Type]) throws -> JSONValue {
        let book = SchemaBook()
        // Every error answer refers to it.
        _ = try book.answer(Problem.self)
        var paths: [String: JSONValue] = [:]
        for operation in operations {
            let key = operation.path.description
            var item = paths[key]?.objectFields ?? [:]
            item[operation.method.rawValue.lowercased()] = try describe(operation, book: book)
            paths[key] = .object(item)
        }
        var schemas: [String: JSONValue] = [:]
        for (name, schema) in book.components.merging(AccountSchemas.components, uniquingKeysWith: { $1 }) { schemas[name] = schema }
        var responses: [String: JSONValue] = [:]
        for (name, outcome) in sharedResponses { responses[name] = problemResponse(outcome) }
        let components: JSONValue = [
            "schemas": .object(schemas),
            "responses": .object(responses),
            "securitySchemes": [
                "bearer": ["type": "http", "scheme": "bearer", "description": .string("Token from \(Auth.Login.path) or \(Auth.Register.path)")],
                "session": ["type": "apiKey", "in": "cookie", "name": "forkcast-session", "description": "The web app's session"],
            ],
        ]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Forkcast API", "version": "1.0.0",
                "description": "Self-hosted meal planner and food diary. All JSON, camelCase keys, UUID ids, dates YYYY-MM-DD, instants ISO 8601 (RFC 3339). Optional fields may be sent as null, which means the same as leaving them out; unknown fields are ignored. Every error is an RFC 9457 problem details document (application/problem+json, the Problem schema).",
            ],
            "security": [["bearer": []], ["session": []]],
            "tags": .array(tags(of: operations)),
            "paths": .object(paths),
            "components": components,
        ]
    }

    /// What each group of operations is about, for readers of the document.
    static let tagDescriptions: [String: String] = [
        "auth": "Accounts, signing in and out, and how an account signs in",
        "meals": "The meal library", "plan": "The week planner", "foods": "Your foods, barcodes and Open Food Facts",
        "diary": "What was eaten, day by day", "body": "Weight, body profile, goals and the Apple Health import",
        "sync": "Keeping devices in step (docs/sync.md)",
        "meal-types": "Your meal types: the defaults and your own, their order, windows and names",
        "history": "Meal-first history: what was eaten under one meal type on one day (occasions)",
        "photos": "Photos of what was eaten: uploaded once, checked by content, private to you",
        "api keys": "Keys for other programs: read or write, in chosen areas, until they expire; made and revoked with a session only",
        "calendar": "The plan in a calendar app: secret iCalendar addresses, renewed or removed at once",
        "pantry": "What the household has: lots of its foods, where they are and when they go off",
        "account": "Your data: export, import", "system": "Health and this document",
    ]

    /// The tags in the order their operations first appear, each with what it is about.
    static func tags(of operations: [any APIOperation.Type]) -> [JSONValue] {
        var seen: [String] = []
        for operation in operations where !seen.contains(operation.tag) { seen.append(operation.tag) }
        return seen.map { tag in
            var entry: [String: JSONValue] = ["name": .string(tag)]
            if let description = tagDescriptions[tag] { entry["description"] = .string(description) }
            return .object(entry)
        }
    }

    static func describe(_ operation: any APIOperation.Type, book: SchemaBook) throws -> JSONValue {
        var fields: [String: JSONValue] = [
            "operationId": .string(operation.id),
            "summary": .string(operation.summary),
            "tags": [.string(operation.tag)],
        ]
        if !operation.signedIn { fields["security"] = [] }
        var parameters = try parameters(of: operation, book: book)
        for header in operation.headerParameters {
            parameters.append(["name": .string(header.name), "in": "header", "required": false,
                               "description": .string(header.description), "schema": header.schema])
        }
        if !parameters.isEmpty { fields["parameters"] = .array(parameters) }
        if let raw = operation.rawBody {
            fields["requestBody"] = ["required": true, "content": .object(raw.mapValues { ["schema": $0] })]
        } else if let body = try body(of: operation, book: book) {
            fields["requestBody"] = ["required": true, "content": ["application/json": ["schema": body]]]
        }
        var content: JSONValue?
        if let raw = operation.rawAnswer {
            for type in operation.rawAnswerTypes { _ = try book.answer(type) }
            content = .object(raw.mapValues { ["schema": $0] })
        } else if let answer = try answer(of: operation, book: book) {
            content = ["application/json": ["schema": answer]]
        }
        let headers: JSONValue? = operation.answerHeaders.isEmpty ? nil : .object(operation.answerHeaders.mapValues {
            ["description": .string($0), "required": true, "schema": ["type": "string"]]
        })
        var responses: [String: JSONValue] = [:]
        for outcome in [operation.success] + operation.otherAnswers {
            var answer: [String: JSONValue] = ["description": .string(outcome.reason)]
            // A 304 has no body; its headers are those of the answer it stands for.
            if outcome.status != 304 { answer["content"] = content }
            answer["headers"] = headers
            responses[String(outcome.status)] = .object(answer)
        }
        for outcome in operation.failures {
            if let shared = sharedResponses.first(where: { $0.outcome == outcome }) {
                responses[String(outcome.status)] = ["$ref": .string("#/components/responses/\(shared.name)")]
            } else {
                responses[String(outcome.status)] = problemResponse(outcome)
            }
        }
        fields["responses"] = .object(responses)
        return .object(fields)
    }

    static func problemResponse(_ outcome: Outcome) -> JSONValue {
        var response: [String: JSONValue] = [
            "description": .string(outcome.reason),
            "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
        ]
        var headers: [String: JSONValue] = outcome.headers.mapValues { ["description": .string($0), "schema": ["type": "string"]] }
        if outcome.status == 401 { headers["WWW-Authenticate"] = ["description": "Bearer", "schema": ["type": "string"]] }
        if !headers.isEmpty { response["headers"] = .object(headers) }
        return .object(response)
    }

    private static func parameters<Op: APIOperation>(of operation: Op.Type, book: SchemaBook) throws -> [JSONValue] {
        let inPath = Set(Op.path.parameterNames)
        let fields = try book.fields(of: Op.Parameters.self)
        let missing = inPath.subtracting(fields.map(\.name))
        guard missing.isEmpty else { throw SchemaError("\(Op.id): \(Op.Parameters.self) has no field for {\(missing.sorted().joined(separator: "}, {"))}") }
        return fields.map { field in
            let place = inPath.contains(field.name) ? "path" : "query"
            var schema = field.schema
            // A query parameter left out is the same as absent; the document says the type alone.
            if case .object(var object) = schema, case .array(let types)? = object["type"] {
                object["type"] = types.count == 2 ? types.first { $0 != "null" } : .array(types.filter { $0 != "null" })
                schema = .object(object)
            }
            if case .array(let choices)? = schema["anyOf"], choices.count == 2, let kept = choices.first(where: { $0 != ["type": "null"] }),
               choices.contains(["type": "null"]) {
                schema = kept
            }
            let note = Op.parameterNotes[field.name]
            if let note { schema = note.applied(to: schema) }
            var parameter: [String: JSONValue] = [
                "name": .string(field.name), "in": .string(place),
                "required": .bool(place == "path" || field.required || Op.requiredParameters.contains(field.name)), "schema": schema,
            ]
            if case .string(let description)? = schema["description"] {
                parameter["description"] = .string(description)
                if case .object(var object) = schema { object["description"] = nil; parameter["schema"] = .object(object) }
            }
            return .object(parameter)
        }
    }

    private static func body<Op: APIOperation>(of operation: Op.Type, book: SchemaBook) throws -> JSONValue? {
        Op.Body.self == Nothing.self ? nil : try book.input(Op.Body.self)
    }

    private static func answer<Op: APIOperation>(of operation: Op.Type, book: SchemaBook) throws -> JSONValue? {
        Op.Answer.self == Nothing.self ? nil : try book.answer(Op.Answer.self)
    }
}

extension JSONValue {
    /// Bytes for an answer: sorted keys, so the document is the same on every start.
    public func encodedDocument() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
