import ForkcastCore
import Foundation

/// Deleting a diary entry (the API, the web page and a synced device's delete): the entry, its
/// change-feed row and the photo it shows, in one write.
public struct DeleteEntry: Sendable {
    let diary: any Diary
    let now: Date

    public init(diary: any Diary, now: Date) {
        self.diary = diary
        self.now = now
    }

    /// The entry deleted, nil when the person has no such entry.
    @discardableResult
    public func callAsFunction(_ id: UUID) async throws -> DiaryEntry? {
        try await diary.delete(id, now: now)
    }
}
