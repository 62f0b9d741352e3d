import ForkcastCore
import Foundation

/// Who is in a household: the owner's invitations, joining with one, leaving, removing a member and
/// handing ownership over — the same from the API and Settings › Household. The rules are
/// ``HouseholdMembers``'; what moves with a person is the storage's (``AccountRecords/join(_:household:now:)``).
public struct HouseholdMembership: Sendable {
    let accounts: any Accounts
    let now: Date

    public init(accounts: any Accounts, now: Date) {
        self.accounts = accounts
        self.now = now
    }

    /// What a person holding an invitation is asked before joining.
    public struct Preview: Sendable {
        public var household: HouseholdMembers
        /// What of theirs joins the household's.
        public var share: HouseholdShare
        /// Why they cannot join (nil: they can).
        public var refusal: String?
    }

    // MARK: Invitations

    /// A one-time link into `person`'s household (its owner only; at most ``Invitation/openLimit`` waiting).
    public func invite(by person: UUID, tokenHash: String) async throws -> Invitation {
        let now = now
        return try await accounts.write { records in
            let found = try await Self.owned(by: person, records)
            try await records.lockOwner(found.household.id)
            guard try await records.openInvitations(now: now, tokenHash: nil, household: found.household.id).count < Invitation.openLimit else {
                throw Refusal.conflict(Invitation.tooMany)
            }
            let invitation = Invitation(id: UUID.timeOrdered(), tokenHash: tokenHash, createdBy: person, createdAt: now,
                                        expiresAt: now.addingTimeInterval(Invitation.lifetime), household: found.household.id)
            try await records.insert(invitation)
            return invitation
        }
    }

    /// The household's links waiting, newest first; none for a member who is not its owner.
    public func invitations(for person: UUID) async throws -> [Invitation] {
        let now = now
        return try await accounts.read { records in
            guard let found = try await records.household(of: person), found.isOwner(person) else { return [] }
            return try await records.openInvitations(now: now, tokenHash: nil, household: found.household.id)
                .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
        }
    }

    /// Revokes a waiting link of the household; false when it has none with this id.
    public func revoke(_ id: UUID, by person: UUID) async throws -> Bool {
        let now = now
        return try await accounts.write { records in
            let found = try await Self.owned(by: person, records)
            guard try await records.openInvitations(now: now, tokenHash: nil, household: found.household.id).contains(where: { $0.id == id }) else { return false }
            return try await records.deleteInvitation(id)
        }
    }

    // MARK: Joining

    /// The household an open link leads to and what of `person`'s would join it; nil for a link
    /// used, revoked, expired or not a household's.
    public func preview(tokenHash: String, for person: UUID) async throws -> Preview? {
        let now = now
        return try await accounts.read { records in
            guard let (invitation, target) = try await Self.open(tokenHash, now: now, records) else { return nil }
            let own = try await records.household(of: person)
            let refusal = own?.refusalToJoin(target.household.id, otherCount: target.members.count)
            return Preview(household: target, share: try await records.share(of: person), refusal: invitation.createdBy == person && refusal == nil ? HouseholdMembers.alreadyIn : refusal)
        }
    }

    /// `person` joins the household of the open link `tokenHash`, which is used up: their meals,
    /// foods, meal types, plan and lists become the household's. Throws ``Refusal/notFound(_:)``
    /// for a link not open and ``Refusal/conflict(_:)`` when they cannot join (``HouseholdMembers/refusalToJoin(_:otherCount:)``).
    public func join(_ person: UUID, tokenHash: String) async throws -> HouseholdMembers {
        let now = now
        return try await accounts.write { records in
            guard let (invitation, target) = try await Self.open(tokenHash, now: now, records) else { throw Refusal.notFound(Invitation.notGood) }
            try await records.lockOwner(target.household.id)
            if let own = try await records.household(of: person) {
                try await records.lockOwner(own.household.id)
                if let refusal = own.refusalToJoin(target.household.id, otherCount: target.members.count) { throw Refusal.conflict(refusal) }
            }
            guard try await records.markInvitationUsed(invitation.id, by: person, at: now) else { throw Refusal.notFound(Invitation.notGood) }
            try await records.join(person, household: target.household.id, now: now)
            return try await records.household(of: person)!
        }
    }

    // MARK: Leaving

    /// `person` leaves their household for one of their own, with a copy of its library (meals,
    /// foods, meal types), not its plan or lists. The new household.
    public func leave(_ person: UUID) async throws -> HouseholdMembers {
        let now = now
        return try await accounts.write { records in
            guard let found = try await records.household(of: person) else { throw Refusal.notFound(HouseholdMembers.notAMember) }
            try await records.lockOwner(found.household.id)
            if let refusal = found.refusalToLeave(person) { throw Refusal.conflict(refusal) }
            return try await Self.separate(person, from: found, now: now, records)
        }
    }

    /// The owner takes `member` out of the household; they get a household of their own as on leaving.
    public func remove(_ member: UUID, by person: UUID) async throws -> HouseholdMembers {
        let now = now
        return try await accounts.write { records in
            guard let found = try await records.household(of: person) else { throw Refusal.notAllowed(HouseholdMembers.ownerOnly) }
            try await records.lockOwner(found.household.id)
            if let refusal = found.refusalToRemove(member, by: person) {
                throw refusal == HouseholdMembers.notAMember ? Refusal.notFound(refusal) : refusal == HouseholdMembers.ownerOnly ? Refusal.notAllowed(refusal) : Refusal.conflict(refusal)
            }
            _ = try await Self.separate(member, from: found, now: now, records)
            return try await records.household(of: person)!
        }
    }

    /// The owner makes `member` the owner and becomes a member.
    public func handOver(to member: UUID, by person: UUID) async throws -> HouseholdMembers {
        try await accounts.write { records in
            guard let found = try await records.household(of: person) else { throw Refusal.notAllowed(HouseholdMembers.ownerOnly) }
            try await records.lockOwner(found.household.id)
            if let refusal = found.refusalToHandOver(to: member, by: person) {
                throw refusal == HouseholdMembers.notAMember ? Refusal.notFound(refusal) : refusal == HouseholdMembers.ownerOnly ? Refusal.notAllowed(refusal) : Refusal.conflict(refusal)
            }
            try await records.setRole(member, .owner)
            try await records.setRole(person, .member)
            return try await records.household(of: person)!
        }
    }

    // MARK: Shared steps

    private static func owned(by person: UUID, _ records: any AccountRecords) async throws -> HouseholdMembers {
        guard let found = try await records.household(of: person), found.isOwner(person) else { throw Refusal.notAllowed(HouseholdMembers.ownerOnly) }
        return found
    }

    private static func open(_ tokenHash: String, now: Date, _ records: any AccountRecords) async throws -> (Invitation, HouseholdMembers)? {
        guard let invitation = try await records.openInvitations(now: now, tokenHash: tokenHash, household: nil).first,
              let household = invitation.household, let target = try await records.members(of: household) else { return nil }
        return (invitation, target)
    }

    private static func separate(_ person: UUID, from found: HouseholdMembers, now: Date, _ records: any AccountRecords) async throws -> HouseholdMembers {
        let name = Household.defaultName(for: found.members.first { $0.id == person }?.displayName)
        let own = Household(id: UUID.timeOrdered(), name: name, createdAt: now, updatedAt: now)
        // What they added stays: it is held by the owner from now on (another member, when the owner is the one going).
        let keeper = found.members.first { $0.role == .owner && $0.id != person }?.id ?? found.members.first { $0.id != person }!.id
        try await records.separate(person, keeper: keeper, into: own, now: now)
        return try await records.household(of: person)!
    }
}
