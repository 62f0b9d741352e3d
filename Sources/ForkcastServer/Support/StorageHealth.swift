import Fluent
import ForkcastCore
import Foundation
import SQLKit
import NIOConcurrencyHelpers
import Vapor

/// Whether this instance's writes are failing for storage reasons (a full disk, an I/O error, a
/// lock held elsewhere): `/healthz` says not writable while the last write that ended did so
/// within ``window``, even when its own small probe would still fit (a full disk kept
/// answering `writable: true` while 100+ writes failed).
final class StorageHealth: Sendable {
    static let window: Duration = .seconds(30)
    private let lastFailure = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    func failed() { lastFailure.withLockedValue { $0 = .now } }

    /// A write committed: storage takes writes again.
    func committed() { lastFailure.withLockedValue { $0 = nil } }

    /// The last write failed for storage reasons, recently.
    var isFailing: Bool {
        lastFailure.withLockedValue { failure in failure.map { ContinuousClock.now - $0 < Self.window } ?? false }
    }

    /// Trouble with storage itself, not with what was written (a constraint or a rule refused).
    static func isStorageTrouble(_ error: any Error) -> Bool {
        if case AppError.storageUnavailable = error { return true }
        if case AppError.outcomeUnknown = error { return true }
        if error is AppError || error is ValidationError { return false }
        if let database = error as? any DatabaseError, database.isConstraintFailure || database.isSyntaxError { return false }
        return StorageFailure.isStorageFailure(error)
    }
}
