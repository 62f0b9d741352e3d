import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/invitations`, as ForkcastContract's ``Invitations`` operations: the owner's one-time
/// sign-up links, through the same use case as Settings › Invite someone (``InviteMember``).
enum InvitationsController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Invitations.List.self) { req, _, _ in
            let waiting = try await req.inviteMember.waiting(for: try req.requireUserID())
            guard waiting.isOwner else { throw AppError.forbidden(Invitation.onlyTheOwner) }
            return waiting.open.map(InvitationAnswer.init)
        }
        routes.on(Invitations.Create.self) { req, _, _ in
            InvitationAnswer(made: try await req.makeInvitation(by: try req.requireUserID()))
        }
        routes.on(Invitations.Revoke.self) { req, parameters, _ in
            guard try await req.inviteMember.revoke(parameters.id, by: try req.requireUserID()) else {
                throw AppError.notFound("No invitation with id \(parameters.id) is waiting.")
            }
            return Nothing()
        }
    }
}

extension InvitationAnswer {
    init(_ invitation: Invitation) {
        self.init(id: invitation.id, createdAt: invitation.createdAt, expiresAt: invitation.expiresAt)
    }

    /// A new invitation of either kind: its link and token are shown in this answer only.
    init(made: (invitation: Invitation, token: String, link: String)) {
        self.init(id: made.invitation.id, createdAt: made.invitation.createdAt, expiresAt: made.invitation.expiresAt, link: made.link, token: made.token)
    }
}
