import ForkcastApp
import ForkcastCore
import Foundation

/// A person's meal types as `<option>`s: the offered ones in their order, and the chosen one even
/// when it is hidden (an entry keeps its type).
enum MealTypeOptions {
    static func html(_ types: MealTypeCatalog, selected: String) -> HTML {
        let chosen = types.resolve(selected)
        return types.all.filter { !$0.hidden || $0.id == chosen?.id }.map { t in
            HTML("<option value=\"\(t.token)\"\(if: t.id == chosen?.id, " selected")>\(t.name)</option>")
        }.joined()
    }
}

/// Local clock time of an instant ("08:05").
enum ClockText {
    static func time(_ instant: Date, in zone: TimeZone) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: zone, from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// The time as a page shows it: "08:05" written by the server, then in the browser's own
    /// clock (12 or 24 hours, as its locale has it) by app.js, in the person's zone.
    static func html(_ instant: Date, in zone: TimeZone) -> HTML {
        HTML("<time datetime=\"\(Instant.format(instant))\" data-clock data-zone=\"\(zone.identifier)\">\(time(instant, in: zone))</time>")
    }

    static func spanHTML(_ from: Date, _ to: Date, in zone: TimeZone) -> HTML {
        time(from, in: zone) == time(to, in: zone) ? html(from, in: zone) : HTML("\(html(from, in: zone))–\(html(to, in: zone))")
    }

}

/// Meal-first history (seed 004 §7, M4): occasions newest first with their type, time span, entry
/// count, photos and calories; a date to jump to; older pages by day.
struct HistoryPage {
    let occasions: [OccasionSummary]
    let types: MealTypeCatalog
    let zone: TimeZone
    let jumpDate: CalendarDate?
    let today: CalendarDate
    let limit: Int
    /// The meal type of this hour: where "Eat this again" logs.
    let nowType: MealType
    let csrf: String

    func render(layout: Layout) -> HTML {
        let byDay = Dictionary(grouping: occasions, by: \.date)
        let days = byDay.keys.sorted(by: >).map { day -> HTML in
            let rows = byDay[day]!.map(row).joined()
            return HTML("""
            <section class="card history-day" aria-labelledby="day-\(day.iso)">
              <h2 id="day-\(day.iso)">\(day == today ? "Today" : day == today.adding(days: -1) ? "Yesterday" : day.weekday.name) <span class="muted">\(PlannerPage.longDate(day))</span></h2>
              <ul class="occasions">\(rows)</ul>
            </section>
            """)
        }.joined()
        let older: HTML = occasions.count >= limit ? occasions.last.map { last in
            HTML("<p class=\"pager\"><a class=\"button\" href=\"\(SiteURL.history(before: last.date).path)\" rel=\"next\">Older meals</a></p>")
        } ?? .empty : .empty
        return layout.render("""
        <section class="card history-head">
          <h1>History</h1>
          <form method="get" action="\(SiteURL.history().path)" class="jump-form">
            <div class="field"><label for="field-date">Go to a day</label><input id="field-date" type="date" name="date" value="\(jumpDate?.iso ?? "")" max="\(today.iso)"></div>
            <button class="button" type="submit">Go</button>
          </form>
        </section>
        \(occasions.isEmpty ? HTML("<section class=\"card\"><p class=\"muted\">Nothing logged\(jumpDate.map { " on or before \(PlannerPage.longDate($0))" } ?? " yet"). Snap a meal on <a href=\"\(SiteURL.diary().path)\">Today</a>.</p></section>") : days)
        \(older)
        """)
    }

