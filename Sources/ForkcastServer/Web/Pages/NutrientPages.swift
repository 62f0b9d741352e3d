import ForkcastCore
import Foundation

/// Today's compact "Nutrients" view: each nutrient's amount, target and percentage (ForkcastCore's
/// ``NutrientStanding``), flagged under or over, and "not known for N entries" where data is missing.
enum NutrientsCard {
    static func render(_ day: DiaryDay, today: CalendarDate) -> HTML {
        let standings = NutrientStanding.day(day.totals, missing: day.missing, goals: day.goals)
        let counted = day.groups.flatMap(\.entries).filter(\.isCounted).count
        let under = standings.filter { $0.verdict == .under }.count, over = standings.filter { $0.verdict == .over }.count
        let met = standings.filter { $0.verdict == .met }.count, unknown = standings.filter { $0.verdict == .unknown }.count
        // "Every target met" only of targets whose amount is known: nothing known is not all met.
        let verdicts = [under > 0 ? "\(under) under target" : nil, over > 0 ? "\(over) over the limit" : nil].compactMap { $0 }.joined(separator: ", ").nilIfEmptyString
            ?? (met == 0 ? "Not known yet for what you logged" : unknown > 0 ? "Every known target met (\(unknown) not known)" : "Every target met")
        let summary: String = counted == 0
            ? "Nothing logged yet: your nutrients show here as you log."
            : verdicts + (day.date == today ? " so far today." : ".")
        return HTML("""
        <section class="card nutrients-card" id="nutrients" aria-labelledby="nutrients-title">
          <div class="card-head"><h2 id="nutrients-title">Nutrients</h2>
            <a class="button small" href="\(SiteURL.nutrientsWeek(date: day.date == today ? nil : day.date).path)">Last 7 days</a></div>
          <p class="muted" id="nutrients-summary">\(summary)</p>
          \(if: counted > 0, HTML("<ul class=\"nutrient-list\">\(standings.map { row($0, entries: counted, date: day.date == today ? nil : day.date) }.joined())</ul>"))
          <p class="hint">Targets are \(day.goals.reference.isEmpty ? "the daily values" : "the reference intakes for your sex and age") unless you change them under <a href="\(SiteURL.goals.path(fragment: "targets-title"))">Goals</a>.</p>
        </section>
        """)
    }

    static func row(_ s: NutrientStanding, entries: Int, date: CalendarDate? = nil) -> HTML {
        let n = s.nutrient
        let amount = s.amount.map { n.text($0) } ?? "—"
        let target = s.target.map { n.text($0) } ?? ""
        let percent = s.percent.map { "\($0) %" } ?? ""
        let verdict: String = switch s.verdict {
        case .under: "under"
        case .over: "over"
        case .met: "met"
        case .unknown: "unknown"
        }
        let missing = s.missing == 0 ? HTML.empty
            : HTML("<span class=\"n-missing\">not known for \(s.missing == entries ? "any entry" : "\(s.missing) entr\(s.missing == 1 ? "y" : "ies")")</span>")
        let meter = s.percent.map { p in
            HTML("<meter class=\"n-meter\" min=\"0\" max=\"100\" value=\"\(min(max(p, 0), 100))\" aria-hidden=\"true\"></meter>")
        } ?? .empty
        return HTML("""
        <li class="nutrient \(verdict)" data-nutrient="\(n.rawValue)">
          <span class="n-name"><a href="\(SiteURL.nutrient(n.rawValue, date: date).path)">\(n.name)</a>\(if: s.verdict == .under || s.verdict == .over, HTML(" <span class=\"n-flag\">\(s.verdict == .under ? "low" : "high")</span>"))</span>
          <span class="n-amount">\(amount)\(if: !target.isEmpty, HTML(" <span class=\"muted\">/ \(target)</span>"))</span>
          <span class="n-percent">\(percent)</span>
          \(meter)\(missing)
        </li>
        """)
    }
}

/// The last 7 days against the targets: which nutrients are persistently under or over
/// (ForkcastCore's ``NutrientWeek``), and each day's percentage.
struct NutrientsWeekPage {
    var start: CalendarDate
    var end: CalendarDate
    var today: CalendarDate
    var days: [(date: CalendarDate, totals: Nutrients, missing: [Nutrient: Int])]
    var goals: Goals

