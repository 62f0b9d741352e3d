import ForkcastCore
import Foundation

/// An import's photos: each in a write of its own, checked as an upload is.
extension ImportAccount {
    /// The archive's photo at `index`, checked as an upload is; the bytes stored.
    func storePhoto(_ archive: AccountArchive, _ index: Int, _ records: any AccountImportRecords, _ attempted: Attempted) async throws -> Int {
        attempted.add(archive.photos[index].id)
        return try await prefixing("photos[\(index)].") { try await records.storePhoto(archive.photos[index], index: index) }
    }

    /// The archive's recipe photo at `index` on its meal, as SetMealPhoto puts one there (an import
    /// is not held to the household's quota, as its diary photos are not); the bytes stored.
    func storeRecipePhoto(_ archive: AccountArchive, _ index: Int, _ records: any AccountImportRecords) async throws -> Int {
        try await prefixing("recipePhotos[\(index)].") {
            let record = archive.recipePhotos[index]
            let photo = try await records.recipePhoto(record)
            guard try await SetMealPhoto(library: records.library, now: now, quotaBytes: .max)(photo, on: record.mealId) != nil else {
                throw Refusal.missingReference(field: "mealId", detail: "No meal \(record.mealId) was imported.")
            }
            return photo.data.count
        }
    }

    /// A dry run's recipe photo: read and checked as an import's, its bytes counted and not kept (an
    /// archive of 4 GB of them is not held in memory).
    func checkRecipePhoto(_ archive: AccountArchive, _ index: Int, _ records: any AccountImportRecords) async throws -> Int {
        try await prefixing("recipePhotos[\(index)].") { try await records.recipePhoto(archive.recipePhotos[index]).data.count }
    }

    /// The photos whose files an import may have written, to remove them when it does not commit.
    final class Attempted: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [UUID] = []
        func add(_ id: UUID) { lock.withLock { list.append(id) } }
        var ids: [UUID] { lock.withLock { list } }
    }
}

extension MealPhoto {
    /// A recipe photo's bytes from an archive, checked as an upload's are, with an id of its own.
    /// Plain work on up to the upload limit: callers run it off the event loops.
    public init(importing data: Data) throws(ValidationError) {
        do { try self.init(checking: data, id: UUID.timeOrdered()) } catch {
            throw ValidationError(field: "file", "This is not a photo a recipe can show: \(error)")
        }
    }
}
