import Foundation

/// A sliding-window limit on calls to an outside service, so Forkcast stays under its published limits.
actor RateLimiter {
    let limit: Int
    let window: TimeInterval
    private var calls: [Date] = []

    init(limit: Int, per window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Takes a slot if one is free now; otherwise returns the seconds until one frees up.
    func acquire(now: Date) -> TimeInterval? {
        calls.removeAll { now.timeIntervalSince($0) >= window }
        guard calls.count < limit else {
            return max(0, window - now.timeIntervalSince(calls[0]))
        }
        calls.append(now)
        return nil
    }
}
