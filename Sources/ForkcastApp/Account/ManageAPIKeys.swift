import ForkcastCore
import Foundation

/// Keys for other programs: making one (the caller makes the token and shows it once;
/// `tokenHash` is what is stored), listing and revoking one's keys, and opening one for a request.
public struct ManageAPIKeys: Sendable {
    let accounts: any Accounts
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    public static let tooMany = "You have \(APIKey.openLimit) keys already; revoke one first."

    /// Throws ``ValidationError`` for a bad name, areas or expiry, ``Refusal/conflict(_:)`` past
    /// ``APIKey/openLimit``.
    public func make(by person: UUID, tokenHash: String, name: String, access: APIKey.Access, areas: [String], expiresAt: Date?) async throws -> APIKey {
        let now = now
        let checked = try APIKey.validated(name: name, areas: areas, expiresAt: expiresAt, now: now)
        return try await accounts.write { records in
            try await records.lockOwner(person)
            guard try await records.apiKeys(of: person, now: now).count < APIKey.openLimit else { throw Refusal.conflict(Self.tooMany) }
            let key = APIKey(id: UUID.timeOrdered(), tokenHash: tokenHash, name: checked.name, access: access, areas: checked.areas,
                             expiresAt: checked.expiresAt, createdAt: now)
            try await records.insert(key, owner: person)
            return key
        }
    }

    /// The person's keys not expired, newest first.
    public func keys(of person: UUID) async throws -> [APIKey] {
        let now = now
        return try await accounts.read { try await $0.apiKeys(of: person, now: now) }
    }

    /// False when the person has no key with this id.
    public func revoke(_ id: UUID, by person: UUID) async throws -> Bool {
        try await accounts.write { try await $0.deleteAPIKey(id, owner: person) }
    }

    /// The open key with this token hash and whose it is, its use written down (at most once a
    /// minute); nil once revoked or expired.
    public func open(tokenHash: String) async throws -> (key: APIKey, owner: UUID)? {
        let now = now
        guard let found = try await accounts.read({ try await $0.apiKey(tokenHash: tokenHash, now: now) }) else { return nil }
        if found.key.lastUsedAt.map({ now.timeIntervalSince($0) >= APIKey.lastUsedPrecision }) ?? true {
            try await accounts.write { try await $0.touchAPIKey(found.key.id, at: now) }
        }
        return found
    }
}
