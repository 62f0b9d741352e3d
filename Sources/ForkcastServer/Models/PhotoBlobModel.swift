import Fluent
import ForkcastCore
import Foundation

/// Photo bytes kept in the database (PostgreSQL), so every instance serves the same photos.
final class PhotoBlobModel: Model, @unchecked Sendable {
    static let schema = "photo_blobs"

    @ID(key: .id) var id: UUID?
    @Field(key: "photo_id") var photoID: UUID
    @Field(key: "variant") var variant: String
    @Field(key: "data") var data: Data
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $photoID, $variant, $data] }

    init() {}
}
