import ForkcastContract
import ForkcastCore
import Foundation

/// `/api/docs`: the API reference, rendered from the served OpenAPI document (so it shows exactly
/// what `/api/v1/openapi.json` says): every operation with its parameters, body, answers and an
/// example, and a "try it" form that sends the request with the web session or a pasted token.
struct APIDocsPage {
    let document: JSONValue
    let signedIn: Bool

    struct Operation {
        var method: String
        var path: String
        var fields: [String: JSONValue]
        var id: String { fields["operationId"]?.string ?? "\(method)-\(path)" }
        var tag: String { if case .array(let tags)? = fields["tags"], let tag = tags.first?.string { tag } else { "other" } }
    }

    static let methods = ["get", "post", "put", "patch", "delete"]

    var operations: [Operation] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        return paths.flatMap { path, item -> [Operation] in
            guard case .object(let verbs) = item else { return [] }
            return verbs.compactMap { method, operation in
                guard Self.methods.contains(method), case .object(let fields) = operation else { return nil }
                return Operation(method: method, path: path, fields: fields)
            }
        }.sorted { ($0.tag, $0.path, Self.methods.firstIndex(of: $0.method) ?? 9) < ($1.tag, $1.path, Self.methods.firstIndex(of: $1.method) ?? 9) }
    }

    /// The page's content, for ``Layout/render(_:)``.
    var content: HTML {
        let operations = operations
        let tags = operations.map(\.tag).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let contents = tags.map { tag in
            HTML("""
            <li><a href="#tag-\(tag.replacingOccurrences(of: " ", with: "-"))">\(tag.capitalized)</a> <span class="muted">\(operations.filter { $0.tag == tag }.count)</span></li>
            """)
        }
        let sections = tags.map { tag in
            HTML("""
            <section class="api-tag" aria-labelledby="tag-\(tag.replacingOccurrences(of: " ", with: "-"))">
              <h2 id="tag-\(tag.replacingOccurrences(of: " ", with: "-"))">\(tag.capitalized)</h2>
              \(operations.filter { $0.tag == tag }.map(render))
            </section>
            """)
        }
        let schemas: [HTML] = {
            guard case .object(let components)? = document["components"]?["schemas"] else { return [] }
            return components.keys.sorted().map { name in
                HTML("""
                <details class="api-schema" id="schema-\(name)">
                  <summary>\(name)</summary>
                  \(describe(components[name] ?? .null))
                </details>
                """)
            }
        }()
        return HTML("""
        <section class="card api-docs">
          <h1>API reference</h1>
          <p>Forkcast's JSON API, version \(document["info"]?["version"]?.string ?? "1"). Every answer and error below comes from the
             <a href="\(APIv1.documentPath.description)">OpenAPI document</a> the server itself serves (\(operations.count) operations).
             Errors are RFC 9457 problems (<a href="#schema-Problem">Problem</a>), with one entry per field in <code>errors</code>.</p>
          <form class="api-auth" id="api-auth" autocomplete="off">
            <label for="api-token">Bearer token</label>
            <input id="api-token" name="token" type="password" spellcheck="false" placeholder="\(signedIn ? "Empty: uses your signed-in session" : "Paste a token from signing in (loginUser)")">
            <p class="muted">\(signedIn ? "“Try it” sends requests as you, with this browser's session, unless you paste a token." : "Sign in, or paste a token, to try operations that need an account.") The token stays on this page: it is not saved.</p>
          </form>
          <nav aria-label="Groups"><ul class="api-contents">\(contents)<li><a href="#schemas">Schemas</a></li></ul></nav>
        </section>
        \(sections)
        <section class="card api-schemas" aria-labelledby="schemas">
          <h2 id="schemas">Schemas</h2>
          \(schemas)
        </section>
        """)
    }

    private func render(_ operation: Operation) -> HTML {
        let parameters: [JSONValue] = if case .array(let list)? = operation.fields["parameters"] { list } else { [] }
        let bodyContent = operation.fields["requestBody"]?["content"]
        let bodyJSON = bodyContent?["application/json"]?["schema"]
        let bodyOther: String? = if case .object(let content)? = bodyContent, bodyJSON == nil { content.keys.sorted().joined(separator: ", ") } else { nil }
        let responses: [(String, JSONValue)] = if case .object(let all)? = operation.fields["responses"] {
            all.sorted { $0.key < $1.key }.map { ($0.key, resolve($0.value)) }
        } else { [] }
        let success = responses.first { $0.0.hasPrefix("2") }
        let answerSchema = success?.1["content"]?["application/json"]?["schema"]
        let open = operation.fields["security"] == .array([])
        let bodyExample = bodyJSON.map { pretty(APIDocument.example(of: $0, in: document)) }
        let parameterRows = parameters.map { parameter in
            HTML("""
            <tr><th scope="row"><code>\(parameter["name"]?.string ?? "")</code></th><td>\(parameter["in"]?.string ?? "")</td>
                <td>\(typeText(parameter["schema"] ?? .null))\(if: parameter["required"] == true, HTML(" <strong>required</strong>"))</td>
                <td>\(parameter["description"]?.string ?? "")\(constraints(parameter["schema"] ?? .null))</td></tr>
            """)
        }
        let answerRows = responses.map { status, response in
            let schema = response["content"]?["application/json"]?["schema"] ?? response["content"]?["application/problem+json"]?["schema"]
            let other: String? = if case .object(let content)? = response["content"], schema == nil { content.keys.sorted().joined(separator: ", ") } else { nil }
            return HTML("""
            <li><code class="status status-\(String(status.prefix(1)))">\(status)</code> \(response["description"]?.string ?? "")\(schema.map { HTML(" · ") + typeText($0) })\(other.map { HTML(" · <code>\($0)</code>") })</li>
            """)
        }
        let inputs = parameters.map { parameter in
            let name = parameter["name"]?.string ?? ""
            let example = parameter["in"] == "path" ? plain(APIDocument.example(of: parameter["schema"] ?? .null, in: document)) : ""
            return HTML("""
            <label>\(name) <span class="muted">(\(parameter["in"]?.string ?? ""))</span>
              <input name="\(name)" data-in="\(parameter["in"]?.string ?? "query")" value="\(example)" spellcheck="false"\(if: parameter["in"] == "path", HTML(" required"))></label>
            """)
        }
        let anchor = "op-\(operation.id)"
        return HTML("""
        <details class="card api-op" id="\(anchor)">
          <summary><span class="verb verb-\(operation.method)">\(operation.method.uppercased())</span> <code class="api-path">\(operation.path)</code>
            <span class="api-summary">\(operation.fields["summary"]?.string ?? "")</span></summary>
          \(operation.fields["description"]?.string.map { HTML("<p>\($0)</p>") })
          <p class="muted"><code>\(operation.id)</code> · \(open ? "open to anyone" : "needs a signed-in person (bearer token or the web session)")</p>
          \(if: !parameters.isEmpty, HTML("""
          <h3>Parameters</h3>
          <div class="table-scroll"><table class="api-table"><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">About</th></tr></thead>
          <tbody>\(parameterRows)</tbody></table></div>
          """))
          \(bodyJSON.map { schema in HTML("""
          <h3>Body <span class="muted">application/json</span></h3>
          \(describe(schema))
          <pre class="api-example"><code>\(bodyExample ?? "")</code></pre>
          """) })
          \(bodyOther.map { HTML("<h3>Body</h3><p><code>\($0)</code> (send the file as the request body)</p>") })
          <h3>Answers</h3>
          <ul class="api-answers">\(answerRows)</ul>
          \(answerSchema.map { schema in HTML("""
          <h3>Example answer <span class="muted">\(success?.0 ?? "")</span></h3>
          <pre class="api-example"><code>\(pretty(APIDocument.example(of: schema, in: document)))</code></pre>
          """) })
          <form class="api-try" data-method="\(operation.method.uppercased())" data-path="\(operation.path)" aria-label="Try \(operation.method.uppercased()) \(operation.path)">
            <h3>Try it</h3>
            \(inputs)
            \(if: bodyJSON != nil, HTML("""
            <label>Body <textarea name="body" rows="6" spellcheck="false">\(bodyExample ?? "")</textarea></label>
            """))
            \(if: bodyOther != nil, HTML("""
            <label>File <input name="file" type="file"></label>
            """))
            <button class="button" type="submit">Send \(operation.method.uppercased())</button>
            <output class="api-result" aria-live="polite"></output>
          </form>
        </details>
        """)
    }

    /// The schema a `$ref` to a shared response points at.
    private func resolve(_ value: JSONValue) -> JSONValue {
        guard case .string(let ref)? = value["$ref"] else { return value }
        var target: JSONValue? = document
        for part in ref.split(separator: "/").dropFirst() { target = target?[String(part)] }
        return target ?? value
    }

    /// An object's fields as a list (name, type, required, about); anything else as its type.
    private func describe(_ schema: JSONValue) -> HTML {
        let resolved = resolve(schema)
        guard case .object(let properties)? = resolved["properties"] else {
            return HTML("<p>\(typeText(schema))\(constraints(resolved))</p>")
        }
        let required: [String] = if case .array(let names)? = resolved["required"] { names.compactMap(\.string) } else { [] }
        let rows = properties.keys.sorted().map { name in
            let property = properties[name] ?? .null
            return HTML("""
            <tr><th scope="row"><code>\(name)</code></th><td>\(typeText(property))\(if: required.contains(name), HTML(" <strong>required</strong>"))</td>
                <td>\(property["description"]?.string ?? "")\(constraints(property))</td></tr>
            """)
        }
        let closed = resolved["additionalProperties"] == false
        return HTML("""
        \(resolved["description"]?.string.map { HTML("<p>\($0)</p>") })
        <div class="table-scroll"><table class="api-table"><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">About</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        \(if: closed, HTML("<p class=\"muted\">No other fields.</p>"))
        """)
    }

    private func typeText(_ schema: JSONValue) -> HTML {
        guard case .object(let fields) = schema else { return "any" }
        if case .string(let ref)? = fields["$ref"] {
            let name = String(ref.split(separator: "/").last ?? "")
            return ref.contains("/schemas/") ? HTML("<a href=\"#schema-\(name)\">\(name)</a>") : HTML("\(name)")
        }
        for combinator in ["anyOf", "oneOf"] {
            if case .array(let options)? = fields[combinator] {
                return options.map(typeText).joined(separator: " or ")
            }
        }
        if case .array(let choices)? = fields["enum"] {
            return HTML("one of \(choices.map { plain($0) }.joined(separator: ", "))")
        }
        let types: [String] = switch fields["type"] {
        case .string(let type)?: [type]
        case .array(let list)?: list.compactMap(\.string)
        default: []
        }
        return types.map { type -> HTML in
            switch type {
            case "array": HTML("array of ") + typeText(fields["items"] ?? .null)
            case "string": fields["format"]?.string.map { HTML("string (\($0))") } ?? "string"
            default: HTML("\(type)")
            }
        }.joined(separator: " or ")
    }

    private func constraints(_ schema: JSONValue) -> HTML {
        var parts: [String] = []
        if case .number(let n)? = schema["minimum"] { parts.append("≥ \(plain(.number(n)))") }
        if case .number(let n)? = schema["exclusiveMinimum"] { parts.append("> \(plain(.number(n)))") }
        if case .number(let n)? = schema["maximum"] { parts.append("≤ \(plain(.number(n)))") }
        if case .number(let n)? = schema["minLength"] { parts.append("at least \(Int(n)) characters") }
        if case .number(let n)? = schema["maxLength"] { parts.append("at most \(Int(n)) characters") }
        if case .number(let n)? = schema["maxItems"] { parts.append("at most \(Int(n)) items") }
        if let value = schema["default"] { parts.append("default \(plain(value))") }
        return parts.isEmpty ? .empty : HTML(" <span class=\"muted\">(\(parts.joined(separator: "; ")))</span>")
    }

    private func plain(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let n): n.rounded() == n && abs(n) < 1e15 ? String(Int(n)) : String(n)
        default: pretty(value)
        }
    }

    private func pretty(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension HTML {
    static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(raw: lhs.html + rhs.html) }
}

extension Array where Element == HTML {
    func joined(separator: String) -> HTML { HTML(raw: map(\.html).joined(separator: HTML.escape(separator))) }
}
