import Foundation

/// One person's settings in memory: the fake ``UpdateSettings`` is tested with alone. `failing`
/// makes the next save throw, as a database that cannot be reached does.
public final class InMemorySettingsStore: SettingsStore, @unchecked Sendable {
    public struct Unavailable: Error {}

    private let lock = NSLock()
    private var stored: AccountSettings
    private var failNext = false
    /// How many saves were stored (each with its change-feed row on the server).
    public private(set) var saves = 0

    public init(_ settings: AccountSettings) { stored = settings }

    public var current: AccountSettings { lock.withLock { stored } }

    public func failNextSave() { lock.withLock { failNext = true } }

    public func settings() async throws -> AccountSettings { current }

    public func save(_ settings: AccountSettings, now: Date) async throws {
        try lock.withLock {
            if failNext { failNext = false; throw Unavailable() }
            stored = settings
            saves += 1
        }
    }
}
