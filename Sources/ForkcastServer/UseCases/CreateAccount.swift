import Fluent
import ForkcastCore
import Foundation
import SQLKit

/// Creating an account: the one place an account is stored, whether it comes from sign-up (API or
/// web), `forkcast user create`, an account import or a first Sign in with Apple / OpenID Connect.
/// The password rules and hashing stay with ``AccountService/register(_:allowSignup:force:)``; a
/// sign-in brings no password. Whatever the door, the checks below and the insert are one write.
struct CreateAccount {
    let db: any Database
    let now: Date

    static let signupClosed = "Sign-up is closed on this server. Ask its owner to create your account (forkcast user create) or to set FORKCAST_ALLOW_SIGNUP=true."

    /// Held by every account creation (PostgreSQL; SQLite has one writer anyway), so the checks
    /// below and the insert are one step for concurrent requests and instances.
    private static let accountsLock = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))

    /// Stores a new account with what every account starts with (its settings in the sync feed, the
    /// default meal types), plus whatever `also` adds in the same transaction (a linked identity).
    /// `onlyIfFirst`: refused (403, sign-up closed) unless no account exists yet. An email already
    /// taken is a 409. Both are decided inside the write that inserts.
    func callAsFunction(_ user: UserModel, onlyIfFirst: Bool = false,
                        also: (@Sendable (any Database, UUID) async throws -> Void)? = nil) async throws {
        let now = now
        try await db.write { tx in
            try await SyncLog.lockOwner(Self.accountsLock, on: tx as! any SQLDatabase)
            if onlyIfFirst, try await UserModel.query(on: tx).count() > 0 { throw AppError.forbidden(Self.signupClosed) }
            if try await UserModel.query(on: tx).filter(\.$emailKey == user.emailKey).first() != nil {
                throw AppError.conflict("An account with that email already exists; sign in instead.")
            }
            try await user.create(on: tx)
            let id = try user.requireID()
            try await SyncLog.record(.settings, [id], op: .upsert, owner: id, on: tx, now: now)
            try await MealTypeRepository(db: tx, ownerID: id).createDefaults(now: now, on: tx)
            try await also?(tx, id)
        }
    }
}
