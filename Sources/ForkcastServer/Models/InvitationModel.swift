import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

/// An invitation to create an account (``Invitation``); see ``M017_Invitations``.
final class InvitationModel: Model, @unchecked Sendable {
    static let schema = "invitations"

    @ID(key: .id) var id: UUID?
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "created_by") var createdBy: UUID
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "used_by") var usedBy: UUID?
    @OptionalField(key: "used_at") var usedAt: Date?
    /// The household the link leads into; nil for an invitation to create an account (M023).
    @OptionalField(key: "household_id") var household: UUID?
    var properties: [any AnyProperty] { [$id, $tokenHash, $createdBy, $createdAt, $expiresAt, $usedBy, $usedAt, $household] }

    init() {}

    init(_ invitation: Invitation) {
        id = invitation.id
        tokenHash = invitation.tokenHash
        createdBy = invitation.createdBy
        createdAt = invitation.createdAt
        expiresAt = invitation.expiresAt
        household = invitation.household
    }

    var domain: Invitation {
        Invitation(id: id ?? UUID.timeOrdered(), tokenHash: tokenHash, createdBy: createdBy, createdAt: createdAt, expiresAt: expiresAt, household: household)
    }
}
