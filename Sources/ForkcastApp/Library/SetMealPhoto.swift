import ForkcastCore
import Foundation

/// A recipe's photo: checked by its bytes and stripped of its metadata (a phone's location stays
/// on the phone), kept with its meal. It belongs to the household as the meal does, goes with the
/// meal, and is not one of a person's diary photos (no quota, no entry).
public struct MealPhoto: Sendable, Equatable {
    public var id: UUID
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var data: Data

    /// Throws ``ImageFile/Problem`` for what is not a photo we can show. Plain work on up to the
    /// upload limit: callers run it off the event loops.
    public init(checking data: Data, id: UUID) throws(ImageFile.Problem) {
        let image = try ImageFile.inspect(data)
        // HEIC shows in few browsers; a page that cannot show its own photo is worse than none.
        guard image.format != .heic else { throw .unsupported("a recipe's photo is a JPEG, PNG or WebP (HEIC shows in few browsers)") }
        self.init(id: id, format: image.format, width: image.width, height: image.height, data: try ImageFile.strippingMetadata(data))
    }

    public init(id: UUID, format: ImageFormat, width: Int, height: Int, data: Data) {
        (self.id, self.format, self.width, self.height, self.data) = (id, format, width, height, data)
    }
}

/// Puts a photo on a meal (replacing the one it had) or takes it off, in the change feed so
/// devices learn the meal's new `photoId`.
public struct SetMealPhoto: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// The meal as it is now; nil when the household has no such meal.
    public func callAsFunction(_ photo: MealPhoto?, on id: UUID) async throws -> Meal? {
        let now = now
        return try await library.write { tx in
            guard try await tx.meals.setPhoto(photo, of: id, now: now) else { return nil }
            return try await tx.meals.find(id)
        }
    }
}
