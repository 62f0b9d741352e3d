import ForkcastCore
import Foundation

/// `/api/v1/meals`: the meal library.
public enum Meals {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The meal's id")]

    public enum List: APIOperation {
        public typealias Parameters = MealQuery
        public typealias Answer = Page<MealAnswer>
        public static let spec = OperationSpec(.get, "/api/v1/meals", "listMeals", tag: "meals",
            summary: "The meal library, filtered and paginated; meals planned in the window come last",
            success: Outcome(200, "A page of meals"),
            failures: [Outcome(400, "Bad query parameter (not a date, plannedTo before plannedFrom, page or per out of range)")] + Outcome.read,
            parameterNotes: PageQuery.notes.merging(PlannedWindow.notes) { $1 }.merging([
                "protein": FieldNote("Primary protein (case-insensitive)"), "carb": FieldNote("Primary carb (case-insensitive)"),
                "component": FieldNote("Other component; repeat for several, all must match"),
                "q": FieldNote("Text in description or any component"),
            ]) { $1 })
    }

    public enum Create: APIOperation {
        public typealias Body = MealInput
        public typealias Answer = MealAnswer
        public static let spec = OperationSpec(.post, "/api/v1/meals", "createMeal", tag: "meals",
            summary: "Add a meal to the library", success: Outcome(201, "Created"),
            failures: [Outcome(404, "A referenced food is not yours (or does not exist); the problem names the field")] + Outcome.writeJSON,
            headerParameters: [.idempotencyKey], answerHeaders: ["Location": "The new meal"])
    }

    public enum Facets: APIOperation {
        public typealias Answer = MealFacets
        public static let spec = OperationSpec(.get, "/api/v1/meals/facets", "mealFacets", tag: "meals",
            summary: "Distinct proteins, carbs and components (case-insensitive)", success: Outcome(200, "Facets"),
            failures: Outcome.read)
    }

    public enum Get: APIOperation {
        public typealias Parameters = MealParameters
        public typealias Answer = MealAnswer
        public static let spec = OperationSpec(.get, "/api/v1/meals/{id}", "getMeal", tag: "meals", summary: "One meal",
            success: Outcome(200, "The meal"),
            failures: [Outcome(400, "Bad plannedFrom or plannedTo (not a date, or plannedTo before plannedFrom), or servings out of range"),
                Outcome(404, "No such meal in your account")] + Outcome.read,
            parameterNotes: idNote.merging(PlannedWindow.notes) { $1 }.merging(MealParameters.servingsNote) { $1 })
    }

    public enum Update: APIOperation {
        public typealias Parameters = MealParameters
        public typealias Body = MealInput
        public typealias Answer = MealAnswer
        public static let spec = OperationSpec(.put, "/api/v1/meals/{id}", "updateMeal", tag: "meals",
            summary: "Replace a meal's fields", success: Outcome(200, "Updated (scaled like getMeal when servings is given)"),
            failures: [Outcome(404, "No such meal, or a referenced food is not yours")] + Outcome.writeJSON,
            parameterNotes: idNote.merging(PlannedWindow.notes) { $1 }.merging(MealParameters.servingsNote) { $1 })
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/meals/{id}", "deleteMeal", tag: "meals",
            summary: "Delete a meal and its assignments", success: Outcome.deleted,
            failures: [Outcome(404, "No such meal")] + Outcome.write, parameterNotes: idNote)
    }
}
