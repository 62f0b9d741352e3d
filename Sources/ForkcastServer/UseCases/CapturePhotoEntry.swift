import Fluent
import ForkcastCore
import Foundation

/// Logging a photo (seed 004's photo-first capture): the entry is checked first, then the photo and
/// its entry are stored in one write, so a refused entry leaves no photo behind and a photo is
/// never shown by two entries.
struct CapturePhotoEntry {
    let service: DiaryService
    let photos: PhotoRepository
    let uuid: @Sendable () -> UUID

    typealias Upload = (photo: Data, thumbnail: Data?, capturedAt: Date?, fields: [String: String])

    func callAsFunction(_ upload: Upload, date: CalendarDate, mealType: String?) async throws -> (DiaryEntry, Photo) {
        let photoID = uuid()
        let entry: DiaryEntry
        do {
            entry = try await service.entry(from: DiaryEntryInput(date: date, mealType: mealType, photoId: photoID), id: uuid(), pendingPhoto: photoID)
        } catch let error as ValidationError { throw AppError.validation(error) }
        let service = service, photos = photos
        return try await service.db.write { tx in
            let photo = try await PhotoRepository(db: tx, ownerID: photos.ownerID, store: photos.store, quotaBytes: photos.quotaBytes)
                .create(upload.photo, thumbnail: upload.thumbnail, capturedAt: upload.capturedAt, id: photoID, now: service.now)
            try await DiaryRepository(db: tx, ownerID: service.ownerID, photoStore: service.photoStore).create([entry], now: service.now)
            return (entry, photo)
        }
    }
}
