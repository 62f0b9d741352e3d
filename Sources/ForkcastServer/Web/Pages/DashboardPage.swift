import ForkcastCore
import Foundation

/// The home page (seed 001 HomeView): a calendar strip, rings for calories and macros, the day's
/// entries by meal type, the day's cost, a calories chart against the goal and the weight trend.
struct DashboardPage {
    struct Model {
        var day: DiaryDay
        var today: CalendarDate
        var chartRange: String
        var chart: [DiaryRepository.DayTotals]
        var chartFrom: CalendarDate
        var chartTo: CalendarDate
        var weights: [BodyRepository.Weight]
        var currency: String
    }

    let model: Model
    let csrf: String

    /// Loads everything the page shows: the day, a week or month of totals, 90 days of weights.
    static func model(service: DiaryService, date: CalendarDate, range: String, currency: String) async throws -> Model {
        let today = service.user.today(now: service.now)
        let days = range == "month" ? 30 : 7
        let from = date.adding(days: -(days - 1))
        let chart = try await service.diary.dailyTotals(from: from, to: date)
        let body = BodyRepository(db: service.db, ownerID: service.ownerID)
        let weights = try await body.weights(from: service.now.addingTimeInterval(-180 * 24 * 3600))
        return Model(day: try await service.day(date), today: today, chartRange: range == "month" ? "month" : "week", chart: chart,
                     chartFrom: from, chartTo: date, weights: weights, currency: currency)
    }

    func render(layout: Layout) -> HTML {
        let d = model.day
        return layout.render("""
        <h1 class="visually-hidden">Today</h1>
        \(strip)
        <section class="card rings-card" aria-labelledby="rings-title">
          <h2 id="rings-title">\(d.date == model.today ? "Today" : "\(d.date.weekday.name) \(PlannerPage.longDate(d.date))")</h2>
          <div class="rings">
            \(Rings.large(consumed: d.totals.energyKcal ?? 0, remaining: d.remaining.energyKcal ?? 0, goal: d.goals.energyKcal))
            <div class="macro-rings">
              \(Rings.small(label: "Protein", cls: "protein", consumed: d.totals.protein ?? 0, goal: d.goals.protein))
              \(Rings.small(label: "Carbs", cls: "carb", consumed: d.totals.carbohydrates ?? 0, goal: d.goals.carbohydrates))
              \(Rings.small(label: "Fat", cls: "fat", consumed: d.totals.fat ?? 0, goal: d.goals.fat))
            </div>
          </div>
          <p class="muted day-cost" id="day-cost">\(d.cost.map { "Cost of the day: " + Currency.format($0, model.currency) } ?? "No prices logged today.")
            · Goal \(d.goals.energyKcal.display(0)) kcal (\(d.goals.source == .computed ? "from your body profile" : "set by hand")) · <a href="\(SiteURL.goals.path)">Goals</a></p>
        </section>
        <div class="meal-groups">\(d.groups.map(group).joined())</div>
        \(chart)
        \(weightTrend)
        <section class="card"><h2>Export</h2>
          <p><a href="\(SiteURL.diaryExport(from: model.chartFrom, to: model.chartTo, format: "csv").path)" download>CSV</a> ·
             <a href="\(SiteURL.diaryExport(from: model.chartFrom, to: model.chartTo, format: "json").path)" download>JSON</a>
             <span class="muted">(\(PlannerPage.longDate(model.chartFrom)) to \(PlannerPage.longDate(model.chartTo)); the API takes any range)</span></p>
        </section>
        """)
    }

    private var strip: HTML {
        let selected = model.day.date
        let start = selected.adding(days: -3)
        let days = (0..<7).map { start.adding(days: $0) }.map { day in
            HTML("""
            <li><a href="\(SiteURL.diary(date: day).path)" class="strip-day\(if: day == selected, " selected")\(if: day == model.today, " today")"\(if: day == selected, " aria-current=\"date\"")>
              <span class="strip-weekday">\(day.weekday.shortName)</span><span class="strip-date">\(day.day)</span>\(if: day == model.today, "<span class=\"visually-hidden\"> (today)</span>")</a></li>
            """)
        }.joined()
        return """
        <nav class="strip card" aria-label="Days">
          <a class="icon-button" href="\(SiteURL.diary(date: selected.adding(days: -7)).path)" aria-label="A week earlier">‹</a>
          <ol>\(days)</ol>
          <a class="icon-button" href="\(SiteURL.diary(date: selected.adding(days: 7)).path)" aria-label="A week later">›</a>
          \(if: selected != model.today, HTML("<a class=\"button small\" href=\"\(SiteURL.diary().path)\">Today</a>"))
        </nav>
        """
    }