    func render(layout: Layout) -> HTML {
        let week = NutrientWeek(days: days.map { ($0.totals, $0.missing) }, goals: goals)
        let persistent = week.rows.filter { $0.persistent != nil }
        let headers = days.map { HTML("<th scope=\"col\">\(DashboardPage.shortDate($0.date))</th>") }.joined()
        let rows = week.rows.map { row -> HTML in
            let cells = row.days.map { s -> HTML in
                let cls = s.verdict == .under ? "under" : s.verdict == .over ? "over" : s.verdict == .unknown ? "unknown" : "met"
                return HTML("<td class=\"\(cls)\">\(s.percent.map { "\($0) %" } ?? "—")\(if: s.missing > 0, HTML("<span class=\"n-missing\" title=\"not known for \(s.missing)\">*</span>"))</td>")
            }.joined()
            let verdict = row.persistent.map { $0 == .under ? "Low on \(row.under) of \(row.days.count) days" : "High on \(row.over) of \(row.days.count) days" } ?? ""
            return HTML("""
            <tr class="\(row.persistent.map { $0 == .under ? "persistent-under" : "persistent-over" } ?? "")" data-nutrient="\(row.nutrient.rawValue)">
              <th scope="row">\(row.nutrient.name) <span class="muted n-target">\(row.target.map { row.nutrient.text($0) } ?? "")</span>\(if: !verdict.isEmpty, HTML("<span class=\"n-flag\">\(verdict)</span>"))</th>
              <td class="avg">\(row.averagePercent.map { "\($0) %" } ?? "—")</td>\(cells)
            </tr>
            """)
        }.joined()
        let earlier = SiteURL.nutrientsWeek(date: start.adding(days: -1)).path
        let later = end < today.adding(days: -1) ? SiteURL.nutrientsWeek(date: min(end.adding(days: 7), today)).path : nil
        return layout.render("""
        <div class="page-head"><h1>Nutrients, \(PlannerPage.longDate(start)) to \(PlannerPage.longDate(end))</h1></div>
        <nav class="week-nav" aria-label="Weeks"><a class="button small" href="\(earlier)">← Earlier</a>\(later.map { HTML(" <a class=\"button small\" href=\"\($0)\">Later →</a>") } ?? .empty)
          <a class="button small" href="\(SiteURL.diary(date: end == today ? nil : end).path(fragment: "nutrients"))">Back to the day</a></nav>
        <section class="card" aria-labelledby="week-summary-title">
          <h2 id="week-summary-title">\(days.isEmpty ? "Nothing logged these 7 days" : "\(days.count) day\(days.count == 1 ? "" : "s") logged")</h2>
          \(days.isEmpty ? HTML("<p class=\"muted\">Log what you eat to see which nutrients you get enough of.</p>")
            : persistent.isEmpty ? HTML("<p id=\"persistent\">No nutrient is persistently under or over its target.</p>")
            : HTML("<ul class=\"persistent\" id=\"persistent\">\(persistent.map { r in HTML("<li class=\"\(r.persistent == .under ? "under" : "over")\"><strong>\(r.nutrient.name)</strong>: \(r.persistent == .under ? "under" : "over") target on \(r.persistent == .under ? r.under : r.over) of \(r.days.count) days (average \(r.averagePercent.map { "\($0) %" } ?? "—"))</li>") }.joined())</ul>"))
        </section>
        \(if: !days.isEmpty, HTML("""
        <section class="card" aria-labelledby="week-table-title">
          <h2 id="week-table-title">Each day, as a percentage of the target</h2>
          <div class="table-scroll scroll-hint" tabindex="0" role="region" aria-labelledby="week-table-title">
            <table class="nutrient-week"><thead><tr><th scope="col">Nutrient</th><th scope="col">Average</th>\(headers)</tr></thead>
            <tbody>\(rows)</tbody></table>
          </div>
          <p class="hint">* not known for some of that day's entries: the day had at least this much, so it is not called low. Days with nothing logged are left out, and today until it is over.</p>
        </section>
        """))
        """)
    }
}
