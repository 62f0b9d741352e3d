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
/// devices learn the meal's new `photoId`. A household's recipe photos together take at most
/// `quotaBytes` (the server's per-person photo quota, FORKCAST_PHOTO_QUOTA_MB).
public struct SetMealPhoto: Sendable {
    let library: any Library
    let now: Date
    let quotaBytes: Int64

    public init(library: any Library, now: Date, quotaBytes: Int64) {
        self.library = library
        self.now = now
        self.quotaBytes = quotaBytes
    }

    /// The meal as it is now; nil when the household has no such meal. Throws
    /// ``Refusal/tooLarge(_:)`` past the quota, with nothing changed.
    public func callAsFunction(_ photo: MealPhoto?, on id: UUID) async throws -> Meal? {
        let (now, quota) = (now, quotaBytes)
        return try await library.write { tx in
            if let photo {
                let used = try await tx.meals.photoBytes(except: id)
                if used + Int64(photo.data.count) > quota {
                    throw Refusal.tooLarge("Your household's recipe photos take \(used >> 20) MB of the \(quota >> 20) MB this server keeps, and this one does not fit. Nothing was saved: remove photos of recipes you no longer cook, or ask the server's owner to raise FORKCAST_PHOTO_QUOTA_MB.")
                }
            }
            guard try await tx.meals.setPhoto(photo, of: id, now: now) else { return nil }
            return try await tx.meals.find(id)
        }
    }
}
