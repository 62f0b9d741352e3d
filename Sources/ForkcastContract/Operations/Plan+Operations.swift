import ForkcastCore
import Foundation

/// `/api/v1/plan`: the weekly planner.
public enum Plan {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The assignment's id")]

    public enum Get: APIOperation {
        public typealias Parameters = PlanQuery
        public typealias Answer = PlanAnswer
        public static let id = "getPlan"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/plan"
        public static let summary = "Days of the plan with their meals"
        public static let tag = "plan"
        public static let success = Outcome(200, "The window")
        public static let failures = [Outcome(400, "Bad start date, or days outside 1 to \(WeekWindow.maximumLength)")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            ["start": FieldNote("First day (default today in the user's time zone)"),
             "days": FieldNote("Number of days", minimum: 1, maximum: Decimal(WeekWindow.maximumLength), default: .number(Double(WeekWindow.defaultLength)))]
        }
    }

    public enum Assign: APIOperation {
        public typealias Body = AssignmentInput
        public typealias Answer = AssignmentAnswer
        public static let id = "createAssignment"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/plan/assignments"
        public static let summary = "Plan a meal on a day (a day holds any number of meals)"
        public static let tag = "plan"
        public static let success = Outcome(201, "Planned")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let answerHeaders = ["Location": "The new assignment"]
        public static let failures = [Outcome(404, "No such meal")] + Outcome.writeJSON
    }

    public enum GetAssignment: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = AssignmentAnswer
        public static let id = "getAssignment"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/plan/assignments/{id}"
        public static let summary = "One assignment"
        public static let tag = "plan"
        public static let success = Outcome(200, "The assignment")
        public static let failures = [Outcome(404, "No such assignment")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum UpdateAssignment: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = AssignmentInput
        public typealias Answer = AssignmentAnswer
        public static let id = "updateAssignment"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/plan/assignments/{id}"
        public static let summary = "Change a planned meal: its day, slot, meal or portions (the planner's stepper)"
        public static let tag = "plan"
        public static let success = Outcome(200, "Changed")
        public static let failures = [Outcome(404, "No such assignment or meal")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum AssignMany: APIOperation {
        public typealias Body = AssignmentsInput
        public typealias Answer = [AssignmentAnswer]
        public static let id = "createAssignments"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/plan/assignments/batch"
        public static let summary = "Plan several meals at once, all or nothing (accepting suggestions)"
        public static let tag = "plan"
        public static let success = Outcome(201, "Planned")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let failures = [Outcome(404, "A meal is not yours; the problem names it")] + Outcome.writeJSON
    }

    public enum Suggest: APIOperation {
        public typealias Body = SuggestionsInput
        public typealias Answer = SuggestionsAnswer
        public static let id = "suggestPlan"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/plan/suggestions"
        public static let summary = "Fill my week: meals from your library for the empty slots, closest to your goals (nothing is saved)"
        public static let tag = "plan"
        public static let success = Outcome(200, "Suggestions, by day and slot")
        public static let failures = Outcome.writeJSON
    }

    public enum Unassign: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteAssignment"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/plan/assignments/{id}"
        public static let summary = "Remove a meal from a day"
        public static let tag = "plan"
        public static let success = Outcome(204, "Removed")
        public static let failures = [Outcome(404, "No such assignment")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}
