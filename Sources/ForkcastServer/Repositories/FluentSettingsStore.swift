import Fluent
import ForkcastApp
import Foundation

/// One person's settings on the server's database, for ``UpdateSettings``: the signed-in
/// ``UserModel`` the request holds, changed with its write and put back if the write rolls back. Made only by ``Owner``
/// (and the account import, inside its transaction).
struct FluentSettingsStore: SettingsStore {
    let user: UserModel
    let db: any Database

    func settings() async throws -> AccountSettings {
        AccountSettings(displayName: user.displayName, timeZone: user.timeZone, currency: user.currency)
    }

    /// The signed-in ``UserModel`` changes with the row, inside the write: a later change in the same
    /// write (a synced device's next mutation) reads the settings as they now are. If the write, or
    /// the savepoint of the part of it this change is in, rolls back, the model is put back too.
    func save(_ settings: AccountSettings, now: Date) async throws {
        let user = user
        try await db.write { tx in
            let before = AccountSettings(displayName: user.displayName, timeZone: user.timeZone, currency: user.currency)
            tx.onRollback { Self.set(before, on: user) }
            Self.set(settings, on: user)
            try await user.save(on: tx)
            let id = try user.requireID()
            try await SyncLog.record(.settings, [id], op: .upsert, owner: id, on: tx, now: now)
        }
    }

    private static func set(_ settings: AccountSettings, on user: UserModel) {
        (user.currency, user.displayName, user.timeZone) = (settings.currency, settings.displayName, settings.timeZone)
    }
}