    private func row(_ o: OccasionSummary) -> HTML {
        let name = types.name(of: o.mealType)
        let photos = o.photoIds.prefix(4).map { id in
            HTML("<img class=\"thumb\" src=\"\(PhotoURL.thumbnail(id))\" alt=\"\" width=\"44\" height=\"44\" loading=\"lazy\">")
        }.joined()
        let kcal = (o.totals.energyKcal ?? 0).display(0)
        // What was eaten, by name: the first three, then how many more.
        let names = o.entries.map(\.name)
        let dishes = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " + \(names.count - 3) more" : "")
        let counted = o.entries.filter(\.isCounted)
        let again: HTML = counted.isEmpty ? .empty : HTML("""
            <form method="post" action="\(SiteURL.diaryCopy.path)" class="eat-again" data-offline="copy">
              \(Layout.csrfField(csrf))
              <input type="hidden" name="from" value="\(o.date.iso)|\(o.mealType)">
              <input type="hidden" name="only" value="\(counted.map(\.id.uuidString).joined(separator: ","))">
              <input type="hidden" name="date" value="\(today.iso)"><input type="hidden" name="mealType" value="\(nowType.token)">
              <button class="button small" type="submit" data-pressable>Eat this again<span class="visually-hidden">: \(dishes), as \(nowType.name) today</span></button>
            </form>
            """)
        return HTML("""
        <li class="occasion" id="occasion-\(o.id.uuidString.lowercased())">
          <a class="occasion-link" href="\(SiteURL.occasion(o.id).path)">
            <span class="occasion-photos">\(photos)</span>
            <span class="occasion-text"><span><span class="occasion-type">\(name)</span>
                <span class="muted">\(ClockText.spanHTML(o.firstLoggedAt, o.lastLoggedAt, in: zone)) · \(o.entries.count) entr\(o.entries.count == 1 ? "y" : "ies")</span></span>
              <span class="occasion-dishes">\(dishes)</span>
              \(if: o.uncounted > 0, HTML("<span class=\"muted\">\(o.uncounted) not counted yet</span>"))</span>
            <span class="kcal">\(kcal) kcal</span>
          </a>
          \(again)
        </li>
        """)
    }
}

/// One occasion: its entries with photos; each opens the entry's page.
struct OccasionPage {
    let occasion: OccasionSummary
    let types: MealTypeCatalog
    let zone: TimeZone

    func render(layout: Layout) -> HTML {
        let o = occasion
        let entries = o.entries.map { e -> HTML in
            HTML("""
            <li class="entry\(if: !e.isCounted, " uncounted")">
              \(e.photoId.map { HTML("<img class=\"occasion-photo\" src=\"\(PhotoURL.image($0))\" alt=\"Photo of \(e.name)\" loading=\"lazy\">") })
              <a class="entry-link" href="\(SiteURL.editEntry(e.id).path)"><span class="entry-name">\(e.name)</span>
                <span class="muted">\(ClockText.html(e.loggedAt, in: zone)) · \(DashboardPage.amount(e))</span></a>
              <span class="kcal">\(e.isCounted ? e.nutrients.energyKcal.map { "\($0.display(0)) kcal" } ?? "–" : "not counted")</span>
            </li>
            """)
        }.joined()
        return layout.render("""
        <section class="card">
          <p><a href="\(SiteURL.history(date: o.date).path)">‹ History</a></p>
          <h1>\(types.name(of: o.mealType)) <span class="muted">\(o.date.weekday.name) \(PlannerPage.longDate(o.date))</span></h1>
          <p class="muted">\(ClockText.spanHTML(o.firstLoggedAt, o.lastLoggedAt, in: zone)) · \(o.entries.count) entr\(o.entries.count == 1 ? "y" : "ies") ·
            \(NutritionSummary(nutrients: o.totals, cost: nil, currency: "").html)\(o.uncounted > 0 ? " · \(o.uncounted) not counted yet" : "")</p>
          <ul class="entries occasion-entries">\(entries)</ul>
          <p><a class="button" href="\(SiteURL.diary(date: o.date).path)#group-\(o.mealType)">Open the day</a></p>
        </section>
        """)
    }
}

/// Settings › Meal types (seed 004 M5, and reorder/hide as Tandoor does): rename, set the time of
/// day each is suggested, hide, move up or down, add your own.
struct MealTypesPage {
    let types: MealTypeCatalog
    var errors = ValidationError([])
    /// The type whose form failed (its fields show what was typed).
    var failedID: UUID?
    var typed: [String: String] = [:]

