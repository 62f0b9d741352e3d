import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Settings › Invite someone: the links waiting, the one just made (shown once), and the form.
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
          <p>An invitation is a link that creates one account on this server, even while sign-up is closed. It works once, for \(InvitationRules.lifetimeDays) days. Send it to the person privately.</p>
          \(link.map { Self.shownOnce($0, id: "invitation-link") })
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

extension InvitationsPage {
    /// A link just made, shown this once with a way to share it: only a hash of its token is kept
    /// (invitations, coach links).
    static func shownOnce(_ link: String, id: String) -> HTML {
        HTML("""
        <div class="field invitation-link"><label for="\(id)">The link (shown only now)</label>
          <input id="\(id)" readonly value="\(link)" data-select-on-focus>
          <button class="button small" type="button" data-share-from="\(id)">Share link</button>
          <p class="hint">Copy it now: Forkcast keeps only a fingerprint of it and cannot show it again.</p></div>
        """)
    }
}
