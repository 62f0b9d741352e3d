import Fluent
import ForkcastCore
import Foundation

/// Changing a person's settings (display name, time zone, currency): one use case for the API, the
/// web page and the sync push, with the same 422 for the same bad input everywhere.
enum AccountSettings {
    static func problems(displayName: String?, timeZone: String?, currency: String?) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        if let problem = displayName.flatMap(AccountRules.displayNameProblem) { problems.append(.init(field: "displayName", message: problem)) }
        if let problem = timeZone.flatMap(AccountRules.timeZoneProblem) { problems.append(.init(field: "timeZone", message: problem)) }
        if let currency = currency?.trimmed, !Currency.isValid(currency) {
            problems.append(.init(field: "currency", message: "\"\(currency.prefix(10))\" is not a currency code such as EUR, USD or GBP."))
        }
        return problems
    }

    /// Applies the fields given (nil leaves a field as it is); throws 422 naming each bad field.
    @discardableResult
    static func update(_ user: UserModel, displayName: String?, timeZone: String?, currency: String?,
                       db: any Database, now: Date) async throws -> UserModel {
        let problems = problems(displayName: displayName, timeZone: timeZone, currency: currency)
        guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
        if let currency { user.currency = currency.trimmed.uppercased() }
        if let name = displayName { user.displayName = name.trimmed.isEmpty ? nil : name.trimmed }
        if let zone = timeZone { user.timeZone = zone.trimmed }
        try await db.write { tx in
            try await user.save(on: tx)
            try await SyncLog.record(.settings, [try user.requireID()], op: .upsert, owner: try user.requireID(), on: tx, now: now)
        }
        return user
    }
}
