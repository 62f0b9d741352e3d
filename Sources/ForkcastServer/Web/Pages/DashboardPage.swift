import ForkcastApp
import ForkcastCore
import Foundation

/// The home page (seed 001's HomeView): a calendar strip, rings for calories and macros, the day's
/// entries by meal type, the day's cost, a calories chart against the goal and the weight trend.
struct DashboardPage {
    struct Model {
        var day: DiaryDay
        var today: CalendarDate
        var chartRange: String
        var chart: [DiaryRepository.DayTotals]
        var chartFrom: CalendarDate
        var chartTo: CalendarDate
        var weights: [WeightEntry]
        var currency: String
        /// The day's plan, which of it is already logged, and the day before's entries (for "same as yesterday").
        var plan: PlanDay
        var logged: Set<UUID>, dayBefore: [DiaryEntry]
        /// The meal type the time of day suggests (preselected where a planned meal has no slot).
        var suggestedType: String
        var zone: TimeZone, mealTypes: MealTypeCatalog
        var useSoon: [(lot: PantryItem, name: String)] = []  // the pantry's lots that go off within 3 days
        var me = UUID()  // the signed-in person, whose portions Log puts in their diary
    }

    let model: Model
    let csrf: String

    func render(layout: Layout) -> HTML {
        let d = model.day
        return layout.render("""
        <h1 class="visually-hidden">Today</h1>
        \(strip)
        \(capture)
        \(planned)\(useSoonCard)
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
          \(if: d.uncounted > 0, HTML("<p class=\"uncounted-total\" id=\"uncounted-total\">\(d.uncounted) photo\(d.uncounted == 1 ? "" : "s") not counted yet: the totals leave \(d.uncounted == 1 ? "it" : "them") out until you give \(d.uncounted == 1 ? "its" : "their") calories.</p>"))
          <p class="muted day-cost" id="day-cost">\(d.cost.map { "Cost of the day: " + Currency.format($0, model.currency) } ?? "No prices logged today.")
            · Goal \(d.goals.energyKcal.display(0)) kcal (\(d.goals.source == .computed ? "from your body profile" : "set by hand")) · <a href="\(SiteURL.goals.path)">Goals</a></p>
        </section>
        <div class="meal-groups" id="meal-groups" data-date="\(d.date.iso)" data-today="\(model.today.iso)">\(d.groups.filter(shown).map(group).joined())</div>
        \(NutrientsCard.render(d, today: model.today))
        \(chart)
        \(weightTrend)
        <section class="card"><h2>Export</h2>
          <p><a href="\(SiteURL.diaryExport(from: model.chartFrom, to: model.chartTo, format: "csv").path)" download>CSV</a> ·
             <a href="\(SiteURL.diaryExport(from: model.chartFrom, to: model.chartTo, format: "json").path)" download>JSON</a>
             <span class="muted">(\(PlannerPage.longDate(model.chartFrom)) to \(PlannerPage.longDate(model.chartTo)))</span></p>
        </section>
        """)
    }

    /// A group shows when it has entries, or its type has a time of day, or it is Snack; the
    /// other types (Workout Fuel…) are in every meal-type chooser.
    private func shown(_ g: DiaryDay.Group) -> Bool {
        !g.entries.isEmpty || g.mealType.window != nil || g.mealType.key == MealType.snackKey
    }

