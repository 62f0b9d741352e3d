import ForkcastCore
import Foundation

/// Deleting an account and everything of it (seed 003's "delete all stored data"), from the API,
/// the Settings page and a passwordless account's fresh sign-in alike. Who may delete (the password,
/// or a sign-in moments ago) is the adapters' authentication; what goes is decided here: every
/// record, every way in (tokens, sessions, linked sign-ins) and the photos' files, in one
/// transaction.
public struct DeleteAccount: Sendable {
    let accounts: any Accounts

    public init(accounts: any Accounts) {
        self.accounts = accounts
    }

    /// False when there is no such account (deleted already, by another request).
    @discardableResult
    public func callAsFunction(_ owner: UUID) async throws -> Bool {
        try await accounts.write { records in
            try await records.lockOwner(owner)
            return try await records.delete(owner)
        }
    }
}