    private func group(_ g: DiaryDay.Group) -> HTML {
        let entries = g.entries.map { e -> HTML in
            let amount: String = switch e.kind {
            case let .food(_, q, u): "\(q.display(1)) \(u.label)\(u == .serving && q != 1 ? "s" : "")"
            case let .meal(_, s): "\(s.display(2)) serving\(s == 1 ? "" : "s")"
            case .quickAdd: "quick add"
            }
            return HTML("""
            <li class="entry" id="entry-\(e.id.uuidString)">
              <div><span class="entry-name">\(e.name)</span> <span class="muted">\(amount)\(e.note.map { " · \($0)" } ?? "")</span></div>
              <span class="kcal">\(e.nutrients.energyKcal.map { "\($0.display(0)) kcal" } ?? "–")</span>
              <a class="button small" href="\(SiteURL.editEntry(e.id).path)">Move<span class="visually-hidden"> \(e.name)</span></a>
              <form method="post" action="\(SiteURL.deleteEntry(e.id).path)" class="inline">
                \(Layout.csrfField(csrf))
                <button class="icon-button" type="submit" aria-label="Delete \(e.name) from \(g.mealType.name)">\(Icons.close)</button>
              </form>
            </li>
            """)
        }.joined()
        return """
        <section class="card meal-group" id="group-\(g.mealType.key)" aria-labelledby="group-\(g.mealType.key)-title">
          <div class="group-head"><h2 id="group-\(g.mealType.key)-title">\(g.mealType.name)</h2>
            <span class="kcal">\(g.entries.isEmpty ? "" : "\((g.totals.energyKcal ?? 0).display(0)) kcal")</span></div>
          \(g.entries.isEmpty ? HTML("<p class=\"muted\">Nothing logged.</p>") : HTML("<ul class=\"entries\">\(entries)</ul>"))
          <a class="button small" href="\(SiteURL.diaryAdd(date: model.day.date, mealType: g.mealType.key).path)" data-pressable>\(Icons.plus) Add food<span class="visually-hidden"> to \(g.mealType.name)</span></a>
        </section>
        """
    }

    /// Calories per day as bars, with the goal as a line (SVG drawn here, no chart library).
    private var chart: HTML {
        let days = WeekWindow(start: model.chartFrom, length: model.chartFrom.days(until: model.chartTo) + 1).dates
        let byDate = Dictionary(uniqueKeysWithValues: model.chart.map { ($0.date, $0) })
        let values = days.map { (byDate[$0]?.nutrients.energyKcal ?? 0).finiteDouble }
        let goal = model.day.goals.energyKcal.finiteDouble
        let top = max(values.max() ?? 0, goal) * 1.15
        let width = 320.0, height = 140.0, barWidth = width / Double(days.count)
        let bars = zip(days, values).enumerated().map { i, pair -> HTML in
            let (day, v) = pair
            let h = top > 0 ? v / top * height : 0
            let over = v > goal
            return HTML("<rect class=\"bar\(if: over, " over")\" x=\"\(fmt(Double(i) * barWidth + 2))\" y=\"\(fmt(height - h))\" width=\"\(fmt(barWidth - 4))\" height=\"\(fmt(h))\"><title>\(day.iso): \(v.safeInt) kcal</title></rect>")
        }.joined()
        let goalY = height - goal / top * height
        let labels = days.count <= 7 ? days.enumerated().map { i, d in
            HTML("<text x=\"\(fmt(Double(i) * barWidth + barWidth / 2))\" y=\"\(fmt(height + 14))\" text-anchor=\"middle\">\(d.weekday.shortName)</text>")
        }.joined() : HTML("<text x=\"0\" y=\"\(fmt(height + 14))\">\(model.chartFrom.iso)</text><text x=\"\(fmt(width))\" y=\"\(fmt(height + 14))\" text-anchor=\"end\">\(model.chartTo.iso)</text>")
        let average = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        return """
        <section class="card chart-card" aria-labelledby="chart-title">
          <div class="group-head"><h2 id="chart-title">Calories, last \(model.chartRange == "month" ? "30 days" : "7 days")</h2>
            <nav class="range-toggle" aria-label="Chart range">
              <a href="\(SiteURL.diary(date: model.day.date, range: "week").path)"\(if: model.chartRange == "week", " aria-current=\"page\"")>Week</a>
              <a href="\(SiteURL.diary(date: model.day.date, range: "month").path)"\(if: model.chartRange == "month", " aria-current=\"page\"")>Month</a></nav></div>
          <svg class="chart" viewBox="-4 -4 \(fmt(width + 8)) \(fmt(height + 22))" role="img" aria-labelledby="chart-desc">
            <desc id="chart-desc">Daily calories from \(model.chartFrom.iso) to \(model.chartTo.iso) against a goal of \(goal.safeInt) kcal; average \(average.safeInt) kcal.</desc>
            \(bars)
            <line class="goal-line" x1="0" x2="\(fmt(width))" y1="\(fmt(goalY))" y2="\(fmt(goalY))"/>
            \(labels)
          </svg>
          <p class="muted">Average \(average.safeInt) kcal a day · goal \(goal.safeInt) kcal (dashed line)</p>
        </section>
        """
    }