    func render(layout: Layout) -> HTML {
        let csrf = layout.csrf ?? ""
        let rows = types.all.enumerated().map { index, t -> HTML in
            let failed = failedID == t.id
            func value(_ key: String, _ fallback: String) -> String { failed ? typed[key] ?? fallback : fallback }
            let id = t.id.uuidString.lowercased()
            return HTML("""
            <li class="card meal-type-row\(if: t.hidden, " is-hidden")" id="type-\(id)">
              <form method="post" action="\(SiteURL.updateMealType(t.id).path)" class="stack meal-type-form">
                \(Layout.csrfField(csrf))
                \(FormField(name: "displayName", label: "Name", value: value("displayName", t.name), error: failed ? errors.message(for: "displayName") : nil,
                            autocomplete: "off", maxLength: MealType.maximumNameLength, idSuffix: id).render)
                <fieldset class="window-fields"><legend>Suggested between <span class="muted">(leave empty for never)</span></legend>
                  <div class="grid-2">
                    \(FormField(name: "windowStart", label: "From", value: value("windowStart", t.window?.startText ?? ""), type: "time", idSuffix: id).render)
                    \(FormField(name: "windowEnd", label: "To", value: value("windowEnd", t.window?.endText ?? ""), type: "time", idSuffix: id).render)
                  </div>
                  \(failed ? errors.message(for: "window").map { HTML("<p class=\"field-error\">\($0)</p>") } : nil)
                </fieldset>
                <div role="group" aria-label="Hide \(t.name)"><label class="check"><input type="checkbox" name="hidden" value="1"\(if: t.hidden, " checked")\(if: t.key == MealType.snackKey, " disabled")> Hide (not offered; its entries stay)</label></div>
                \(failed ? errors.message(for: "hidden").map { HTML("<p class=\"field-error\">\($0)</p>") } : nil)
                <div class="form-actions">
                  <button class="button" type="submit" name="move" value="up"\(if: index == 0, " disabled") aria-label="Move \(t.name) up">↑</button>
                  <button class="button" type="submit" name="move" value="down"\(if: index == types.all.count - 1, " disabled") aria-label="Move \(t.name) down">↓</button>
                  <button class="button primary" type="submit">Save<span class="visually-hidden"> \(t.name)</span></button>
                </div>
              </form>
            </li>
            """)
        }.joined()
        let newFailed = failedID == nil && !errors.fields.isEmpty
        return layout.render("""
        <section class="card">
          <p><a href="\(SiteURL.settings.path)">‹ Settings</a></p>
          <h1>Meal types</h1>
          <p class="muted">When you log something, the meal type whose time of day it is comes preselected; you can always pick another. Snack is always there.</p>
        </section>
        <ol class="meal-type-list">\(rows)</ol>
        <section class="card" aria-labelledby="new-type-title">
          <h2 id="new-type-title">Add a meal type</h2>
          <form method="post" action="\(SiteURL.createMealType.path)" class="stack">
            \(Layout.csrfField(csrf))
            \(FormField(name: "displayName", label: "Name", value: newFailed ? typed["displayName"] : nil, error: newFailed ? errors.message(for: "displayName") : nil,
                        autocomplete: "off", maxLength: MealType.maximumNameLength, idSuffix: "new").render)
            <div class="grid-2">
              \(FormField(name: "windowStart", label: "Suggested from", value: newFailed ? typed["windowStart"] : nil, type: "time", idSuffix: "new").render)
              \(FormField(name: "windowEnd", label: "to", value: newFailed ? typed["windowEnd"] : nil, type: "time", idSuffix: "new").render)
            </div>
            \(newFailed ? errors.message(for: "window").map { HTML("<p class=\"field-error\">\($0)</p>") } : nil)
            <button class="button primary" type="submit">Add</button>
          </form>
        </section>
        """)
    }
}
