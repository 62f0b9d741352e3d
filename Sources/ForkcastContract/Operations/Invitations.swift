import ForkcastCore
import Foundation

/// An invitation link waiting to be used, as the API answers it. The link (with its token) is in the
/// answer that made it only: the server keeps a hash of the token, never the token.
public struct InvitationAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var createdAt: Date
    public var expiresAt: Date
    /// The sign-up link to give the person (`…/signup?invite=…`): in the answer that made it only.
    public var link: String?
    /// The link's token, for a client that signs up through `POST /api/v1/auth/register`'s
    /// `invitation`: in the answer that made it only.
    public var token: String?

    public init(id: UUID, createdAt: Date, expiresAt: Date, link: String? = nil, token: String? = nil) {
        self.id = id
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.link = link
        self.token = token
    }

    public static let schemaName = "Invitation"
    public static var fieldNotes: [String: FieldNote] {
        ["link": FieldNote("The sign-up link to give the person; in the answer that made it only", example: "https://forkcast.example/signup?invite=3q2-7wEAAAA"),
         "token": FieldNote("The link's token, for POST /api/v1/auth/register's invitation; in the answer that made it only")]
    }
}

/// `/api/v1/invitations`: the server's owner (the account created first) lets people create an
/// account while sign-up is closed, one link each (Settings › Invite someone on the web).
public enum Invitations {
    static let ownerOnly = Outcome(403, "Not this server's owner (the account created first); or a web session without a valid X-CSRF-Token")

    public enum List: APIOperation {
        public typealias Answer = [InvitationAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/invitations", "listInvitations", tag: "auth",
            summary: "The invitation links waiting to be used (unused, unrevoked, unexpired), newest first; the owner only",
            success: Outcome(200, "Invitations waiting"),
            failures: [.notSignedIn, Outcome(403, "Not this server's owner (the account created first)"), .unavailable])
    }

    public enum Create: APIOperation {
        public typealias Answer = InvitationAnswer
        public static let spec = OperationSpec(.post, "/api/v1/invitations", "createInvitation", tag: "auth",
            summary: "Make a one-time sign-up link, good for \(InvitationRules.lifetimeDays) days; its link and token are in this answer only; the owner only",
            success: Outcome(201, "Made"),
            failures: [.notSignedIn, ownerOnly, Outcome(409, "\(InvitationRules.openLimit) invitations are waiting already"), .unavailable])
    }

    public enum Revoke: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/invitations/{id}", "revokeInvitation", tag: "auth",
            summary: "Revoke a link waiting to be used: it no longer creates an account; the owner only",
            success: Outcome(204, "Revoked"),
            failures: [Outcome(404, "No such invitation, or it has been used"), .notSignedIn, ownerOnly, .unavailable],
            parameterNotes: ["id": FieldNote("The invitation's id")])
    }
}
