import ForkcastCore
import Foundation

/// The accounts in memory, beside the people's records (``InMemoryLibraries``): held to the same
/// contract as the server's. Transactions take turns, so ``lockAccounts()`` has nothing to add.
public struct InMemoryAccounts: Accounts {
    let libraries: InMemoryLibraries

    /// A sign-in linked twice: what the database's unique index refuses.
    public struct IdentityLinkedTwice: Error, Sendable { public let identity: LinkedIdentity }
    /// A second account with one email key: what the database's unique index refuses.
    public struct EmailTaken: Error, Sendable { public let emailKey: String }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T {
        // Not one person's transaction: the owner it is run as is nobody's.
        try await libraries.transaction(owner: UUID()) { try await body(Records(tx: $0)) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any AccountRecords) async throws -> T) async throws -> T {
        try await write(body)
    }

    struct Records: AccountRecords {
        let tx: InMemoryLibrary.Transaction

        func lockAccounts() async throws {}

        func accountCount() async throws -> Int { tx.records.accounts.count }

        func hasAccount(emailKey: String) async throws -> Bool { tx.records.accounts.values.contains { $0.emailKey == emailKey } }

        func insert(_ account: Account, now: Date) async throws {
            try tx.update { records in
                guard records.accounts[account.id] == nil else { throw InMemoryLibraries.DuplicateID(id: account.id) }
                guard !records.accounts.values.contains(where: { $0.emailKey == account.emailKey }) else { throw EmailTaken(emailKey: account.emailKey) }
                records.accounts[account.id] = account
                records.accountOrder.append(account.id)
                tx.log(.settings, [account.id], deleted: false, at: now, in: &records)
            }
        }

        func insertMealTypes(_ types: [MealType], owner: UUID, now: Date) async throws {
            try tx.update { records in
                for type in types {
                    guard records.mealTypes[type.id] == nil else { throw InMemoryLibraries.DuplicateID(id: type.id) }
                    records.mealTypes[type.id] = .init(owner: owner, value: type)
                }
                tx.log(.mealType, types.map(\.id), deleted: false, at: now, in: &records)
            }
        }

        func link(_ identity: LinkedIdentity, to owner: UUID) async throws {
            try tx.update { records in
                let key = LinkedIdentity(provider: identity.provider, subject: identity.subject, email: nil)
                guard !records.identities.keys.contains(where: { $0.provider == key.provider && $0.subject == key.subject }) else {
                    throw IdentityLinkedTwice(identity: identity)
                }
                records.identities[identity] = owner
            }
        }

        func lockOwner(_ owner: UUID) async throws {}

        func firstAccountID() async throws -> UUID? { tx.records.accountOrder.first }

        func insert(_ invitation: Invitation) async throws {
            try tx.update { records in
                guard records.invitations[invitation.id] == nil else { throw InMemoryLibraries.DuplicateID(id: invitation.id) }
                records.invitations[invitation.id] = invitation
            }
        }

        func openInvitations(now: Date, tokenHash: String?, household: UUID?) async throws -> [Invitation] {
            tx.records.invitations.values.filter { invitation in
                invitation.expiresAt > now && tx.records.usedInvitations[invitation.id] == nil
                    && (tokenHash.map { invitation.tokenHash == $0 } ?? (invitation.household == household))
            }
        }

        func markInvitationUsed(_ id: UUID, by account: UUID, at date: Date) async throws -> Bool {
            tx.update { records in
                guard records.invitations[id] != nil, records.usedInvitations[id] == nil else { return false }
                records.usedInvitations[id] = account
                return true
            }
        }

        func deleteInvitation(_ id: UUID) async throws -> Bool {
            tx.update { records in
                guard records.usedInvitations[id] == nil else { return false }
                return records.invitations.removeValue(forKey: id) != nil
            }
        }

        func delete(_ owner: UUID) async throws -> Bool {
            tx.update { records in
                guard records.accounts.removeValue(forKey: owner) != nil else { return false }
                records.accountOrder.removeAll { $0 == owner }
                records.invitations = records.invitations.filter { $0.value.createdBy != owner }
                records.foods = records.foods.filter { $0.value.owner != owner }
                let photos = Set(records.meals.values.filter { $0.owner == owner }.compactMap(\.value.photoId))
                records.mealPhotos = records.mealPhotos.filter { !photos.contains($0.key) }
                records.meals = records.meals.filter { $0.value.owner != owner }
                records.assignments = records.assignments.filter { $0.value.owner != owner }
                records.mealTypes = records.mealTypes.filter { $0.value.owner != owner }
                records.weights = records.weights.filter { $0.value.owner != owner }
                records.entries = records.entries.filter { $0.value.owner != owner }
                records.photos = records.photos.filter { $0.value.owner != owner }
                records.profiles[owner] = nil
                records.goals[owner] = nil
                records.identities = records.identities.filter { $0.value != owner }
                records.diaryLinks = records.diaryLinks.filter { $0.value.owner != owner }
                records.calendarFeeds = records.calendarFeeds.filter { $0.value.owner != owner }
                records.apiKeys = records.apiKeys.filter { $0.value.owner != owner }
                if let household = records.memberships.removeValue(forKey: owner)?.household,
                   !records.memberships.values.contains(where: { $0.household == household }) {
                    records.households[household] = nil
                }
                return true
            }
        }

