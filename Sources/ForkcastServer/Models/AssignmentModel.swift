import Fluent
import ForkcastCore
import Foundation

/// A meal planned on a calendar day. The day is stored as `YYYY-MM-DD` text, which sorts by date.
final class AssignmentModel: Model, @unchecked Sendable {
    static let schema = "assignments"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Parent(key: "meal_id") var meal: MealModel
    @Field(key: "date") var date: String
    @Timestamp(key: "created_at", on: .none) var createdAt: Date?
    @OptionalField(key: "meal_type") var mealType: String?
    @OptionalField(key: "servings") var servings: Int?
    /// Who eats it, as JSON (`[{"userId", "portions"}]`); nil: everyone in the household (M024).
    @OptionalField(key: "eaters") var eaters: String?
    /// The repeat it is one day of (M030); nil when it stands alone.
    @OptionalField(key: "series_id") var seriesID: UUID?
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $meal, $date, $createdAt, $mealType, $servings, $eaters, $seriesID] }

    init() {}

    init(id: UUID, ownerID: UUID, mealID: UUID, date: CalendarDate, createdAt: Date, mealType: String? = nil, servings: Int? = nil,
         eaters: [Eater]? = nil, seriesID: UUID? = nil) {
        self.seriesID = seriesID
        self.eaters = eaters.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        self.mealType = mealType
        self.servings = servings
        self.id = id
        self.ownerID = ownerID
        self.$meal.id = mealID
        self.date = date.iso
        self.createdAt = createdAt
    }

    var domain: Assignment {
        Assignment(id: id!, mealId: $meal.id, date: CalendarDate(stored: date), createdAt: createdAt ?? Date(timeIntervalSince1970: 0), mealType: mealType, servings: servings,
                   eaters: eaters.flatMap { try? JSONDecoder().decode([Eater].self, from: Data($0.utf8)) }, seriesId: seriesID)
    }
}
