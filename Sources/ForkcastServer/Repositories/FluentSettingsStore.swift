import Fluent
import ForkcastApp
import Foundation
import SQLKit

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
            let id = try user.requireID()
            // Prices are the household's: its currency is every member's (its turn before theirs).
            let kitchen = settings.currency == before.currency ? nil : try await Kitchen.enter(id, on: tx)
            tx.onRollback { Self.set(before, on: user) }
            Self.set(settings, on: user)
            try await user.save(on: tx)
            try await SyncLog.record(.settings, [id], op: .upsert, owner: id, on: tx, now: now)
            guard let others = kitchen?.feeds.filter({ $0 != id }) else { return }
            guard !others.isEmpty else { return }
            try await (tx as any SQLDatabase).update(UserModel.schema).set("currency", to: settings.currency).where("id", .in, others).run()
            for other in others { try await SyncLog.record(.settings, [other], op: .upsert, owner: other, on: tx, now: now) }
        }
    }

    private static func set(_ settings: AccountSettings, on user: UserModel) {
        (user.currency, user.displayName, user.timeZone) = (settings.currency, settings.displayName, settings.timeZone)
    }
}
