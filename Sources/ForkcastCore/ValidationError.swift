/// A rejected input, with a message per field that a person can act on.
public struct ValidationError: Error, Equatable, Sendable {
    public struct Field: Hashable, Sendable, Codable {
        public let field: String
        public let message: String
        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    public var fields: [Field]

    public init(_ fields: [Field]) { self.fields = fields }
    public init(field: String, _ message: String) { self.fields = [Field(field: field, message: message)] }

    public func message(for field: String) -> String? {
        fields.first { $0.field == field }?.message
    }

    /// One sentence naming every problem.
    public var summary: String {
        fields.map(\.message).joined(separator: " ")
    }
}

extension ValidationError {
    /// The same problems, their fields named inside a larger document (`foods[3].` + `name`).
    public func prefixed(_ prefix: String) -> ValidationError {
        ValidationError(fields.map { Field(field: prefix + $0.field, message: $0.message) })
    }
}