        func insert(_ household: Household, owner: UUID, now: Date) async throws {
            try tx.update { records in
                guard records.households[household.id] == nil else { throw InMemoryLibraries.DuplicateID(id: household.id) }
                guard records.memberships[owner] == nil else { throw InMemoryLibraries.DuplicateID(id: owner) }
                records.households[household.id] = household
                records.memberships[owner] = (household.id, .owner, now)
            }
        }

        func household(of member: UUID) async throws -> HouseholdMembers? {
            guard let id = tx.records.memberships[member]?.household else { return nil }
            return try await members(of: id)
        }

        func members(of id: UUID) async throws -> HouseholdMembers? {
            guard let household = tx.records.households[id] else { return nil }
            let members = tx.records.memberships.filter { $0.value.household == id }
                .sorted { ($0.value.joinedAt, $0.key.uuidString) < ($1.value.joinedAt, $1.key.uuidString) }
                .map { Household.Member(id: $0.key, displayName: tx.records.accounts[$0.key]?.displayName, role: $0.value.role) }
            return HouseholdMembers(household: household, members: members)
        }

        func replace(_ household: Household) async throws {
            tx.update { records in records.households[household.id] = household }
        }

        func insert(_ link: DiaryLink, owner: UUID) async throws {
            try tx.update { records in
                guard records.diaryLinks[link.id] == nil else { throw InMemoryLibraries.DuplicateID(id: link.id) }
                records.diaryLinks[link.id] = .init(owner: owner, value: link)
            }
        }

        func diaryLinks(of owner: UUID, now: Date) async throws -> [DiaryLink] {
            tx.records.diaryLinks.values.filter { $0.owner == owner && $0.value.isOpen(at: now) }.map(\.value)
                .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
        }

        func diaryLink(tokenHash: String, now: Date) async throws -> (link: DiaryLink, owner: UUID)? {
            tx.records.diaryLinks.values.first { $0.value.tokenHash == tokenHash && $0.value.isOpen(at: now) }.map { ($0.value, $0.owner) }
        }

        func deleteDiaryLink(_ id: UUID, owner: UUID) async throws -> Bool {
            tx.update { records in
                guard records.diaryLinks[id]?.owner == owner else { return false }
                records.diaryLinks[id] = nil
                return true
            }
        }

        func insert(_ feed: CalendarFeed, owner: UUID) async throws {
            try tx.update { records in
                guard records.calendarFeeds[feed.id] == nil else { throw InMemoryLibraries.DuplicateID(id: feed.id) }
                records.calendarFeeds[feed.id] = .init(owner: owner, value: feed)
            }
        }

        func calendarFeeds(of owner: UUID) async throws -> [CalendarFeed] {
            tx.records.calendarFeeds.values.filter { $0.owner == owner }.map(\.value)
                .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
        }

        func insert(_ key: APIKey, owner: UUID) async throws {
            try tx.update { records in
                guard records.apiKeys[key.id] == nil else { throw InMemoryLibraries.DuplicateID(id: key.id) }
                records.apiKeys[key.id] = .init(owner: owner, value: key)
            }
        }

        func apiKeys(of owner: UUID, now: Date) async throws -> [APIKey] {
            tx.records.apiKeys.values.filter { $0.owner == owner && $0.value.isOpen(at: now) }.map(\.value)
                .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
        }

        func apiKey(tokenHash: String, now: Date) async throws -> (key: APIKey, owner: UUID)? {
            tx.records.apiKeys.values.first { $0.value.tokenHash == tokenHash && $0.value.isOpen(at: now) }.map { ($0.value, $0.owner) }
        }

        func touchAPIKey(_ id: UUID, at: Date) async throws {
            tx.update { records in records.apiKeys[id]?.value.lastUsedAt = at }
        }

        func deleteAPIKey(_ id: UUID, owner: UUID) async throws -> Bool {
            tx.update { records in
                guard records.apiKeys[id]?.owner == owner else { return false }
                records.apiKeys[id] = nil
                return true
            }
        }

        func calendarFeed(tokenHash: String) async throws -> (feed: CalendarFeed, owner: UUID)? {
            tx.records.calendarFeeds.values.first { $0.value.tokenHash == tokenHash }.map { ($0.value, $0.owner) }
        }

        func deleteCalendarFeed(_ id: UUID, owner: UUID) async throws -> Bool {
            tx.update { records in
                guard records.calendarFeeds[id]?.owner == owner else { return false }
                records.calendarFeeds[id] = nil
                return true
            }
        }
    }
}
