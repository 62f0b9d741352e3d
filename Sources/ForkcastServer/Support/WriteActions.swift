import NIOConcurrencyHelpers

/// Work a write hands to its end: what to do once it has committed (``WriteTransaction/afterCommit(_:)``:
/// a photo file's removal, an event stream's wake-up) and how to put back what it changed in
/// memory when it rolls back (``WriteTransaction/onRollback(_:)``: the signed-in person's settings).
final class WriteActions: Sendable {
    private let actions = NIOLockedValueBox<[@Sendable () async -> Void]>([])

    func add(_ action: @escaping @Sendable () async -> Void) { actions.withLockedValue { $0.append(action) } }

    /// Another's actions, after these (a savepoint's, once it is released); they leave the other.
    func add(contentsOf other: WriteActions) {
        let theirs = other.take()
        actions.withLockedValue { $0 += theirs }
    }

    /// In the order they were added (after a commit).
    func run() async { for action in take() { await action() } }

    /// Last first (undoing: a field changed twice ends as it was before the first change).
    func undo() async { for action in take().reversed() { await action() } }

    /// Each action runs at most once.
    private func take() -> [@Sendable () async -> Void] {
        actions.withLockedValue { actions in
            defer { actions = [] }
            return actions
        }
    }
}
