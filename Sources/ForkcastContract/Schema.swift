import ForkcastCore
import Foundation

/// What the document says about one field or parameter beyond its Swift type: a description,
/// bounds, a format or an example. A field without a note is still documented, from its type.
public struct FieldNote: Sendable, Hashable {
    public var description: String?
    public var minimum: Decimal?
    public var maximum: Decimal?
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: String?
    public var format: String?
    public var example: JSONValue?
    public var defaultValue: JSONValue?
    /// A whole schema in place of the one derived from the type (rarely needed).
    public var schema: JSONValue?

    public init(_ description: String? = nil, minimum: Decimal? = nil, maximum: Decimal? = nil, minLength: Int? = nil,
                maxLength: Int? = nil, pattern: String? = nil, format: String? = nil, example: JSONValue? = nil,
                default defaultValue: JSONValue? = nil, schema: JSONValue? = nil) {
        self.description = description
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
        self.example = example
        self.defaultValue = defaultValue
        self.schema = schema
    }

    /// A number's note from the range ForkcastCore accepts (in `scale` units per the range's unit).
    public init(_ description: String? = nil, range: PlausibleRange, dividedBy scale: Decimal = 1) {
        self.init(description, minimum: range.lower / scale, maximum: range.upper / scale)
        exclusiveMinimum = range.lowerExclusive
    }

    /// The same note with an example value.
    public func with(example: JSONValue) -> FieldNote {
        var note = self
        note.example = example
        return note
    }

    /// Text with something besides the white space the server trims (Foundation's
    /// `whitespacesAndNewlines`), spelt out so every regular expression engine reads it alike.
    public static let notBlank = "[^" + blankClass + "]"
    /// At least two characters besides the trimmed white space at either end.
    public static let twoNotBlank = "[^" + blankClass + "][\\s\\S]*[^" + blankClass + "]"
    static let blankClass = "\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"

    /// Whether ``minimum`` itself is refused.
    public var exclusiveMinimum = false

    /// The note applied to a derived schema (a `$ref` keeps only its description).
    func applied(to schema: JSONValue) -> JSONValue {
        guard case .object(var fields) = self.schema ?? schema else { return self.schema ?? schema }
        if fields["$ref"] != nil || fields["anyOf"] != nil {
            if let description { fields["description"] = .string(description) }
            return .object(fields)
        }
        if let description { fields["description"] = .string(description) }
        if let minimum { fields[exclusiveMinimum ? "exclusiveMinimum" : "minimum"] = .number(NSDecimalNumber(decimal: minimum).doubleValue) }
        if let maximum { fields["maximum"] = .number(NSDecimalNumber(decimal: maximum).doubleValue) }
        // On an array the lengths are its count of items.
        let isArray = fields["type"] == .string("array") || fields["type"] == .array([.string("array"), .string("null")])
        if let minLength { fields[isArray ? "minItems" : "minLength"] = .number(Double(minLength)) }
        if let maxLength { fields[isArray ? "maxItems" : "maxLength"] = .number(Double(maxLength)) }
        if let pattern { fields["pattern"] = .string(pattern) }
        if let format { fields["format"] = .string(format) }
        if let example { fields["example"] = example }
        if let defaultValue { fields["default"] = defaultValue }
        return .object(fields)
    }
}

/// A type the document describes as a named component, with notes on its fields.
public protocol SchemaDocumented {
    /// The component's name (`Weight`, `WeightPage`).
    static var schemaName: String { get }
    static var schemaDescription: String? { get }
    static var fieldNotes: [String: FieldNote] { get }
    /// Extra JSON Schema keywords the fields cannot say alone (an `anyOf` between two fields).
    static var schemaExtras: [String: JSONValue] { get }
    /// Whether the type writes every field, `null` included (then every field is required).
    static var writesNulls: Bool { get }
}

extension SchemaDocumented {
    public static var schemaDescription: String? { nil }
    public static var fieldNotes: [String: FieldNote] { [:] }
    public static var schemaExtras: [String: JSONValue] { [:] }
    public static var writesNulls: Bool { false }
}

/// A type the document writes inline from a fixed schema (a number, a date, an enumeration),
/// with a value to stand in for it while a containing type is being read.
public protocol SchemaLeaf {
    static var leafSchema: JSONValue { get }
    static var schemaSample: Self { get }
}

/// A leaf whose request form is stricter than its answer form (a date a person may send is in
/// the plausible years; one the server answers is simply a date).
public protocol SchemaInputLeaf: SchemaLeaf {
    static var inputLeafSchema: JSONValue { get }
}

extension SchemaLeaf where Self: CaseIterable & RawRepresentable, RawValue == String {
    public static var leafSchema: JSONValue { ["type": "string", "enum": .array(allCases.map { .string($0.rawValue) })] }
    public static var schemaSample: Self { allCases.first! }
}

extension String: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "string"] }
    public static var schemaSample: String { "" }
}
extension Int: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "integer"] }
    public static var schemaSample: Int { 0 }
}
extension Bool: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "boolean"] }
    public static var schemaSample: Bool { false }
}
extension Double: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "number"] }
    public static var schemaSample: Double { 0 }
}
/// Exact: written as a JSON number from its decimal digits, never through Double.
extension Decimal: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "number"] }
    public static var schemaSample: Decimal { 0 }
}
extension UUID: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "string", "format": "uuid"] }
    public static var schemaSample: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}
/// An instant: RFC 3339 with its offset.
extension Date: SchemaInputLeaf {
    public static var leafSchema: JSONValue { ["type": "string", "format": "date-time"] }
    public static var inputLeafSchema: JSONValue {
        ["type": "string", "format": "date-time", "pattern": .string(Self.yearPattern),
         "description": .string("An instant in ISO 8601 with its offset (e.g. 2026-11-22T08:30:00+01:00), in the years \(Instant.plausibleYears.lowerBound) to \(Instant.plausibleYears.upperBound)")]
    }
    public static var schemaSample: Date { Date(timeIntervalSince1970: 0) }
    /// The years Forkcast accepts (1900–2200), as the start of a pattern.
    static var yearPattern: String { "^(?:19[0-9]{2}|2[01][0-9]{2}|2200)-" }
}
extension CalendarDate: SchemaInputLeaf {
    public static var leafSchema: JSONValue { ["$ref": "#/components/schemas/Date"] }
    public static var inputLeafSchema: JSONValue { ["$ref": "#/components/schemas/DateInput"] }
    /// The `DateInput` component: a day a person may send.
    static var inputComponent: JSONValue {
        ["type": "string", "format": "date", "pattern": .string(Date.yearPattern + "(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$"),
         "example": "2026-11-21", "description": .string("A calendar day, YYYY-MM-DD, in the years \(CalendarDate.plausibleYears.lowerBound) to \(CalendarDate.plausibleYears.upperBound)")]
    }
    public static var schemaSample: CalendarDate { CalendarDate(year: 2026, month: 1, day: 1)! }
    /// The `Date` component every calendar day refers to.
    static var component: JSONValue {
        ["type": "string", "format": "date", "pattern": "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$",
         "example": "2026-11-21", "description": "A calendar day, YYYY-MM-DD"]
    }
}
extension JSONValue: SchemaLeaf {
    public static var leafSchema: JSONValue { [:] }
    public static var schemaSample: JSONValue { .null }
}
extension Nothing: SchemaLeaf {
    public static var leafSchema: JSONValue { ["type": "object"] }
    public static var schemaSample: Nothing { Nothing() }
}

