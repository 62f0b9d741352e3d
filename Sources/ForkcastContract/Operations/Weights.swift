import ForkcastCore
import Foundation

// MARK: Types

/// A weighing, as the API answers it (ForkcastCore's ``WeightEntry``).
extension WeightEntry: SchemaDocumented {
    public static let schemaName = "Weight"
    public static var fieldNotes: [String: FieldNote] {
        ["source": FieldNote("Where it came from: manual, profile, health, or a synced device's source", example: "manual"),
         "weightKg": FieldNote(example: 72.4)]
    }
}

/// `POST /api/v1/weights`: a weight in kg, or in pounds when weightKg is absent.
public struct WeightInput: Codable, Sendable, Hashable, SchemaDocumented {
    /// When it was measured; now when absent.
    public var measuredAt: Date?
    public var weightKg: Decimal?
    public var weightLb: Decimal?

    public init(measuredAt: Date? = nil, weightKg: Decimal? = nil, weightLb: Decimal? = nil) {
        self.measuredAt = measuredAt
        self.weightKg = weightKg
        self.weightLb = weightLb
    }

    public static let schemaName = "WeightInput"
    public static var schemaDescription: String? {
        "A weight in kg, or in pounds when weightKg is absent (\(Plausible.bodyWeightKg.lower) to \(Plausible.bodyWeightKg.upper) kg either way)."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["measuredAt": FieldNote("Default now"),
         "weightKg": FieldNote(range: Plausible.bodyWeightKg).with(example: 72.4)]
    }
    /// One of the two is required; pounds count (and are checked) only without kilograms.
    public static var schemaExtras: [String: JSONValue] {
        let pounds = FieldNote(range: Plausible.bodyWeightKg, dividedBy: BodyUnits.kilogramsPerPound).applied(to: ["type": "number"])
        return ["anyOf": [["required": ["weightKg"], "properties": ["weightKg": ["type": "number"]]],
                          ["required": ["weightLb"], "properties": ["weightKg": ["type": "null"], "weightLb": pounds]]]]
    }
}

// MARK: Operations

/// `/api/v1/weights`: a person's weighings.
public enum Weights {
    public enum List: APIOperation {
        public typealias Parameters = PageQuery
        public typealias Answer = Page<WeightEntry>
        public static let spec = OperationSpec(.get, "/api/v1/weights", "listWeights", tag: "body",
            summary: "Weight entries, newest first, a page at a time", success: Outcome(200, "Weights"),
            failures: [Outcome(400, "page or per out of range")] + Outcome.read, parameterNotes: PageQuery.notes)
    }

    public enum Record: APIOperation {
        public typealias Body = WeightInput
        public typealias Answer = WeightEntry
        public static let spec = OperationSpec(.post, "/api/v1/weights", "addWeight", tag: "body", summary: "Record a weight",
            success: Outcome(201, "Recorded"), failures: [Outcome(409, "A weight at that instant exists")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey])
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/weights/{id}", "deleteWeight", tag: "body",
            summary: "Delete a weight entry", success: Outcome.deleted, failures: [Outcome(404, "No such entry")] + Outcome.write,
            parameterNotes: ["id": FieldNote("The weight entry's id")])
    }
}
