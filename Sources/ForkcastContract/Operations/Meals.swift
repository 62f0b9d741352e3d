import ForkcastCore
import Foundation

/// `/api/v1/meals`: the meal library.
public enum Meals {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The meal's id")]

    public enum List: APIOperation {
        public typealias Parameters = MealQuery
        public typealias Answer = Page<MealAnswer>
        public static let id = "listMeals"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/meals"
        public static let summary = "The meal library, filtered and paginated; meals planned in the window come last"
        public static let tag = "meals"
        public static let success = Outcome(200, "A page of meals")
        public static let failures = [Outcome(400, "Bad query parameter (not a date, plannedTo before plannedFrom, page or per out of range)")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            PageQuery.notes.merging(PlannedWindow.notes) { $1 }.merging([
                "protein": FieldNote("Primary protein (case-insensitive)"), "carb": FieldNote("Primary carb (case-insensitive)"),
                "component": FieldNote("Other component; repeat for several, all must match"),
                "q": FieldNote("Text in description or any component"),
            ]) { $1 }
        }
    }

    public enum Create: APIOperation {
        public typealias Body = MealInput
        public typealias Answer = MealAnswer
        public static let id = "createMeal"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/meals"
        public static let summary = "Add a meal to the library"
        public static let tag = "meals"
        public static let success = Outcome(201, "Created")
        public static var headerParameters: [HeaderParameter] { [.idempotencyKey] }
        public static let answerHeaders = ["Location": "The new meal"]
        public static let failures = [Outcome(404, "A referenced food is not yours (or does not exist); the problem names the field")] + Outcome.writeJSON
    }

    public enum Facets: APIOperation {
        public typealias Answer = MealFacets
        public static let id = "mealFacets"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/meals/facets"
        public static let summary = "Distinct proteins, carbs and components (case-insensitive)"
        public static let tag = "meals"
        public static let success = Outcome(200, "Facets")
        public static let failures = Outcome.read
    }

    public enum Get: APIOperation {
        public typealias Parameters = MealParameters
        public typealias Answer = MealAnswer
        public static let id = "getMeal"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/meals/{id}"
        public static let summary = "One meal"
        public static let tag = "meals"
        public static let success = Outcome(200, "The meal")
        public static let failures = [Outcome(400, "Bad plannedFrom or plannedTo (not a date, or plannedTo before plannedFrom)"),
                                      Outcome(404, "No such meal in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote.merging(PlannedWindow.notes) { $1 } }
    }

    public enum Update: APIOperation {
        public typealias Parameters = MealParameters
        public typealias Body = MealInput
        public typealias Answer = MealAnswer
        public static let id = "updateMeal"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/meals/{id}"
        public static let summary = "Replace a meal's fields"
        public static let tag = "meals"
        public static let success = Outcome(200, "Updated")
        public static let failures = [Outcome(404, "No such meal, or a referenced food is not yours")] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote.merging(PlannedWindow.notes) { $1 } }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteMeal"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/meals/{id}"
        public static let summary = "Delete a meal and its assignments"
        public static let tag = "meals"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such meal")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}