    /// Photo-first capture (seed 004 §7): the camera, the suggested meal type, save. A script
    /// shows the photo before saving, sends a small thumbnail, and keeps it in the outbox offline.
    /// First on the page (what a person does next): the camera and "Add to <the meal
    /// type of this hour>"; not on a day still to come (nothing is eaten there yet).
    private var capture: HTML {
        let date = model.day.date
        guard date <= model.today else { return .empty }
        let now = model.mealTypes.resolve(model.suggestedType)
        return HTML("""
        <section class="card capture-card" id="capture" aria-labelledby="capture-title">
          <h2 id="capture-title" class="visually-hidden">Snap a meal</h2>
          <form method="post" action="\(SiteURL.diaryPhoto.path)" enctype="multipart/form-data" class="capture-form" id="capture-form"
                data-date="\(date.iso)" data-today="\(model.today.iso)">
            \(Layout.csrfField(csrf))
            <input type="hidden" name="date" value="\(date.iso)">
            <label class="button primary capture-button" for="capture-file" data-pressable>\(Icons.camera) Snap a meal</label>
            <input class="capture-file" id="capture-file" type="file" name="photo" accept="image/*" capture="environment" required>
            <img class="capture-preview" id="capture-preview" alt="The photo to save" hidden>
            <div class="capture-choice">
              <label for="capture-type" class="capture-type-label">Meal</label>
              <select id="capture-type" name="mealType">\(MealTypeOptions.html(model.mealTypes, selected: model.suggestedType))</select>
              <button class="button primary" type="submit" id="capture-save" data-pressable>Save photo</button>
            </div>
            <p class="capture-status muted" id="capture-status" role="status"></p>
          </form>
          <p class="button-row">\(now.map { type in HTML("<a class=\"button\" id=\"add-now\" href=\"\(SiteURL.diaryAdd(date: date, mealType: type.token).path)\" data-pressable>\(Icons.plus) Add to \(type.name)</a>") })
            <a class="button subtle" href="\(SiteURL.history().path)" id="history-link">History, meal by meal</a></p>
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

    /// The day's plan as cards: one tap logs a planned meal into its slot (or the type chosen
    /// beside it); once logged it is marked and not offered again that day.
    private var planned: HTML {
        let plan = model.plan
        guard !plan.entries.isEmpty else { return .empty }
        let date = model.day.date
        let cards = plan.entries.map { entry -> HTML in
            let a = entry.assignment, meal = entry.meal
            let slot = a.mealType.flatMap(model.mealTypes.resolve)
            let done = model.logged.contains(a.id)
            let ahead = date > model.today
            let typeChoice: HTML = slot.map { s in HTML("<input type=\"hidden\" name=\"mealType\" value=\"\(s.token)\">") } ?? HTML("""
                <select id="log-type-\(a.id.uuidString)" name="mealType" class="compact-select" aria-label="Log \(meal.description) as">\(MealTypeOptions.html(model.mealTypes, selected: model.suggestedType))</select>
                """)
            return HTML("""
            <li class="plan-card\(if: done, " logged")" id="plan-\(a.id.uuidString)">
              <div class="plan-card-main"><span class="plan-card-slot">\(slot?.name ?? "Planned")</span>
                <a class="plan-card-name" href="\(SiteURL.recipe(meal.id, entry: a.id).path)">\(meal.description)</a></div>
              \(done ? HTML("<span class=\"logged-mark\">✓ Logged</span>") : ahead ? HTML("<span class=\"muted\">Log it on the day</span>") : HTML("""
              <form method="post" action="\(SiteURL.logPlanned.path)" class="log-planned" data-offline="planned"
                    data-meal-id="\(meal.id.uuidString)" data-name="\(meal.description)" data-date="\(date.iso)" data-today="\(model.today.iso)"
                    data-default-servings="\("\(a.portions(for: model.me) ?? DiaryEntry.defaultServings)")">
                \(Layout.csrfField(csrf))
                <input type="hidden" name="assignmentId" value="\(a.id.uuidString)">
                <input type="hidden" name="back" value="\(SiteURL.diary(date: date == model.today ? nil : date).path)">
                \(typeChoice)
                <button class="button primary" type="submit" data-pressable><span>Log<span class="visually-hidden"> \(meal.description)</span>\(slot.map { " to \($0.name)" } ?? "")</span></button>
              </form>
              """))
            </li>
            """)
        }.joined()
        let open = plan.entries.count - model.logged.count
        return """
        <section class="card plan-today" id="planned" aria-labelledby="planned-title">
          <div class="group-head"><h2 id="planned-title">Planned\(date == model.today ? " today" : "")</h2>
            <span class="muted">\(open == 0 ? "all logged" : "\(open) to log")</span></div>
          <ul class="plan-cards">\(cards)</ul>
        </section>
        """
    }

    static func amount(_ e: DiaryEntry) -> String {
        switch e.kind {
        case let .food(_, q, u): "\(q.display(1)) \(u.label)\(u == .serving && q != 1 ? "s" : "")"
        case let .meal(_, s): "\(s.display(2)) serving\(s == 1 ? "" : "s")"
        case .quickAdd: e.photoId == nil ? "quick add" : "photo, counted by its calories"
        case .photo: "not counted yet"
        }
    }

    private func group(_ g: DiaryDay.Group) -> HTML {
        let entries = g.entries.map { e -> HTML in
            HTML("""
            <li class="entry\(if: !e.isCounted, " uncounted")" id="entry-\(e.id.uuidString)">
              \(e.photoId.map { HTML("<img class=\"thumb\" src=\"\(PhotoURL.thumbnail($0))\" alt=\"\" width=\"44\" height=\"44\" loading=\"lazy\">") })
              <a class="entry-link" href="\(SiteURL.editEntry(e.id).path)"><span class="entry-name">\(e.name)</span>
                <span class="muted">\(Self.amount(e))\(e.note.map { " · \($0)" } ?? "")</span><span class="visually-hidden">, edit</span></a>
              <span class="kcal">\(e.isCounted ? e.nutrients.energyKcal.map { "\($0.display(0)) kcal" } ?? "–" : "not counted")</span>
              <form method="post" action="\(SiteURL.deleteEntry(e.id).path)" class="inline" data-undo="Deleted “\(e.name)” from \(g.mealType.name).">
                \(Layout.csrfField(csrf))
                <button class="icon-button" type="submit" aria-label="Delete \(e.name) from \(g.mealType.name)">\(Icons.close)</button>
              </form>
            </li>
            """)
        }.joined()
        let before = model.dayBefore.filter { $0.mealType == g.mealType.token && $0.isCounted }
        let copy: HTML = g.entries.isEmpty && !before.isEmpty ? HTML("""
            <form method="post" action="\(SiteURL.diaryCopy.path)" class="inline" data-offline="copy">
              \(Layout.csrfField(csrf))
              <input type="hidden" name="from" value="\(model.day.date.adding(days: -1).iso)|\(g.mealType.token)">
              <input type="hidden" name="date" value="\(model.day.date.iso)"><input type="hidden" name="mealType" value="\(g.mealType.token)">
              <button class="button" type="submit" data-pressable>Same as \(model.day.date == model.today ? "yesterday" : "the day before")<span class="visually-hidden"> for \(g.mealType.name)</span>
                <span class="muted">(\(before.count) item\(before.count == 1 ? "" : "s"), \((DiaryDay.total(of: before).energyKcal ?? 0).display(0)) kcal)</span></button>
            </form>
            """) : .empty
        return """
        <section class="card meal-group" id="group-\(g.mealType.token)" aria-labelledby="group-\(g.mealType.token)-title" data-meal-type="\(g.mealType.token)">
          <div class="group-head"><h2 id="group-\(g.mealType.token)-title">\(g.mealType.name)</h2>
            <span class="kcal">\(g.entries.isEmpty ? "" : "\((g.totals.energyKcal ?? 0).display(0)) kcal")</span></div>
          \(g.entries.isEmpty ? HTML("<p class=\"muted\">Nothing logged.</p>") : .empty)
          <ul class="entries">\(entries)</ul>
          <div class="group-actions">
            <a class="button" href="\(SiteURL.diaryAdd(date: model.day.date, mealType: g.mealType.token).path)" data-pressable>\(Icons.plus) Add<span class="visually-hidden"> to \(g.mealType.name)</span></a>
            \(copy)
          </div>
        </section>
        """
    }

    /// Calories per day as bars against the goal line, with calorie values on the left axis and
    /// dates below (SVG drawn here, no chart library). The average is ForkcastCore's ``DailyAverage``.
    private var chart: HTML {
        let days = WeekWindow(start: model.chartFrom, length: model.chartFrom.days(until: model.chartTo) + 1).dates
        let byDate = Dictionary(uniqueKeysWithValues: model.chart.map { ($0.date, $0) })
        let values = days.map { (byDate[$0]?.nutrients.energyKcal ?? 0).finiteDouble }
        let goal = model.day.goals.energyKcal.finiteDouble
        let top = Self.axisTop(max(values.max() ?? 0, goal) * 1.1)
        let left = 40.0, width = 300.0, height = 140.0, barWidth = width / Double(days.count)
        func y(_ v: Double) -> Double { top > 0 ? height - v / top * height : height }
        let bars = zip(days, values).enumerated().map { i, pair -> HTML in
            let (day, v) = pair
            return HTML("<rect class=\"bar\(if: v > goal, " over")\" x=\"\(fmt(left + Double(i) * barWidth + 1))\" y=\"\(fmt(y(v)))\" width=\"\(fmt(max(1, barWidth - 2)))\" height=\"\(fmt(height - y(v)))\"><title>\(Self.shortDate(day)): \(v.safeInt) kcal</title></rect>")
        }.joined()
        let ticks = [0, top / 2, top].map { v in
            HTML("<line class=\"grid-line\" x1=\"\(fmt(left))\" x2=\"\(fmt(left + width))\" y1=\"\(fmt(y(v)))\" y2=\"\(fmt(y(v)))\"/><text x=\"\(fmt(left - 4))\" y=\"\(fmt(y(v) + 3))\" text-anchor=\"end\">\(v.safeInt)</text>")
        }.joined()
        let step = days.count <= 7 ? 1 : 7
        let labels = days.enumerated().filter { i, _ in (days.count - 1 - i) % step == 0 }.map { i, d in
            HTML("<text x=\"\(fmt(left + Double(i) * barWidth + barWidth / 2))\" y=\"\(fmt(height + 13))\" text-anchor=\"middle\">\(days.count <= 7 ? d.weekday.shortName : "\(d.day)")</text>\(if: days.count <= 7, HTML("<text x=\"\(fmt(left + Double(i) * barWidth + barWidth / 2))\" y=\"\(fmt(height + 24))\" text-anchor=\"middle\">\(d.day)</text>"))")
        }.joined()
        let average = DailyAverage.of(days.map { DailyAverage.Day(date: $0, energyKcal: byDate[$0]?.nutrients.energyKcal ?? 0, entries: byDate[$0]?.entries ?? 0) },
                                      today: model.today)
        let averageText = average.map { a in
            "Average \(a.energyKcal.display(0)) kcal a day over the \(a.days.count) day\(a.days.count == 1 ? "" : "s") with entries (of \(days.count))\(a.leftOutToday ? ", today left out until it is over" : "")"
        } ?? "Nothing logged in these \(days.count) days"
        return """
        <section class="card chart-card" id="chart" aria-labelledby="chart-title">
          <div class="group-head"><h2 id="chart-title">Calories, \(Self.shortDate(model.chartFrom)) – \(Self.shortDate(model.chartTo))</h2>
            <nav class="range-toggle" aria-label="Chart range">
              <a class="button" href="\(SiteURL.diary(date: model.day.date, range: "week").path(fragment: "chart"))"\(if: model.chartRange == "week", " aria-current=\"page\"")>7 days</a>
              <a class="button" href="\(SiteURL.diary(date: model.day.date, range: "month").path(fragment: "chart"))"\(if: model.chartRange == "month", " aria-current=\"page\"")>30 days</a></nav></div>
          <svg class="chart" viewBox="0 -6 \(fmt(left + width + 4)) \(fmt(height + 34))" role="img" aria-labelledby="chart-desc">
            <desc id="chart-desc">Daily calories from \(PlannerPage.longDate(model.chartFrom)) to \(PlannerPage.longDate(model.chartTo)) against a goal of \(goal.safeInt) kcal. \(averageText).</desc>
            \(ticks)
            \(bars)
            <line class="goal-line" x1="\(fmt(left))" x2="\(fmt(left + width))" y1="\(fmt(y(goal)))" y2="\(fmt(y(goal)))"/>
            \(labels)
          </svg>
          <p class="muted chart-legend"><span class="legend under"></span> under goal <span class="legend over"></span> over goal <span class="legend goal"></span> goal \(goal.safeInt) kcal</p>
          <p class="muted">\(averageText).</p>
        </section>
        """
    }

    /// A round top for the calorie axis (500, 1000, 1500 … kcal).
    static func axisTop(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 500 }
        return (value / 500).rounded(.up) * 500
    }

    /// The short date of charts and lists: "21 Nov".
    static func shortDate(_ d: CalendarDate) -> String { "\(d.day) \(PlannerPage.monthName(d.month).prefix(3))" }

    private var weightTrend: HTML {
        let points = model.weights
        guard points.count >= 1 else {
            return "<section class=\"card\" aria-labelledby=\"weight-title\"><h2 id=\"weight-title\">Weight</h2><p class=\"muted\">No weights yet. Add one under <a href=\"\(SiteURL.goals.path)\">Goals</a>, or import Apple Health.</p></section>"
        }
        let left = 44.0, width = 290.0, height = 100.0
        let times = points.map { $0.measuredAt.timeIntervalSince1970 }
        let kgs = points.map { Plausible.bodyWeightKg.clamped($0.weightKg).finiteDouble }
        let t0 = times.min()!, t1 = max(times.max()!, t0 + 1)
        let lo = (kgs.min()! - 1).rounded(.down), hi = (kgs.max()! + 1).rounded(.up)
        let coordinates = zip(times, kgs).map { t, w in (left + (t - t0) / (t1 - t0) * width, height - (w - lo) / (hi - lo) * height) }
        let last = points.last!
        let firstDay = CalendarDate(points.first!.measuredAt, in: model.zone), lastDay = CalendarDate(last.measuredAt, in: model.zone)
        return """
        <section class="card" aria-labelledby="weight-title">
          <h2 id="weight-title">Weight</h2>
          <svg class="chart weight" viewBox="0 -6 \(fmt(left + width + 8)) \(fmt(height + 24))" role="img" aria-labelledby="weight-desc">
            <desc id="weight-desc">\(points.count) weights from \(kgs.first!.formatted1) kg on \(PlannerPage.longDate(firstDay)) to \(kgs.last!.formatted1) kg on \(PlannerPage.longDate(lastDay)).</desc>
            \([lo, (lo + hi) / 2, hi].map { v in
                let yy = height - (v - lo) / (hi - lo) * height
                return HTML("<line class=\"grid-line\" x1=\"\(fmt(left))\" x2=\"\(fmt(left + width))\" y1=\"\(fmt(yy))\" y2=\"\(fmt(yy))\"/><text x=\"\(fmt(left - 4))\" y=\"\(fmt(yy + 3))\" text-anchor=\"end\">\(v.formatted1)</text>")
            }.joined())
            <polyline class="weight-line" points="\(coordinates.map { "\(fmt($0.0)),\(fmt($0.1))" }.joined(separator: " "))"/>
            \(coordinates.map { HTML("<circle class=\"weight-dot\" r=\"3\" cx=\"\(fmt($0.0))\" cy=\"\(fmt($0.1))\"/>") }.joined())
            <text x="\(fmt(left))" y="\(fmt(height + 14))">\(Self.shortDate(firstDay))</text>
            <text x="\(fmt(left + width))" y="\(fmt(height + 14))" text-anchor="end">\(Self.shortDate(lastDay))</text>
          </svg>
          <p class="muted">Latest: \(last.weightKg.display(1)) kg (\(PlannerPage.longDate(lastDay))) · kg on the left axis</p>
        </section>
        """
    }

    private func fmt(_ v: Double) -> String { String(format: "%.1f", v) }
}

extension Double {
    var formatted1: String { String(format: "%.1f", self) }
}
