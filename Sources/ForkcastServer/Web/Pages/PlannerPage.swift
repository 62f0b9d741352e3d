import ForkcastCore
import Foundation

/// The weekly planner: seven days from a start date, each with its meals (seed 002 Req 4–6).
struct PlannerPage {
    struct Model {
        var window: WeekWindow
        var today: CalendarDate
        var days: [PlanDay]
        /// Meals offered in the side panel for drag and drop (wide screens).
        var library: [Meal]
        var totals: [UUID: MealTotals] = [:]
        var currency = "EUR"
        var libraryTotal = 0
        var mealTypes: MealTypeCatalog?

        func dayTotals(_ day: PlanDay) -> PlanTotals { PlanTotals.of(day.entries.map { totals[$0.meal.id] ?? .unknown }) }
        var weekTotals: PlanTotals { days.map(dayTotals).reduce(.empty, +) }
    }

    let model: Model
    let csrf: String

    func render(layout: Layout) -> HTML {
        layout.render("""
        <div class="planner-layout">
          <div id="week" class="week-wrap">\(week)</div>
          <aside class="library-panel card" aria-labelledby="panel-title">
            <h2 id="panel-title">Drag a meal onto a day</h2>
            <input id="panel-search" type="search" placeholder="Search meals" aria-label="Search meals to drag" data-panel-search>
            <ul class="panel-list" id="panel-list">\(Self.panelItems(model.library, total: model.libraryTotal))</ul>
          </aside>
        </div>
        \(pickerDialog)
        """)
    }

    /// The meal slot choice: no slot, or one of the meal types.
    static func slotSelect(id: String, selected: String?, types: MealTypeCatalog?) -> HTML {
        let options = types.map { MealTypeOptions.html($0, selected: selected ?? "") } ?? .empty
        return HTML("<select id=\"\(id)\" name=\"mealType\"><option value=\"\"\(if: selected == nil, " selected")>Any meal (no slot)</option>\(options)</select>")
    }

    static func panelItems(_ meals: [Meal], total: Int = 0) -> HTML {
        if meals.isEmpty { return "<li class=\"muted\">No meals found.</li>" }
        let more: HTML = total > meals.count ? HTML("<li class=\"muted\">Showing \(meals.count) of \(total) — search to find the others.</li>") : .empty
        let items = meals.map { m in
            HTML("<li class=\"panel-meal\" draggable=\"true\" data-meal-id=\"\(m.id.uuidString)\">\(m.description)</li>")
        }
        return "\(more)\(items)"
    }

    /// The week navigation and days (served alone as the `week` fragment).
    var week: HTML {
        let w = model.window
        return """
        <div class="page-head week-head">
          <h1 id="week-title">\(Self.rangeTitle(w))</h1>
          <nav class="week-nav" aria-label="Weeks">
            <a class="button" href="\(SiteURL.plan(start: w.previous.start).path)" data-week-nav rel="prev" data-pressable>← <span>Previous</span><span class="visually-hidden"> week</span></a>
            <a class="button" href="\(SiteURL.plan(start: nil).path)" data-week-nav data-pressable\(if: w.start == model.today, " aria-current=\"date\"")>Today</a>
            <a class="button" href="\(SiteURL.plan(start: w.next.start).path)" data-week-nav rel="next" data-pressable><span>Next</span><span class="visually-hidden"> week</span> →</a>
          </nav>
        </div>
        \(Self.totalsLine(model.weekTotals, currency: model.currency, id: "week-totals", label: "This week"))
        <ol class="days" aria-labelledby="week-title" data-start="\(w.start.iso)">\(model.days.map { Self.day($0, today: model.today, start: w.start, csrf: csrf, totals: model.dayTotals($0), currency: model.currency, types: model.mealTypes) }.joined())</ol>
        """
    }

    static func rangeTitle(_ w: WeekWindow) -> String {
        let s = w.start, e = w.end
        if s.year == e.year && s.month == e.month { return "\(s.day)–\(e.day) \(monthName(s.month)) \(s.year)" }
        if s.year == e.year { return "\(s.day) \(monthName(s.month)) – \(e.day) \(monthName(e.month)) \(s.year)" }
        return "\(s.day) \(monthName(s.month)) \(s.year) – \(e.day) \(monthName(e.month)) \(e.year)"
    }

