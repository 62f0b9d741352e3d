import Foundation
import NIOConcurrencyHelpers

/// What an open event stream (`/api/v1/sync/events`) has sent so far, filled by the task reading it.
struct StreamText: Sendable {
    private let box = NIOLockedValueBox("")

    var text: String { box.withLockedValue { $0 } }

    func append(_ chunk: String) { box.withLockedValue { $0 += chunk } }

    /// Whether `text` arrives within `seconds` (long: four tests at once on two cores wait on each other).
    func waitFor(_ text: String, seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if self.text.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