    private var weightTrend: HTML {
        let points = model.weights
        guard points.count >= 1 else {
            return "<section class=\"card\" aria-labelledby=\"weight-title\"><h2 id=\"weight-title\">Weight</h2><p class=\"muted\">No weights yet. Add one under <a href=\"\(SiteURL.goals.path)\">Goals</a>, or import Apple Health.</p></section>"
        }
        let width = 320.0, height = 100.0
        let times = points.map { $0.measuredAt.timeIntervalSince1970 }
        let kgs = points.map { Plausible.bodyWeightKg.clamped($0.weightKg).finiteDouble }
        let t0 = times.min()!, t1 = max(times.max()!, t0 + 1)
        let lo = kgs.min()! - 1, hi = kgs.max()! + 1
        let coordinates = zip(times, kgs).map { t, w in "\(fmt((t - t0) / (t1 - t0) * width)),\(fmt(height - (w - lo) / (hi - lo) * height))" }
        let last = points.last!
        return """
        <section class="card" aria-labelledby="weight-title">
          <h2 id="weight-title">Weight</h2>
          <svg class="chart weight" viewBox="-6 -6 \(fmt(width + 12)) \(fmt(height + 12))" role="img" aria-labelledby="weight-desc">
            <desc id="weight-desc">\(points.count) weights from \(kgs.first!.formatted1) kg to \(kgs.last!.formatted1) kg.</desc>
            <polyline class="weight-line" points="\(coordinates.joined(separator: " "))"/>
            \(coordinates.map { point -> HTML in
                let xy = point.split(separator: ",").map(String.init)
                return HTML("<circle class=\"weight-dot\" r=\"3\" cx=\"\(xy[0])\" cy=\"\(xy[1])\"/>")
            }.joined())
          </svg>
          <p class="muted">Latest: \(last.weightKg.display(1)) kg</p>
        </section>
        """
    }

    private func fmt(_ v: Double) -> String { String(format: "%.1f", v) }
}

extension Double {
    var formatted1: String { String(format: "%.1f", self) }
}

/// The SVG rings: one large for calories (what remains), three small for protein, carbs and fat.
private func fmtR(_ v: Double) -> String { String(format: "%.0f", v) }

enum Rings {
    /// `remaining` is the day's own figure (ForkcastCore's DiaryDay), never recomputed here.
    static func large(consumed: Decimal, remaining: Decimal, goal: Decimal) -> HTML {
        let progress = goal > 0 ? min(1, max(0, (consumed / goal).finiteDouble)) : 0
        let r = 52.0, c = 2 * Double.pi * r
        return """
        <svg class="ring large\(if: remaining < 0, " over")" viewBox="0 0 120 120" role="img" aria-label="\(remaining >= 0 ? "\(remaining.display(0)) kcal remaining" : "\((-remaining).display(0)) kcal over") of \(goal.display(0)) kcal">
          <circle class="track" cx="60" cy="60" r="\(fmtR(r))"/>
          <circle class="fill calories" cx="60" cy="60" r="\(fmtR(r))" stroke-dasharray="\(String(format: "%.1f %.1f", c * progress, c))" transform="rotate(-90 60 60)"/>
          <text x="60" y="58" text-anchor="middle" class="ring-value" id="calories-remaining">\(remaining >= 0 ? remaining.display(0) : "+" + (-remaining).display(0))</text>
          <text x="60" y="76" text-anchor="middle" class="ring-label">\(remaining >= 0 ? "kcal left" : "kcal over")</text>
        </svg>
        """
    }

    static func small(label: String, cls: String, consumed: Decimal, goal: Decimal) -> HTML {
        let progress = goal > 0 ? min(1, max(0, (consumed / goal).finiteDouble)) : 0
        let r = 30.0, c = 2 * Double.pi * r
        return """
        <figure class="macro-ring">
          <svg class="ring small" viewBox="0 0 80 80" role="img" aria-label="\(label): \(consumed.display(0)) of \(goal.display(0)) g">
            <circle class="track" cx="40" cy="40" r="\(fmtR(r))"/>
            <circle class="fill \(cls)" cx="40" cy="40" r="\(fmtR(r))" stroke-dasharray="\(String(format: "%.1f %.1f", c * progress, c))" transform="rotate(-90 40 40)"/>
            <text x="40" y="45" text-anchor="middle" class="ring-small-value">\(consumed.display(0))</text>
          </svg>
          <figcaption><span class="\(cls)-text">\(label)</span> \(consumed.display(0)) / \(goal.display(0)) g</figcaption>
        </figure>
        """
    }
}
