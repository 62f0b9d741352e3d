import Fluent
import Foundation

/// Slows down password guessing: after ``freeAttempts`` failures for one email, each further
/// attempt must wait, doubling from 30 seconds up to 15 minutes. A success clears the count.
struct LoginThrottle {
    static let freeAttempts = 5
    static let firstDelay: TimeInterval = 30
    static let maximumDelay: TimeInterval = 15 * 60

    let db: any Database
    let now: Date

    /// Seconds still to wait before this email may try again, or nil.
    func waitTime(for emailKey: String) async throws -> Int? {
        guard let record = try await LoginThrottleModel.query(on: db).filter(\.$emailKey == emailKey).first(),
              record.failures >= Self.freeAttempts else { return nil }
        let delay = Self.delay(afterFailures: record.failures)
        let remaining = record.lastFailureAt.addingTimeInterval(delay).timeIntervalSince(now)
        return remaining > 0 ? Int(remaining.rounded(.up)) : nil
    }

    static func delay(afterFailures failures: Int) -> TimeInterval {
        let exponent = max(0, failures - freeAttempts)
        return min(maximumDelay, firstDelay * pow(2, Double(min(exponent, 10))))
    }

    func recordFailure(for emailKey: String) async throws {
        if let record = try await LoginThrottleModel.query(on: db).filter(\.$emailKey == emailKey).first() {
            record.failures += 1
            record.lastFailureAt = now
            try await record.save(on: db)
        } else {
            try await LoginThrottleModel(emailKey: emailKey, failures: 1, lastFailureAt: now).create(on: db)
        }
    }

    func clear(for emailKey: String) async throws {
        try await LoginThrottleModel.query(on: db).filter(\.$emailKey == emailKey).delete()
    }
}
