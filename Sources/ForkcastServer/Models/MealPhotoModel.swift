import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

/// A recipe's photo (``MealPhoto``), kept in the database on both engines: one a meal, deleted with it.
final class MealPhotoModel: Model, @unchecked Sendable {
    static let schema = "meal_photos"

    @ID(key: .id) var id: UUID?
    @Field(key: "meal_id") var mealID: UUID
    @Field(key: "format") var format: String
    @Field(key: "width") var width: Int
    @Field(key: "height") var height: Int
    /// The bytes' count, for the household's quota without reading them.
    @Field(key: "byte_size") var byteSize: Int
    @Field(key: "data") var data: Data
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $mealID, $format, $width, $height, $byteSize, $data] }

    init() {}

    init(_ photo: MealPhoto, mealID: UUID) {
        id = photo.id
        self.mealID = mealID
        format = photo.format.rawValue
        width = photo.width
        height = photo.height
        byteSize = photo.data.count
        data = photo.data
    }
}
