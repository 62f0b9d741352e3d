import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Settings › Invite someone: the owner makes one-time links that create an account
/// while sign-up is closed, sees those waiting and revokes them. The use case decides who may
/// (``InviteMember``); this page only presents.
struct WebInvitationsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.invitations, use: page)
        routes.post(SiteURL.invitations, use: create)
        routes.post(SiteURL.revokeInvitation(SiteURL.anyID), use: revoke)
    }

    private func render(_ req: Request, link: String? = nil, message: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let user = try req.webUser
        let waiting = try await req.inviteMember.waiting(for: try user.requireID())
        return InvitationsPage(isOwner: waiting.isOwner, open: waiting.open, link: link, message: message, zone: user.zone)
            .render(layout: req.layout("Invite someone", .settings)).response(status: status)
    }

    @Sendable func page(req: Request) async throws -> Response { try await render(req) }

    @Sendable func create(req: Request) async throws -> Response {
        let link: String
        do {
            link = try await req.makeInvitation(by: try req.webUser.requireID()).link
        } catch let refusal as Refusal {
            let error = AppError(refusal)
            return try await render(req, message: error.problem.detail, status: error.status)
        }
        // Shown once, on this answer only.
        return try await render(req, link: link, status: .created)
    }

    @Sendable func revoke(req: Request) async throws -> Response {
        guard let id = req.parameters.get("id", as: UUID.self) else { throw Abort(.notFound) }
        do {
            guard try await req.inviteMember.revoke(id, by: try req.webUser.requireID()) else { throw Abort(.notFound) }
        } catch let refusal as Refusal {
            let error = AppError(refusal)
            return try await render(req, message: error.problem.detail, status: error.status)
        }
        req.flash("The invitation link is revoked: it no longer creates an account.")
        return req.redirect(to: SiteURL.invitations.path, redirectType: .normal)
    }
}
