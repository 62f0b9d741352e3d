import Fluent
import ForkcastCore
import Foundation

/// A person's meal type (seed 004 §5). System types carry their key; windows are local minutes.
final class MealTypeModel: Model, @unchecked Sendable {
    static let schema = "meal_types"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @OptionalField(key: "key") var key: String?
    @Field(key: "display_name") var displayName: String
    /// The name as compared for uniqueness (``MealType/nameKey(_:)``), unique per user.
    @Field(key: "name_key") var nameKey: String
    @OptionalField(key: "window_start") var windowStart: Int?
    @OptionalField(key: "window_end") var windowEnd: Int?
    @Field(key: "position") var position: Int
    @Field(key: "hidden") var hidden: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $key, $displayName, $nameKey, $windowStart, $windowEnd, $position, $hidden, $createdAt, $updatedAt] }

    init() {}

    init(_ type: MealType, ownerID: UUID) {
        id = type.id
        self.ownerID = ownerID
        key = type.key
        createdAt = type.createdAt
        apply(type)
    }

    func apply(_ type: MealType) {
        displayName = type.name
        nameKey = MealType.nameKey(type.name)
        windowStart = type.window?.start
        windowEnd = type.window?.end
        position = type.position
        hidden = type.hidden
        updatedAt = type.updatedAt
    }

    var domain: MealType {
        MealType(id: id!, key: key, name: displayName, window: windowStart.flatMap { s in windowEnd.flatMap { SuggestionWindow(start: s, end: $0) } },
                 position: position, hidden: hidden, createdAt: createdAt, updatedAt: updatedAt)
    }
}
