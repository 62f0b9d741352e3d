import ForkcastCore
import Foundation

/// `/api/v1/plan`: the weekly planner.
public enum Plan {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The assignment's id")]
    static let scopeNotes: [String: FieldNote] = idNote.merging(["scope": FieldNote(
        "For an entry of a repeat: one (this day alone; removing it skips the day), following (this day and the later ones) or all (every day of the repeat)",
        default: .string(SeriesScope.one.rawValue))]) { $1 }

    public enum Get: APIOperation {
        public typealias Parameters = PlanQuery
        public typealias Answer = PlanAnswer
        public static let spec = OperationSpec(.get, "/api/v1/plan", "getPlan", tag: "plan",
            summary: "Days of the plan with their meals", success: Outcome(200, "The window"),
            failures: [Outcome(400, "Bad start date, or days outside 1 to \(WeekWindow.maximumLength)")] + Outcome.read,
            parameterNotes: ["start": FieldNote("First day (default today in the user's time zone)"),
                "days": FieldNote("Number of days", minimum: 1, maximum: Decimal(WeekWindow.maximumLength), default: .number(Double(WeekWindow.defaultLength)))])
    }

    public enum Assign: APIOperation {
        public typealias Body = AssignmentInput
        public typealias Answer = AssignmentAnswer
        public static let spec = OperationSpec(.post, "/api/v1/plan/assignments", "createAssignment", tag: "plan",
            summary: "Plan a meal on a day (a day holds any number of meals)", success: Outcome(201, "Planned"),
            failures: [Outcome(404, "No such meal")] + Outcome.writeJSON, headerParameters: [.idempotencyKey],
            answerHeaders: ["Location": "The new assignment"])
    }

    public enum GetAssignment: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = AssignmentAnswer
        public static let spec = OperationSpec(.get, "/api/v1/plan/assignments/{id}", "getAssignment", tag: "plan",
            summary: "One assignment", success: Outcome(200, "The assignment"),
            failures: [Outcome(404, "No such assignment")] + Outcome.read, parameterNotes: idNote)
    }

    public enum UpdateAssignment: APIOperation {
        public typealias Parameters = AssignmentScopeParameters
        public typealias Body = AssignmentInput
        public typealias Answer = AssignmentAnswer
        public static let spec = OperationSpec(.put, "/api/v1/plan/assignments/{id}", "updateAssignment", tag: "plan",
            summary: "Change a planned meal: its day, slot, meal or portions (the planner's stepper); for a repeat, this day, the following or all (each moves by as many days as this one)",
            success: Outcome(200, "Changed"), failures: [Outcome(404, "No such assignment or meal")] + Outcome.writeJSON,
            parameterNotes: scopeNotes)
    }

    public enum AssignMany: APIOperation {
        public typealias Body = AssignmentsInput
        public typealias Answer = [AssignmentAnswer]
        public static let spec = OperationSpec(.post, "/api/v1/plan/assignments/batch", "createAssignments", tag: "plan",
            summary: "Plan several meals at once, all or nothing (accepting suggestions)", success: Outcome(201, "Planned"),
            failures: [Outcome(404, "A meal is not yours; the problem names it")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey])
    }

    public enum Suggest: APIOperation {
        public typealias Body = SuggestionsInput
        public typealias Answer = SuggestionsAnswer
        public static let spec = OperationSpec(.post, "/api/v1/plan/suggestions", "suggestPlan", tag: "plan",
            summary: "Fill my week: meals from your library for the empty slots, closest to your goals (nothing is saved)",
            success: Outcome(200, "Suggestions, by day and slot"), failures: Outcome.writeJSON)
    }

    public enum Unassign: APIOperation {
        public typealias Parameters = AssignmentScopeParameters
        public static let spec = OperationSpec(.delete, "/api/v1/plan/assignments/{id}", "deleteAssignment", tag: "plan",
            summary: "Remove a meal from a day; for a repeat, skip this day, or remove the following or all days", success: Outcome(204, "Removed"),
            failures: [Outcome(400, "A scope other than one, following or all"), Outcome(404, "No such assignment")] + Outcome.write, parameterNotes: scopeNotes)
    }
}
