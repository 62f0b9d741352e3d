import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Settings › Invite someone (issue 27): the owner makes one-time links that create an account
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
        let token = Tokens.generate()
        do {
            _ = try await req.inviteMember(by: try req.webUser.requireID(), tokenHash: Tokens.hash(token))
        } catch let refusal as Refusal {
            let error = AppError(refusal)
            return try await render(req, message: error.problem.detail, status: error.status)
        }
        // Shown once, on this answer only: only its hash is kept.
        let link = req.publicBaseURL + SiteURL.signup(invite: token).path
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

struct InvitationsPage {
    var isOwner: Bool
    var open: [Invitation]
    var link: String?
    var message: String?
    var zone: TimeZone

    func render(layout: Layout) -> HTML {
        let format = Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone)
        let rows = open.map { invitation in
            HTML("""
            <li class="invitation"><span>Made \(invitation.createdAt.formatted(format)) · good until \(invitation.expiresAt.formatted(format))</span>
              <form method="post" action="\(SiteURL.revokeInvitation(invitation.id).path)">\(Layout.csrfField(layout.csrf ?? ""))
                <button class="button small" type="submit">Revoke</button></form></li>
            """)
        }.joined()
        return layout.render("""
        <section class="card narrow">
          <h1>Invite someone</h1>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          \(if: !isOwner, HTML("<p>\(Invitation.onlyTheOwner)</p>"))
          \(if: isOwner, HTML("""
          <p>An invitation is a link that creates one account on this server, even while sign-up is closed. It works once, for \(Int(Invitation.lifetime / 86_400)) days. Send it to the person privately.</p>
          \(link.map { link in HTML("""
            <div class="field invitation-link"><label for="invitation-link">The link (shown only now)</label>
              <input id="invitation-link" readonly value="\(link)" data-select-on-focus>
              <p class="hint">Copy it now: Forkcast keeps only a fingerprint of it and cannot show it again.</p></div>
            """) })
          <form method="post" action="\(SiteURL.invitations.path)">\(Layout.csrfField(layout.csrf ?? ""))
            <button class="button primary" type="submit" id="make-invitation">Make an invitation link</button></form>
          <h2>Waiting</h2>
          \(open.isEmpty ? HTML("<p class=\"muted\" id=\"no-invitations\">No links waiting.</p>") : HTML("<ul class=\"invitations\">\(rows)</ul>"))
          """))
          <p class="button-row"><a class="button subtle" href="\(SiteURL.settings.path)">Back to Settings</a></p>
        </section>
        """)
    }
}
