import Fluent
import ForkcastApp
import Foundation

/// One person's settings on the server's database, for ``UpdateSettings``: the signed-in
/// ``UserModel`` the request holds, changed only once the write succeeded. Made only by ``Owner``
/// (and the account import, inside its transaction).
struct FluentSettingsStore: SettingsStore {
    let user: UserModel
    let db: any Database

    func settings() async throws -> AccountSettings {
        AccountSettings(displayName: user.displayName, timeZone: user.timeZone, currency: user.currency)
    }

    func save(_ settings: AccountSettings, now: Date) async throws {
        let user = user
        let before = (user.currency, user.displayName, user.timeZone)
        (user.currency, user.displayName, user.timeZone) = (settings.currency, settings.displayName, settings.timeZone)
        do {
            try await db.write { tx in
                try await user.save(on: tx)
                let id = try user.requireID()
                try await SyncLog.record(.settings, [id], op: .upsert, owner: id, on: tx, now: now)
            }
        } catch {
            (user.currency, user.displayName, user.timeZone) = before
            throw error
        }
    }
}