    static func monthName(_ m: Int) -> String {
        ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][m - 1]
    }

    static func longDate(_ d: CalendarDate) -> String { "\(d.day) \(monthName(d.month)) \(d.year)" }

    /// One day (served alone as the `day` fragment after a change).
    static func totalsLine(_ totals: PlanTotals, currency: String, id: String, label: String) -> HTML {
        let summary = NutritionSummary(nutrients: totals.nutrients, cost: totals.cost, currency: currency)
        guard !summary.isEmpty else { return .empty }
        return "<p class=\"plan-totals\" id=\"\(id)\"><span class=\"totals-label\">\(label):</span> \(summary.html)</p>"
    }

    static func day(_ day: PlanDay, today: CalendarDate, start: CalendarDate, csrf: String, totals: PlanTotals = .empty, currency: String = "EUR",
                    types: MealTypeCatalog?) -> HTML {
        let isToday = day.date == today
        let entries = day.entries.map { entry in
            let slot = entry.assignment.mealType.flatMap { types?.resolve($0) }
            // A meal with a slot is logged there in one tap; without one, Today asks which meal it was.
            let log: HTML = slot != nil ? HTML("""
              <form method="post" action="\(SiteURL.logPlanned.path)" class="inline">
                \(Layout.csrfField(csrf))
                <input type="hidden" name="assignmentId" value="\(entry.assignment.id.uuidString)">
                <input type="hidden" name="back" value="\(SiteURL.plan(start: start).path)">
                <button class="button small log-button" type="submit" data-pressable>Log<span class="visually-hidden"> \(entry.meal.description) as eaten</span></button>
              </form>
              """) : HTML("<a class=\"button small log-button\" href=\"\(SiteURL.diary(date: day.date == today ? nil : day.date).path(fragment: "planned"))\">Log<span class=\"visually-hidden\"> \(entry.meal.description) as eaten</span></a>")
            return HTML("""
            <li class="planned-meal" data-assignment-id="\(entry.assignment.id.uuidString)">
              <div class="planned-text">\(slot.map { HTML("<span class=\"slot-label\">\($0.name)</span>") })<span class="planned-name">\(entry.meal.description)</span>
              \(entry.meal.primaryProtein.map { HTML("<span class=\"tag protein\">\($0)</span>") })</div>
              <div class="planned-actions">
              \(log)
              <form method="post" action="\(SiteURL.removeAssignment(entry.assignment.id).path)" class="inline" data-day-action>
                \(Layout.csrfField(csrf))
                <input type="hidden" name="start" value="\(start.iso)">
                <button class="icon-button" type="submit" aria-label="Remove \(entry.meal.description) from \(day.weekday.name)" data-pressable>\(Icons.close)</button>
              </form>
              </div>
            </li>
            """)
        }.joined()
        return """
        <li class="day card\(if: isToday, " today")" id="day-\(day.date.iso)" data-date="\(day.date.iso)" aria-labelledby="day-\(day.date.iso)-title">
          <div class="day-head">
            <h2 id="day-\(day.date.iso)-title"><span class="day-name">\(day.weekday.name)</span> <span class="day-date">\(longDate(day.date))</span></h2>
            \(if: isToday, "<span class=\"today-badge\">Today</span>")
          </div>
          \(day.entries.isEmpty ? HTML("<p class=\"day-empty\">Nothing planned</p>") : HTML("<ul class=\"day-meals\">\(entries)</ul>"))
          \(totalsLine(totals, currency: currency, id: "day-\(day.date.iso)-totals", label: "Day"))
          <a class="button small add-to-day" href="\(SiteURL.planPicker(date: day.date, query: nil).path)" data-pick-day="\(day.date.iso)" data-day-name="\(day.weekday.name)" data-pressable>\(Icons.plus) Add meal<span class="visually-hidden"> to \(day.weekday.name) \(longDate(day.date))</span></a>
        </li>
        """
    }

    private var pickerDialog: HTML {
        """
        <dialog id="picker-dialog" aria-labelledby="picker-title">
          <div class="stack">
            <div class="dialog-head"><h2 id="picker-title">Add a meal</h2>
              <button class="icon-button" type="button" data-close aria-label="Close">\(Icons.close)</button></div>
            <div class="grid-2">
              <div class="field"><label for="picker-search">Search your meals</label>
                <input id="picker-search" type="search" placeholder="Name or ingredient"></div>
              <div class="field"><label for="picker-slot">For</label>\(Self.slotSelect(id: "picker-slot", selected: nil, types: model.mealTypes))</div>
            </div>
            <ul id="picker-results" class="picker-list" aria-live="polite"></ul>
          </div>
        </dialog>
        """
    }
}
