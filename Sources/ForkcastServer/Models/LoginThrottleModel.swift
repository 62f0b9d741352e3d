import Fluent
import Foundation

/// Failed sign-ins for one email, kept in the database so every instance slows down the same guesser.
final class LoginThrottleModel: Model, @unchecked Sendable {
    static let schema = "login_throttles"

    @ID(key: .id) var id: UUID?
    @Field(key: "email_key") var emailKey: String
    @Field(key: "failures") var failures: Int
    @Field(key: "last_failure_at") var lastFailureAt: Date

    init() {}

    init(emailKey: String, failures: Int, lastFailureAt: Date) {
        self.id = UUID()
        self.emailKey = emailKey
        self.failures = failures
        self.lastFailureAt = lastFailureAt
    }
}
