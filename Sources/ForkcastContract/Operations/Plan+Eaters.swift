import ForkcastCore
import Foundation

/// Who eats a planned meal and how many portions (``Eater``).
public struct EaterEntry: Codable, Sendable, Hashable, SchemaDocumented {
    public var userId: UUID
    public var portions: Decimal

    public init(userId: UUID, portions: Decimal) {
        self.userId = userId
        self.portions = portions
    }

    public init(_ eater: Eater) { self.init(userId: eater.userId, portions: eater.portions) }
    public var eater: Eater { Eater(userId: userId, portions: portions) }

    public static let schemaName = "Eater"
    public static var fieldNotes: [String: FieldNote] {
        ["userId": FieldNote("A member of the household"),
         "portions": FieldNote("The portions they eat; their Log puts these into their own diary",
                               range: PlausibleRange(0, Eater.maximumPortions, lowerExclusive: true))]
    }
}

extension Plan {
    public enum Eaten: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = EatenAnswer
        public static let spec = OperationSpec(.post, "/api/v1/plan/assignments/{id}/eaten", "logEatenAssignment", tag: "plan",
            summary: "\"We ate this\": log the planned meal into each eater's own diary (their portions, its day and slot) in one write; an eater who has that meal in their diary that day, in that slot, already is skipped",
            success: Outcome(200, "Logged (eaters skipped are not listed), the ingredients taken out of the pantry"), failures: [Outcome(404, "No such assignment"), Outcome(422, "The day cannot be logged")] + Outcome.write,
            parameterNotes: ["id": FieldNote("The plan entry's id")])
    }
}

/// Whose diaries "We ate this" logged a planned meal into, and how much each.
public struct EatenAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var assignmentId: UUID
    public var logged: [EaterEntry]
    /// What cooking took out of the pantry (empty when the entry was cooked already).
    public var pantry: [PantryTakenAnswer]

    public init(assignmentId: UUID, logged: [EaterEntry], pantry: [PantryTakenAnswer] = []) {
        self.assignmentId = assignmentId
        self.logged = logged
        self.pantry = pantry
    }

    public static let schemaName = "EatenAnswer"
    public static var fieldNotes: [String: FieldNote] {
        ["logged": FieldNote("Each eater logged now, with the portions put into their diary; empty when all had logged it"),
         "pantry": FieldNote("Each ingredient taken out of the pantry for the entry's portions, once per entry")]
    }
}
