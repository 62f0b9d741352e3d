import ForkcastCore
import Foundation

/// Settings › The plan in your calendar: making a feed's address (shown once), and the feeds
/// there are, each renewed or removed at once.
struct CalendarFeedsPage {
    var feeds: [CalendarFeed]
    var made: String?
    var message: String?
    var zone: TimeZone

    static let scopeNames: [CalendarFeed.Scope: String] = [.household: "Every meal the household plans", .me: "Only the meals I eat"]

    func render(layout: Layout) -> HTML {
        let csrf = Layout.csrfField(layout.csrf ?? "")
        let rows = feeds.map { feed in
            HTML("""
            <li class="invitation"><span>\(Self.scopeNames[feed.scope] ?? feed.scope.rawValue) · made \(feed.createdAt.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: zone)))</span>
              <span class="button-row"><form method="post" action="\(SiteURL.renewCalendarFeed(feed.id).path)">\(csrf)
                <button class="button small" type="submit">New address</button></form>
              <form method="post" action="\(SiteURL.removeCalendarFeed(feed.id).path)">\(csrf)
                <button class="button small" type="submit">Remove</button></form></span></li>
            """)
        }.joined()
        let choices = CalendarFeed.Scope.allCases.map { scope in
            HTML("<label class=\"check\"><input type=\"radio\" name=\"scope\" value=\"\(scope.rawValue)\"\(if: scope == .me, " checked")> \(Self.scopeNames[scope] ?? scope.rawValue)</label>")
        }.joined()
        return layout.render("""
        <section class="card narrow">
          <h1>The plan in your calendar</h1>
          <p>Subscribe to a secret address in your phone's calendar (or Home Assistant) and the planned meals appear there: breakfast at 8:00, lunch at 12:30, dinner at 18:00 in your time zone, each with its ingredients for the portions planned and a link to the recipe. Changes reach the calendar when it next refreshes (about hourly). Anyone with the address sees the meals: give a new address to stop the old one at once.</p>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          \(made.map { InvitationsPage.shownOnce($0, id: "calendar-feed") })
          \(if: made != nil, HTML("<p class=\"hint\">In Apple Calendar: File › New Calendar Subscription; in Google Calendar: Other calendars › From URL.</p>"))
          <form method="post" action="\(SiteURL.calendarFeeds.path)" id="calendar-feed-form">\(csrf)
            <fieldset class="field"><legend>It shows</legend>\(choices)</fieldset>
            <button class="button primary" type="submit" id="make-calendar-feed">Make an address</button></form>
          <h2>Addresses</h2>
          \(feeds.isEmpty ? HTML("<p class=\"muted\" id=\"no-calendar-feeds\">None yet.</p>") : HTML("<ul class=\"invitations\" id=\"calendar-feeds\">\(rows)</ul>"))
          <p class="button-row"><a class="button subtle" href="\(SiteURL.settings.path)">Back to Settings</a></p>
        </section>
        """)
    }
}
