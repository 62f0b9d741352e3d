import Fluent
import ForkcastCore
import Foundation

/// Changing a person's settings (display name, time zone, currency): one use case for the API, the
/// Settings page, a synced device and an account import, with the same 422 for the same bad input
/// everywhere. The rules are ForkcastCore's ``AccountRules`` and ``Currency``.
struct UpdateSettings {
    let user: UserModel
    let db: any Database
    let now: Date

    static func problems(displayName: String?, timeZone: String?, currency: String?) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        if let problem = displayName.flatMap(AccountRules.displayNameProblem) { problems.append(.init(field: "displayName", message: problem)) }
        if let problem = timeZone.flatMap(AccountRules.timeZoneProblem) { problems.append(.init(field: "timeZone", message: problem)) }
        if let currency = currency?.trimmed, !Currency.isValid(currency) {
            problems.append(.init(field: "currency", message: "\"\(currency.prefix(10))\" is not a currency code such as EUR, USD or GBP."))
        }
        return problems
    }

    /// Applies the fields given (nil leaves a field as it is; an empty display name removes it) and
    /// returns the person as saved. Throws ``ValidationError`` naming each bad field; then nothing
    /// changes, in the database or in `user`.
    @discardableResult
    func callAsFunction(displayName: String?, timeZone: String?, currency: String?) async throws -> UserModel {
        let problems = Self.problems(displayName: displayName, timeZone: timeZone, currency: currency)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let user = user, now = now
        let before = (user.currency, user.displayName, user.timeZone)
        if let currency { user.currency = currency.trimmed.uppercased() }
        if let name = displayName { user.displayName = name.trimmed.isEmpty ? nil : name.trimmed }
        if let zone = timeZone { user.timeZone = zone.trimmed }
        do {
            try await db.write { tx in
                try await user.save(on: tx)
                try await SyncLog.record(.settings, [try user.requireID()], op: .upsert, owner: try user.requireID(), on: tx, now: now)
            }
        } catch {
            (user.currency, user.displayName, user.timeZone) = before
            throw error
        }
        return user
    }
}
