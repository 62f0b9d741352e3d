import ForkcastCore
import Foundation

/// A photo uploaded on its own (the API's upload; a device sends the photo, then the entry that
/// shows it): checked by content, stored without its metadata, within the person's quota. A photo
/// captured with its entry is ``LogEntry/photo(_:thumbnail:capturedAt:date:mealType:)``.
public struct UploadPhoto: Sendable {
    let diary: any Diary
    let now: Date
    let uuid: @Sendable () -> UUID

    public init(diary: any Diary, now: Date, uuid: @escaping @Sendable () -> UUID) {
        self.diary = diary
        self.now = now
        self.uuid = uuid
    }

    public func callAsFunction(_ data: Data, thumbnail: Data?, capturedAt: Date?) async throws -> Photo {
        try await diary.store(NewPhoto(id: uuid(), data: data, thumbnail: thumbnail, capturedAt: capturedAt), now: now)
    }
}
