import ForkcastCore
import Foundation

/// Account settings: name, time zone ("today" follows it), currency, and the way to goals and weights.
struct SettingsPage {
    let user: UserModel
    var message: String?

    /// "America/Argentina/Buenos_Aires" → "Argentina, Buenos Aires": a zone named by its place.
    static func place(_ zone: String) -> String {
        let parts = zone.split(separator: "/").dropFirst()
        return (parts.isEmpty ? zone : parts.reversed().joined(separator: ", ")).replacingOccurrences(of: "_", with: " ")
    }

    func render(layout: Layout) -> HTML {
        // Grouped by region (Europe, America, …), each named by its place ("Europe/Paris" is Paris),
        // and searchable by typing.
        let regions = Dictionary(grouping: TimeZone.knownTimeZoneIdentifiers) { z in z.contains("/") ? String(z.prefix { $0 != "/" }) : "Other" }
        let options = regions.keys.sorted().map { region in
            let zones = regions[region]!.sorted { Self.place($0) < Self.place($1) }
            return HTML("<optgroup label=\"\(region)\">\(zones.map { z in HTML("<option value=\"\(z)\"\(if: z == user.timeZone, " selected")>\(Self.place(z)) (\(region))</option>") }.joined())</optgroup>")
        }.joined()
        return layout.render("""
        <section class="card narrow">
          <h1>Settings</h1>
          \(message.map { HTML("<p class=\"flash\" role=\"status\">\($0)</p>") })
          <form method="post" action="\(SiteURL.settings.path)" class="stack">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "displayName", label: "Your name", value: user.displayName ?? "", autocomplete: "name").render)
            <div class="field"><label for="field-timeZone">Time zone</label>
              <select id="field-timeZone" name="timeZone" data-searchable="time zones">\(options)</select>
              <p class="hint">“Today” in the diary and the planner follows this time zone.</p></div>
            <div class="field"><label for="field-currency">Currency for prices</label>
              <select id="field-currency" name="currency">\(Currency.common.map { c in HTML("<option value=\"\(c)\"\(if: c == user.currency, " selected")>\(c)</option>") }.joined())\(if: !Currency.common.contains(user.currency), HTML("<option value=\"\(user.currency)\" selected>\(user.currency)</option>"))</select></div>
            <button class="button primary" type="submit">Save</button>
          </form>
          <h2>Your household</h2>
          <p class="button-row"><a class="button" href="\(SiteURL.household.path)">Household</a></p>
          <h2>Your body and goals</h2>
          <p class="button-row"><a class="button" href="\(SiteURL.goals.path)">Goals and weights</a> <a class="button" href="\(SiteURL.mealTypes.path)">Meal types</a></p>
          <h2>Signing in</h2>
          <p class="button-row"><a class="button" href="\(SiteURL.signInMethods.path)">Sign-in methods</a> <a class="button" href="\(SiteURL.invitations.path)">Invite someone</a></p>
          <h2>Your data</h2>
          <p class="button-row"><a class="button" href="\(SiteURL.accountData.path)">Download, import or delete everything</a></p>
          <h2>Apps and scripts</h2>
          <p class="button-row"><a class="button" href="\(SiteURL.calendarFeeds.path)">The plan in your calendar</a> <a class="button" href="\(SiteURL.apiKeys.path)">Keys for other programs</a> <a class="button" href="\(SiteURL.apiDocs.path)">API reference</a></p>
          <p class="muted">Signed in as \(user.email).</p>
          <form method="post" action="\(SiteURL.logout.path)">
            \(Layout.csrfField(layout.csrf ?? ""))
            <button class="button" type="submit">Sign out</button>
          </form>
        </section>
        """)
    }
}
