import ForkcastCore
import Foundation

/// Settings › Household: the household's name (a form for its owner) and its members.
struct HouseholdPage {
    var found: HouseholdMembers
    /// The signed-in person.
    var me: UUID
    /// What was typed, shown again with `error`.
    var typed: String?
    var error: String?

    func render(layout: Layout) -> HTML {
        let isOwner = found.role(of: me) == .owner
        let members = found.members.map { member in
            HTML("""
            <li class="member"><span class="member-name">\(member.id == me ? member.displayName.map { "\($0) (you)" } ?? "You" : member.displayName ?? "A member without a name")</span>
              <span class="muted">\(member.role == .owner ? "Owner" : "Member")</span></li>
            """)
        }.joined()
        let name = FormField(name: "name", label: "Name", value: typed ?? found.household.name, error: error, required: true,
                             maxLength: Household.maximumNameLength)
        return layout.render("""
        <section class="card narrow">
          <h1 class="household-name">\(found.household.name)</h1>
          <p>The people of a household will share its meals, foods, meal types, plan and shopping lists; each keeps a diary of their own.</p>
          \(if: isOwner, HTML("""
          <form method="post" action="\(SiteURL.household.path)" id="household-name">\(Layout.csrfField(layout.csrf ?? ""))
            \(name.render)
            <button class="button primary" type="submit">Rename</button></form>
          """))
          <h2>Members</h2>
          <ul class="members">\(members)</ul>
          <p class="button-row"><a class="button subtle" href="\(SiteURL.settings.path)">Back to Settings</a></p>
        </section>
        """)
    }
}
