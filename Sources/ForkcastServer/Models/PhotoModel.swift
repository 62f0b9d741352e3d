import Fluent
import ForkcastCore
import Foundation

/// A photo's metadata; the bytes are in the ``PhotoStore``.
final class PhotoModel: Model, @unchecked Sendable {
    static let schema = "photos"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "format") var format: String
    @Field(key: "width") var width: Int
    @Field(key: "height") var height: Int
    @Field(key: "byte_size") var byteSize: Int
    @Field(key: "thumbnail_size") var thumbnailSize: Int
    @Field(key: "captured_at") var capturedAt: Date
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $ownerID, $format, $width, $height, $byteSize, $thumbnailSize, $capturedAt, $createdAt, $updatedAt] }

    init() {}
}
