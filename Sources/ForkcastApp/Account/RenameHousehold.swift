import ForkcastCore
import Foundation

/// Renaming a household (the API and Settings › Household): only its owner may.
public struct RenameHousehold: Sendable {
    let accounts: any Accounts
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    public static let ownerOnly = "Only the household's owner can rename it."

    /// The household `person` is in, renamed. Throws ``ValidationError`` for a bad name and
    /// ``Refusal/notAllowed(_:)`` for a member who is not the owner.
    public func callAsFunction(by person: UUID, to name: String) async throws -> HouseholdMembers {
        let name = try Household.validated(name: name), now = now
        return try await accounts.write { records in
            guard var found = try await records.household(of: person) else { throw Refusal.notAllowed(Self.ownerOnly) }
            guard found.role(of: person) == .owner else { throw Refusal.notAllowed(Self.ownerOnly) }
            found.household.name = name
            found.household.updatedAt = now
            try await records.replace(found.household)
            return found
        }
    }
}
