import ForkcastCore
import Foundation

/// A person's settings: what they are called, the time zone their days are in, and the currency
/// their prices are in.
public struct AccountSettings: Sendable, Equatable {
    public var displayName: String?
    public var timeZone: String
    public var currency: String

    public init(displayName: String?, timeZone: String, currency: String) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.currency = currency
    }
}

/// Where one person's settings are kept. Like ``Library``, an implementation is made for one person.
public protocol SettingsStore: Sendable {
    func settings() async throws -> AccountSettings
    /// Stores the settings with their change-feed row, in one transaction; when it throws, nothing
    /// changed (in the store or in any copy the person's request holds).
    func save(_ settings: AccountSettings, now: Date) async throws
}
