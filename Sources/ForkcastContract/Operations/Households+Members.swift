import ForkcastCore
import Foundation

/// `POST /api/v1/household/join`.
public struct JoinHouseholdInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var token: String

    public init(token: String) { self.token = token }

    public static let schemaName = "JoinHouseholdInput"
    public static var fieldNotes: [String: FieldNote] {
        ["token": FieldNote("The invitation's token (the `invite` of its link)", minLength: 1, maxLength: 200)]
    }
}

/// `PUT /api/v1/household/members/{userId}`: hands ownership over.
public struct MemberRoleInput: Codable, Sendable, Hashable, SchemaDocumented {
    /// `owner`: the member becomes the owner, and the owner a member.
    public var role: String

    public init(role: String) { self.role = role }

    public static let schemaName = "MemberRoleInput"
    public static var fieldNotes: [String: FieldNote] {
        ["role": FieldNote("owner: hand ownership to this member (you become a member)", schema: ["type": "string", "enum": ["owner"]])]
    }
}

public struct MemberParameter: Codable, Sendable, Hashable {
    public var userId: UUID
    public init(_ userId: UUID) { self.userId = userId }
}

extension Households {
    static let ownerOnly = Outcome(403, "Not the household's owner; or a web session without a valid X-CSRF-Token")

    public enum ListInvitations: APIOperation {
        public typealias Answer = [InvitationAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/household/invitations", "listHouseholdInvitations", tag: "household",
            summary: "The household's invitation links waiting to be used, newest first; empty for a member who is not the owner",
            success: Outcome(200, "Invitations waiting"), failures: Outcome.read)
    }

    public enum Invite: APIOperation {
        public typealias Answer = InvitationAnswer
        public static let spec = OperationSpec(.post, "/api/v1/household/invitations", "createHouseholdInvitation", tag: "household",
            summary: "Make a one-time link into the household, good for \(InvitationRules.lifetimeDays) days (also while sign-up is closed); its link and token are in this answer only; the owner only",
            success: Outcome(201, "Made"),
            failures: [.notSignedIn, ownerOnly, Outcome(409, "\(InvitationRules.openLimit) invitations are waiting already"), .unavailable])
    }

    public enum RevokeInvitation: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/household/invitations/{id}", "revokeHouseholdInvitation", tag: "household",
            summary: "Revoke a link waiting to be used; the owner only", success: Outcome(204, "Revoked"),
            failures: [Outcome(404, "No such invitation waiting"), .notSignedIn, ownerOnly, .unavailable],
            parameterNotes: ["id": FieldNote("The invitation's id")])
    }

    public enum Join: APIOperation {
        public typealias Body = JoinHouseholdInput
        public typealias Answer = HouseholdAnswer
        public static let spec = OperationSpec(.post, "/api/v1/household/join", "joinHousehold", tag: "household",
            summary: "Join the household of an invitation: your meals, foods, meal types, plan and lists become the household's (ids kept, nothing merged but meal types of the same name); your diary stays yours",
            success: Outcome(200, "The household you are in now"),
            failures: [Outcome(404, "The link has been used, revoked or has expired"),
                       Outcome(409, "You share a household with others (leave it first), or are in this one already")] + Outcome.writeJSON)
    }

    public enum Leave: APIOperation {
        public typealias Answer = HouseholdAnswer
        public static let spec = OperationSpec(.post, "/api/v1/household/leave", "leaveHousehold", tag: "household",
            summary: "Leave the household for one of your own, with a copy of its meals, foods and meal types (not its plan or lists)",
            success: Outcome(200, "Your own household"),
            failures: [Outcome(409, "You own the household and others are in it (hand ownership over first), or you are alone in it")] + Outcome.write)
    }

    public enum RemoveMember: APIOperation {
        public typealias Parameters = MemberParameter
        public typealias Answer = HouseholdAnswer
        public static let spec = OperationSpec(.delete, "/api/v1/household/members/{userId}", "removeHouseholdMember", tag: "household",
            summary: "Take a member out of the household; they get one of their own with a copy of its library; the owner only",
            success: Outcome(200, "The household without them"),
            failures: [Outcome(404, "Nobody with that id is in your household"), ownerOnly, Outcome(409, "That is you: leave instead"),
                       .notSignedIn, .unavailable],
            parameterNotes: ["userId": FieldNote("The member's account id")])
    }

    public enum SetRole: APIOperation {
        public typealias Parameters = MemberParameter
        public typealias Body = MemberRoleInput
        public typealias Answer = HouseholdAnswer
        public static let spec = OperationSpec(.put, "/api/v1/household/members/{userId}", "setHouseholdMemberRole", tag: "household",
            summary: "Hand ownership to a member (role owner); you become a member; the owner only",
            success: Outcome(200, "The household with its new owner"),
            failures: [Outcome(404, "Nobody with that id is in your household"), ownerOnly, Outcome(409, "That is you: you own it already")]
                + Outcome.writeJSON,
            parameterNotes: ["userId": FieldNote("The member's account id")])
    }
}
