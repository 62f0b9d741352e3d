import ForkcastCore
import Foundation

/// Settings › Keys for other programs: the form that makes a key, the key just made (shown once),
/// and the keys there are with when each was last used.
struct APIKeysPage {
    struct Form {
        var name = ""
        var access = APIKey.Access.read
        var areas: Set<APIKey.Area> = [.plan]
        var expires: String
    }

    var keys: [APIKey]
    var form: Form
    var made: String?
    var errors: ValidationError?
    var message: String?
    var zone: TimeZone

    static let areaNames: [APIKey.Area: String] = [.diary: "Diary (and history, photos, weights, goals)", .plan: "Plan (and meals, foods)",
                                                   .shopping: "Shopping lists", .pantry: "Pantry"]

    private func day(_ date: Date) -> String { date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: zone)) }

    func render(layout: Layout) -> HTML {
        let csrf = Layout.csrfField(layout.csrf ?? "")
        let rows = keys.map { key in
            let used = key.lastUsedAt.map { "last used " + $0.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone)) } ?? "never used"
            return HTML("""
            <li class="invitation"><span><strong>\(key.name)</strong> · \(key.access == .write ? "read and write" : "read only") · \(key.areas.sorted().map(\.rawValue).joined(separator: ", ")) · until \(day(key.expiresAt)) · \(used)</span>
              <form method="post" action="\(SiteURL.revokeAPIKey(key.id).path)">\(csrf)
                <button class="button small" type="submit">Revoke</button></form></li>
            """)
        }.joined()
        let access = APIKey.Access.allCases.map { choice in
            HTML("<label class=\"check\"><input type=\"radio\" name=\"access\" value=\"\(choice.rawValue)\"\(if: form.access == choice, " checked")> \(choice == .read ? "Read only" : "Read and write")</label>")
        }.joined()
        let areas = APIKey.Area.allCases.map { area in
            HTML("<label class=\"check\"><input type=\"checkbox\" name=\"areas\" value=\"\(area.rawValue)\"\(if: form.areas.contains(area), " checked")> \(Self.areaNames[area] ?? area.rawValue)</label>")
        }.joined()
        let areasError = errors?.message(for: "areas")
        return layout.render("""
        <section class="card narrow">
          <h1>Keys for other programs</h1>
          <p>A key lets a script, Home Assistant or an assistant use the API as you, without your password: only the areas you tick, only reading unless you allow writing, until it expires or you revoke it. A key cannot make keys, change how you sign in, or touch your account and household.</p>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          \(made.map { HTML("""
            <div class="field invitation-link"><label for="api-key">The key (shown only now)</label>
              <input id="api-key" readonly value="\($0)" data-select-on-focus>
              <p class="hint">Send it as <code>Authorization: Bearer …</code>. Copy it now: Forkcast keeps only a fingerprint of it.</p></div>
            """) })
          <form method="post" action="\(SiteURL.apiKeys.path)" id="api-key-form">\(csrf)
            \(FormField(name: "name", label: "Name", value: form.name, error: errors?.message(for: "name"), required: true).render)
            <fieldset class="field"><legend>It may</legend>\(access)</fieldset>
            <fieldset class="field\(if: areasError != nil, " has-error")"><legend>It reaches</legend>\(areas)
              \(areasError.map { HTML("<p class=\"field-error\">\($0)</p>") })</fieldset>
            \(FormField(name: "expires", label: "Works until", value: form.expires, error: errors?.message(for: "expiresAt"), type: "date", required: true).render)
            <button class="button primary" type="submit" id="make-api-key">Make a key</button></form>
          <h2>Keys</h2>
          \(keys.isEmpty ? HTML("<p class=\"muted\" id=\"no-api-keys\">No keys.</p>") : HTML("<ul class=\"invitations\" id=\"api-keys\">\(rows)</ul>"))
          <p class="button-row"><a class="button subtle" href="\(SiteURL.settings.path)">Back to Settings</a></p>
        </section>
        """)
    }
}
