import ForkcastCore
import Foundation

/// Settings › Your data › Shared with a coach: the form that makes a link, the link just made
/// (shown once), and the links open.
struct CoachLinksPage {
    /// What the form holds: as typed, or the defaults (the last two weeks, good for 30 days, all).
    struct Form {
        var from: String
        var to: String
        var expires: String
        var shows: [DiaryLink.Part]

        init(from: String, to: String, expires: String, shows: [DiaryLink.Part]) {
            (self.from, self.to, self.expires, self.shows) = (from, to, expires, shows)
        }

        init(today: CalendarDate) {
            self.init(from: today.adding(days: -13).iso, to: today.iso, expires: today.adding(days: DiaryLink.defaultLifetimeDays).iso,
                      shows: DiaryLink.Part.allCases)
        }
    }

    var links: [DiaryLink]
    var form: Form
    var made: String?
    var errors: ValidationError?
    var message: String?
    var zone: TimeZone

    static let partNames: [DiaryLink.Part: String] = [.diary: "What you ate, with calories and macros, against your goals",
                                                      .nutrients: "Vitamins, minerals and other nutrients", .weights: "Your weights"]

    /// When a link stops: "through 1 Jan 2027" for one good through a day, "until 1 Jan 2027 at
    /// 9:30" for another time.
    static func until(_ expiresAt: Date, lastDay: CalendarDate?, zone: TimeZone) -> String {
        if let lastDay { return "through " + lastDay.longText }
        return "until " + expiresAt.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: zone))
    }

    func render(layout: Layout) -> HTML {
        let rows = links.map { link in
            HTML("""
            <li class="invitation"><span>\(CalendarDate.rangeText(from: link.from, to: link.to)) · \(link.shows.sorted().map(\.rawValue).joined(separator: ", ")) · \(Self.until(link.expiresAt, lastDay: link.lastDay(in: zone), zone: zone))</span>
              <form method="post" action="\(SiteURL.revokeCoachLink(link.id).path)">\(Layout.csrfField(layout.csrf ?? ""))
                <button class="button small" type="submit">Revoke</button></form></li>
            """)
        }.joined()
        let checks = DiaryLink.Part.allCases.map { part in
            HTML("""
            <label class="check"><input type="checkbox" name="shows" value="\(part.rawValue)"\(if: form.shows.contains(part), " checked")> \(Self.partNames[part] ?? part.rawValue)</label>
            """)
        }.joined()
        let showsError = errors?.message(for: "shows")
        return layout.render("""
        <section class="card narrow">
          <h1>Shared with a coach</h1>
          <p>A link shows part of your diary, read-only, to whoever you give it: a coach or a dietitian. It shows only the days and the parts you choose, never your email or anything of your household, and stops working when it expires or when you revoke it.</p>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          \(made.map { InvitationsPage.shownOnce($0, id: "coach-link") })
          <form method="post" action="\(SiteURL.coachLinks.path)" id="coach-link-form">\(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "from", label: "First day", value: form.from, error: errors?.message(for: "from"), type: "date", required: true).render)
            \(FormField(name: "to", label: "Last day", value: form.to, error: errors?.message(for: "to"), type: "date", required: true).render)
            \(FormField(name: "expires", label: "Works until", value: form.expires, error: errors?.message(for: "expiresAt"), type: "date", required: true).render)
            <fieldset class="field\(if: showsError != nil, " has-error")"><legend>It shows</legend>\(checks)
              \(showsError.map { HTML("<p class=\"field-error\">\($0)</p>") })</fieldset>
            <button class="button primary" type="submit" id="make-coach-link">Make a link</button></form>
          <h2>Links open</h2>
          \(links.isEmpty ? HTML("<p class=\"muted\" id=\"no-coach-links\">No links open.</p>") : HTML("<ul class=\"invitations\" id=\"coach-links\">\(rows)</ul>"))
          <p class="button-row"><a class="button subtle" href="\(SiteURL.accountData.path)">Back to Your data</a></p>
        </section>
        """)
    }
}
