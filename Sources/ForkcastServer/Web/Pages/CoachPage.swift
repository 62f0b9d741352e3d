import ForkcastContract
import ForkcastCore
import Foundation

/// The page a diary link opens: one day of what the link shows, a step to the days beside it
/// within the range, the weights of the range, and the range as CSV.
struct CoachPage {
    var answer: SharedDiaryAnswer
    var token: String
    /// The last day the link works, when it stops at a midnight.
    var lastDay: CalendarDate?
    var zone: TimeZone

    func render(layout: Layout) -> HTML {
        let day = answer.date
        let before = day > answer.from ? HTML("<a class=\"button small\" rel=\"prev\" href=\"\(SiteURL.coach(token, date: day.adding(days: -1)).path)\">‹ Day before</a>") : HTML("")
        let after = day < answer.to ? HTML("<a class=\"button small\" rel=\"next\" href=\"\(SiteURL.coach(token, date: day.adding(days: 1)).path)\">Day after ›</a>") : HTML("")
        let csv = DiaryLinks.SharedExport.path.filled(["token": token])
        let until = CoachLinksPage.until(answer.expiresAt, lastDay: lastDay, zone: zone)
        return layout.render("""
        <section class="card">
          <h1><span class="coach-name">\(answer.displayName ?? "A Forkcast diary")</span>, shared read-only</h1>
          <p class="muted">\(CalendarDate.rangeText(from: answer.from, to: answer.to)); this link works \(until).</p>
          <nav class="button-row coach-days" aria-label="Days">\(before)<strong id="coach-day">\(day.longText)</strong>\(after)</nav>
          \(entries)
          \(totals)
          \(weights)
          <p class="button-row"><a class="button" href="\(csv)" download>Download \(CalendarDate.rangeText(from: answer.from, to: answer.to)) as CSV</a></p>
        </section>
        """)
    }

    private var entries: HTML {
        guard let entries = answer.entries else { return HTML("") }
        guard !entries.isEmpty else { return HTML("<h2>What was eaten</h2><p class=\"muted\" id=\"coach-nothing\">Nothing logged this day.</p>") }
        let rows = entries.map { e in
            let amount = e.quantity.map { q in "\(q.display(1)) \(e.unit ?? "")" } ?? ""
            return HTML("""
            <tr><td>\(e.mealType)</td><td class="coach-food">\(e.name)</td><td>\(amount)</td><td class="num">\((e.nutrients.nutrients.energyKcal ?? 0).kcalText) kcal</td></tr>
            """)
        }.joined()
        return HTML("""
        <h2>What was eaten</h2>
        <div class="table-scroll"><table class="coach-entries"><thead><tr><th scope="col">Meal</th><th scope="col">Food</th><th scope="col">Amount</th><th scope="col">Energy</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        """)
    }

    private var totals: HTML {
        guard let totals = answer.totals?.nutrients else { return HTML("") }
        let rows = Nutrient.allCases.compactMap { n -> HTML? in
            guard let value = totals[n] else { return nil }
            let goal: Decimal? = switch n {
            case .energyKcal: answer.goals?.energyKcal
            case .protein: answer.goals?.protein
            case .carbohydrates: answer.goals?.carbohydrates
            case .fat: answer.goals?.fat
            default: nil
            }
            let unit = n.unit.rawValue
            let shown = n == .energyKcal ? value.kcalText : value.gramsText
            return HTML("<tr><th scope=\"row\">\(n.name)</th><td class=\"num\">\(shown) \(unit)</td><td class=\"num\">\(goal.map { "\(n == .energyKcal ? $0.kcalText : $0.gramsText) \(unit)" } ?? "")</td></tr>")
        }.joined()
        return HTML("""
        <h2>The day's totals</h2>
        <div class="table-scroll"><table class="coach-totals"><thead><tr><th scope="col">Nutrient</th><th scope="col">Eaten</th><th scope="col">Goal</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        """)
    }

    private var weights: HTML {
        guard let weights = answer.weights else { return HTML("") }
        guard !weights.isEmpty else { return HTML("<h2>Weights</h2><p class=\"muted\">No weights in these days.</p>") }
        let format = Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: zone)
        let rows = weights.map { HTML("<li>\($0.measuredAt.formatted(format)): \($0.weightKg.display(1)) kg</li>") }.joined()
        return HTML("<h2>Weights</h2><ul class=\"coach-weights\">\(rows)</ul>")
    }
}
