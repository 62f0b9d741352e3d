import ForkcastApp
import ForkcastCore
import Foundation

/// Settings › Household: its name, its members, and what the signed-in person may do there: the
/// owner renames it, invites (the link shown once), revokes, removes and hands over; anyone with
/// others in it may leave.
struct HouseholdPage {
    var found: HouseholdMembers
    /// The signed-in person.
    var me: UUID
    /// The owner's links waiting.
    var invitations: [Invitation] = []
    /// A link just made, shown this once.
    var link: String?
    /// What was typed, shown again with `error`.
    var typed: String?
    var error: String?
    var zone: TimeZone = .gmt

    func render(layout: Layout) -> HTML {
        let isOwner = found.isOwner(me), csrf = Layout.csrfField(layout.csrf ?? "")
        let members = found.members.map { member in
            let name = Household.name(of: member, among: found.members, me: me)
            return HTML("""
            <li class="member"><span class="member-name">\(member.id == me && name != "You" ? "\(name) (you)" : name)</span>
              <span class="muted">\(member.role == .owner ? "Owner" : "Member")</span>
              \(if: isOwner && member.id != me, HTML("""
              <span class="member-actions">
              <form method="post" action="\(SiteURL.handOver(member.id).path)" class="inline" data-confirm="Make \(name) the owner? You become a member.">\(csrf)
                <button class="button small" type="submit">Make owner</button></form>
              <form method="post" action="\(SiteURL.removeMember(member.id).path)" class="inline" data-confirm="Remove \(name)? They get a household of their own with a copy of the meals, foods and meal types.">\(csrf)
                <button class="button small danger" type="submit">Remove</button></form></span>
              """))</li>
            """)
        }.joined()
        let name = FormField(name: "name", label: "Name", value: typed ?? found.household.name, error: error, required: true,
                             maxLength: Household.maximumNameLength)
        return layout.render("""
        <section class="card narrow">
          <h1 class="household-name">\(found.household.name)</h1>
          <p>The people of a household share its meals, foods, meal types, plan and shopping lists; each keeps a diary of their own, which nobody else sees.</p>
          \(if: error != nil && !isOwner, HTML("<p class=\"form-error\" role=\"alert\">\(error ?? "")</p>"))
          \(if: isOwner, HTML("""
          <form method="post" action="\(SiteURL.household.path)" id="household-name">\(csrf)
            \(name.render)
            <button class="button primary" type="submit">Rename</button></form>
          """))
          <h2>Members</h2>
          <ul class="members">\(members)</ul>
          \(if: isOwner, invite(csrf: csrf))
          \(leave(csrf: csrf))
          <p class="button-row"><a class="button subtle" href="\(SiteURL.settings.path)">Back to Settings</a></p>
        </section>
        """)
    }

    private func invite(csrf: HTML) -> HTML {
        let format = Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone)
        let rows = invitations.map { invitation in
            HTML("""
            <li class="invitation"><span>Made \(invitation.createdAt.formatted(format)) · good until \(invitation.expiresAt.formatted(format))</span>
              <form method="post" action="\(SiteURL.revokeHouseholdInvite(invitation.id).path)">\(csrf)
                <button class="button small" type="submit">Revoke</button></form></li>
            """)
        }.joined()
        return HTML("""
        <h2>Invite someone</h2>
        <p>A link lets one person into the household, for \(InvitationRules.lifetimeDays) days: someone new signs up through it (even while sign-up is closed); someone with an account joins with what they have.</p>
        \(link.map { InvitationsPage.shownOnce($0, id: "household-link") })
        <form method="post" action="\(SiteURL.householdInvite.path)">\(csrf)
          <button class="button" type="submit" id="make-household-link">Make an invitation link</button></form>
        \(if: !invitations.isEmpty, HTML("<ul class=\"invitations\" id=\"household-invitations\">\(rows)</ul>"))
        """)
    }

    private func leave(csrf: HTML) -> HTML {
        guard found.members.count > 1 else { return HTML("") }
        if let refusal = found.refusalToLeave(me) { return HTML("<p class=\"muted\" id=\"leave-note\">\(refusal)</p>") }
        return HTML("""
        <form method="post" action="\(SiteURL.leaveHousehold.path)" data-confirm="Leave \(found.household.name)? You get a household of your own with a copy of its meals, foods and meal types, not its plan or lists.">\(csrf)
          <button class="button danger" type="submit" id="leave-household">Leave the household</button></form>
        """)
    }
}

/// The page an invitation into a household opens: signed out, a way to sign up or in; signed in,
/// what joining moves, and the button.
struct JoinHouseholdPage {
    var token: String
    /// nil: the link is used, revoked or expired.
    var preview: HouseholdMembership.Preview?
    var signedIn: Bool

    func render(layout: Layout) -> HTML {
        guard let preview else {
            return layout.render("<section class=\"card narrow\"><h1>Invitation</h1><p id=\"join-refused\">\(Invitation.notGood)</p></section>")
        }
        let name = preview.household.household.name
        guard signedIn else {
            let next = SiteURL.joinHousehold(invite: token).path
            return layout.render("""
            <section class="card narrow"><h1>Join \(name)</h1>
              <p>You are invited to share a kitchen: its meals, plan and shopping lists. Your diary stays your own.</p>
              <p class="button-row"><a class="button primary" id="join-signup" href="\(SiteURL.signup(invite: token).path)">Create an account</a>
              <a class="button" href="\(SiteURL.login.path)?next=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")">I have an account: sign in</a></p>
            </section>
            """)
        }
        if let refusal = preview.refusal {
            return layout.render("<section class=\"card narrow\"><h1>Join \(name)</h1><p id=\"join-refused\">\(refusal)</p></section>")
        }
        return layout.render("""
        <section class="card narrow"><h1>Join \(name)</h1>
          <p id="join-moves">Your \(preview.share.summary) join the household's: everyone in it sees and changes them. Nothing is merged (two meals of one name stay two), except meal types of the same name, which become one.</p>
          <p>Your diary, goals, weights and body profile stay yours: nobody in the household sees them.</p>
          <form method="post" action="\(SiteURL.joinHousehold(invite: token).path)">\(Layout.csrfField(layout.csrf ?? ""))
            <button class="button primary" type="submit" id="join-household">Join \(name)</button></form>
        </section>
        """)
    }
}
