import Fluent
import ForkcastCore
import Foundation

/// Deleting a diary entry (the API, the web page and a synced device's delete): the entry, its
/// change-feed row and the photo it shows, in one write.
struct DeleteEntry {
    let diary: DiaryContext

    /// The entry deleted, nil when the person has no such entry.
    @discardableResult
    func callAsFunction(_ id: UUID) async throws -> DiaryEntry? {
        try await diary.entries.delete(id, now: diary.now)
    }
}
