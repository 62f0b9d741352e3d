import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import SQLKit

/// The server's ``Accounts``: users, their linked sign-ins and the lock account creation holds.
struct FluentAccounts: Accounts {
    let db: any Database
    /// The adapter's model of the account being created, filled in place by the insert (its
    /// timestamps), so the adapter signs in the account it holds.
    var pending: UserModel?

    func write<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T {
        let pending = pending
        return try await db.write { tx in try await body(Records(db: tx, pending: pending)) }
    }

    /// Held by every account creation (PostgreSQL; SQLite has one writer anyway), so the checks
    /// and the insert are one step for concurrent requests and instances.
    private static let accountsLock = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))

    private struct Records: AccountRecords, @unchecked Sendable {
        let db: any Database
        let pending: UserModel?

        func lockAccounts() async throws {
            try await SyncLog.lockOwner(FluentAccounts.accountsLock, on: db as! any SQLDatabase)
        }

        func accountCount() async throws -> Int { try await UserModel.query(on: db).count() }

        func hasAccount(emailKey: String) async throws -> Bool {
            try await UserModel.query(on: db).filter(\.$emailKey == emailKey).first() != nil
        }

        func insert(_ account: Account, now: Date) async throws {
            let model = pending?.id == account.id ? pending! : UserModel()
            model.id = account.id
            model.email = account.email
            model.emailKey = account.emailKey
            model.passwordHash = account.passwordHash
            model.displayName = account.displayName
            model.timeZone = account.timeZone
            model.currency = account.currency
            try await model.create(on: db)
            try await SyncLog.record(.settings, [account.id], op: .upsert, owner: account.id, on: db, now: now)
        }

        func insertMealTypes(_ types: [MealType], owner: UUID, now: Date) async throws {
            try await MealTypeRepository(db: db, ownerID: owner).insert(all: types, now: now)
        }

        func link(_ identity: LinkedIdentity, to owner: UUID) async throws {
            try await ExternalIdentityModel(userID: owner, provider: identity.provider, subject: identity.subject, email: identity.email).create(on: db)
        }
    }
}

extension UserModel {
    /// The account as ``CreateAccount`` takes it (an id is given to a model without one).
    var newAccount: Account {
        if id == nil { id = UUID() }
        return Account(id: id!, email: email, passwordHash: passwordHash, displayName: displayName, timeZone: timeZone, currency: currency)
    }
}

extension CreateAccount {
    /// Creates the account `user` describes, through ``FluentAccounts``: `user` is the stored account
    /// afterwards. A refusal comes as the ``AppError`` the sign-up pages and `forkcast user create` show.
    static func store(_ user: UserModel, on db: any Database, now: Date, onlyIfFirst: Bool = false, identity: LinkedIdentity? = nil) async throws {
        do {
            try await CreateAccount(accounts: FluentAccounts(db: db, pending: user), now: now)(user.newAccount, onlyIfFirst: onlyIfFirst, identity: identity)
        } catch let refusal as Refusal {
            throw AppError(refusal)
        }
    }
}
