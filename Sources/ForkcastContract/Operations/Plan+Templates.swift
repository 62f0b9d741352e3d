import ForkcastCore
import Foundation

/// `POST /api/v1/plan/templates`: save weeks of the plan under a name.
public struct PlanTemplateInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var name: String
    /// The first day saved (its weekday is the template's first).
    public var start: CalendarDate
    public var weeks: Int?
    public init(name: String, start: CalendarDate, weeks: Int? = nil) {
        self.name = name
        self.start = start
        self.weeks = weeks
    }
    public static let schemaName = "PlanTemplateInput"
    public static var fieldNotes: [String: FieldNote] {
        ["name": FieldNote(minLength: PlanTemplate.nameLength.lowerBound, maxLength: PlanTemplate.nameLength.upperBound),
         "start": FieldNote("The first day saved: the plan of `weeks` × 7 days from it is kept"),
         "weeks": FieldNote("How many weeks it keeps (a 4-week rotation of dinners is 4)", minimum: Decimal(PlanTemplate.weeksRange.lowerBound),
                            maximum: Decimal(PlanTemplate.weeksRange.upperBound), default: .number(1))]
    }
}

/// One meal of a template: on its day from the template's first, in a slot, with portions and eaters.
public struct PlanTemplateEntryAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var day: Int
    public var mealId: UUID
    public var mealType: String?
    public var servings: Int?
    public var eaters: [EaterEntry]?
    public init(_ entry: PlanTemplate.Entry) {
        day = entry.day
        mealId = entry.mealId
        mealType = entry.mealType
        servings = entry.servings
        eaters = entry.eaters?.map(EaterEntry.init)
    }
    public static let schemaName = "PlanTemplateEntry"
    public static var fieldNotes: [String: FieldNote] {
        ["day": FieldNote("Days from the template's first day (0 = that day)", minimum: 0)]
    }
}

public struct PlanTemplateAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var name: String
    public var weeks: Int
    public var entries: [PlanTemplateEntryAnswer]
    public var createdAt: Date
    public init(_ template: PlanTemplate) {
        id = template.id
        name = template.name
        weeks = template.weeks
        entries = template.entries.map(PlanTemplateEntryAnswer.init)
        createdAt = template.createdAt
    }
    public static let schemaName = "PlanTemplate"
}

/// `POST /api/v1/plan/templates/{id}/apply`.
public struct ApplyTemplateInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var start: CalendarDate
    /// Templates that follow this one, in order: the rotation.
    public var then: [UUID]?
    public var cycles: Int?
    public init(start: CalendarDate, then: [UUID]? = nil, cycles: Int? = nil) {
        self.start = start
        self.then = then
        self.cycles = cycles
    }
    public static let schemaName = "ApplyTemplateInput"
    public static var fieldNotes: [String: FieldNote] {
        ["start": FieldNote("The day the template's first day lands on"),
         "then": FieldNote("Templates that follow this one, week after week (a rotation: A, then B, C and D)", maxLength: PlanTemplate.maximumRotation - 1),
         "cycles": FieldNote("How many times the whole rotation is put on, one after another", minimum: Decimal(PlanTemplate.cyclesRange.lowerBound),
                             maximum: Decimal(PlanTemplate.cyclesRange.upperBound), default: .number(1))]
    }
}

public struct ApplyTemplateAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var planned: [AssignmentAnswer]
    public var skipped: Int
    public init(planned: [AssignmentAnswer], skipped: Int) {
        self.planned = planned
        self.skipped = skipped
    }
    public static let schemaName = "ApplyTemplateAnswer"
    public static var fieldNotes: [String: FieldNote] {
        ["skipped": FieldNote("Entries left out: that meal was in that slot that day already (applying twice plans once), or the meal, slot or eater is gone", minimum: 0)]
    }
}

extension Plan {
    static let templateNote: [String: FieldNote] = ["id": FieldNote("The template's id")]

    public enum ListTemplates: APIOperation {
        public typealias Answer = [PlanTemplateAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/plan/templates", "listPlanTemplates", tag: "plan",
            summary: "The household's week templates, by name", success: Outcome(200, "The templates"), failures: Outcome.read)
    }

    public enum CreateTemplate: APIOperation {
        public typealias Body = PlanTemplateInput
        public typealias Answer = PlanTemplateAnswer
        public static let spec = OperationSpec(.post, "/api/v1/plan/templates", "createPlanTemplate", tag: "plan",
            summary: "Save weeks of the plan as a named template (each meal with its day, slot, portions and eaters)",
            success: Outcome(201, "Saved"), failures: Outcome.writeJSON)
    }

    public enum ApplyTemplate: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = ApplyTemplateInput
        public typealias Answer = ApplyTemplateAnswer
        public static let spec = OperationSpec(.post, "/api/v1/plan/templates/{id}/apply", "applyPlanTemplate", tag: "plan",
            summary: "Put a template — then each of `then`, a rotation, `cycles` times — on the plan from `start`, in one write; what is there already stays",
            success: Outcome(200, "The meals planned"), failures: [Outcome(404, "No such template")] + Outcome.writeJSON,
            parameterNotes: templateNote)
    }

    public enum DeleteTemplate: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/plan/templates/{id}", "deletePlanTemplate", tag: "plan",
            summary: "Delete a template (the plan it made stays)", success: Outcome(204, "Deleted"),
            failures: [Outcome(404, "No such template")] + Outcome.write, parameterNotes: templateNote)
    }
}
