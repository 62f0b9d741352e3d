import ForkcastCore
import Foundation

/// Changing a person's settings (display name, time zone, currency): one use case for the API, the
/// Settings page, a synced device and an account import, with the same 422 for the same bad input
/// everywhere. The rules are ForkcastCore's ``AccountRules`` and ``Currency``.
public struct UpdateSettings: Sendable {
    let store: any SettingsStore
    let now: Date

    public init(store: any SettingsStore, now: Date) {
        self.store = store
        self.now = now
    }

    public static func problems(displayName: String?, timeZone: String?, currency: String?) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        if let problem = displayName.flatMap(AccountRules.displayNameProblem) { problems.append(.init(field: "displayName", message: problem)) }
        if let problem = timeZone.flatMap(AccountRules.timeZoneProblem) { problems.append(.init(field: "timeZone", message: problem)) }
        if let currency = currency?.trimmed, !Currency.isValid(currency) {
            problems.append(.init(field: "currency", message: "\"\(currency.prefix(10))\" is not a currency code such as EUR, USD or GBP."))
        }
        return problems
    }

    /// Applies the fields given (nil leaves a field as it is; an empty display name removes it) and
    /// returns the settings as saved. Throws ``ValidationError`` naming each bad field; then nothing
    /// changes.
    @discardableResult
    public func callAsFunction(displayName: String?, timeZone: String?, currency: String?) async throws -> AccountSettings {
        let problems = Self.problems(displayName: displayName, timeZone: timeZone, currency: currency)
        guard problems.isEmpty else { throw ValidationError(problems) }
        var settings = try await store.settings()
        if let currency { settings.currency = currency.trimmed.uppercased() }
        if let name = displayName { settings.displayName = name.trimmed.nilIfEmptyString }
        if let zone = timeZone { settings.timeZone = zone.trimmed }
        try await store.save(settings, now: now)
        return settings
    }
}
