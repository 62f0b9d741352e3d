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
        var goals: Goals?

        /// The planned meals already logged (ForkcastCore's ``PlanDay/logged(by:)``, as Today shows them).
        var logged: Set<UUID> = []
        /// The household's people (initials beside what each eats) and the signed-in one (whose portions the figures count).
        var members: [Household.Member] = []
        var me: UUID?

        var figures: DayFigures { DayFigures(totals: totals, goals: goals, currency: currency, logged: logged, me: me, members: members) }
        var weekTotals: PlanTotals { figures.line(days.flatMap(\.entries)) }
        /// The week's average planned day (days with something planned) against the goals.
        var weekStanding: GoalStanding? {
            guard let goals else { return nil }
            let planned = days.filter { !$0.entries.isEmpty }
            guard !planned.isEmpty else { return nil }
            let sum = planned.map { figures.eaten($0.entries) }.reduce(Nutrients(), +)
            return GoalStanding(sum.scaled(by: 1 / Decimal(planned.count)), goals: goals)
        }
    }

    /// What a day shows beside its meals: one serving of each (what one person eats), against the
    /// goals, and what the portions made cost.
    struct DayFigures {
        var totals: [UUID: MealTotals]
        var goals: Goals?
        var currency: String
        var logged: Set<UUID> = []
        var me: UUID?
        var members: [Household.Member] = []

        /// What the signed-in person eats of `entries`: their portions of each (one serving each when nobody is named).
        func eaten(_ entries: [PlanDay.Entry]) -> Nutrients {
            guard let me else { return PlanTotals.of(entries.map { totals[$0.meal.id] ?? .unknown }).nutrients }
            return PlanTotals.cooked(entries.compactMap { entry in
                entry.assignment.portions(for: me).map { (totals[entry.meal.id] ?? .unknown, $0 / Decimal(max(entry.meal.servings, 1))) }
            }).nutrients
        }
        func cooked(_ entries: [PlanDay.Entry]) -> PlanTotals {
            PlanTotals.cooked(entries.map { (totals[$0.meal.id] ?? .unknown, $0.assignment.scale(of: $0.meal)) })
        }
        /// The line under a day or the week: one serving's nutrition, the portions' cost.
        func line(_ entries: [PlanDay.Entry]) -> PlanTotals { PlanTotals(nutrients: eaten(entries), cost: cooked(entries).cost) }
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
        <div class="week-tools">
          <a class="button small" href="\(SiteURL.planSuggestions(start: w.start).path)" data-pressable>Fill my week</a>
          <a class="button small" href="\(SiteURL.planTemplates(start: w.start).path)" data-pressable>Templates</a>
          <form method="post" action="\(SiteURL.shopping.path)" class="inline">
            \(Layout.csrfField(csrf))
            <input type="hidden" name="from" value="\(w.start.iso)"><input type="hidden" name="to" value="\(w.end.iso)">
            <input type="hidden" name="week" value="1">
            <button class="button small" type="submit" data-pressable>Shopping list<span class="visually-hidden"> for this week</span></button>
          </form>
        </div>
        \(Self.weekLine(model))
        <ol class="days" aria-labelledby="week-title" data-start="\(w.start.iso)">\(model.days.map { Self.day($0, today: model.today, start: w.start, csrf: csrf, figures: model.figures, types: model.mealTypes) }.joined())</ol>
        """
    }

    /// The week's totals and its average planned day against the goals (the `week-totals` fragment).
    static func weekLine(_ model: Model) -> HTML {
        let totals = totalsLine(model.weekTotals, currency: model.currency, id: "week-totals", label: model.window.contains(model.today) ? "This week" : "That week")
        guard let standing = model.weekStanding else { return HTML("<div id=\"week-line\">\(totals)</div>") }
        return HTML("<div id=\"week-line\">\(totals)\(goalLine(standing, id: "week-goals", label: "Average planned day"))</div>")
    }

    /// A day's energy against the goal as a bar (under, within ±10 %, over), with the macros in words.
    /// The bar reaches half again the goal, with the goal marked two thirds along (``goalBarReach``):
    /// a day on its goal fills most of it, and one over shows by how much.
    static let goalBarReach: Decimal = 1.5

    static func goalLine(_ standing: GoalStanding, id: String, label: String) -> HTML {
        guard let energy = standing.line(.energyKcal), energy.goal > 0 else { return .empty }
        let words: [GoalStanding.Band: String] = [.under: "under", .within: "on target", .over: "over"]
        let macros = standing.lines.filter { $0.nutrient != .energyKcal }.map { line in
            "<span class=\"goal-macro band-\(line.band.rawValue)\"><abbr title=\"\(line.nutrient.name)\">\(line.nutrient.name.prefix(1))</abbr> \(line.amount.display(0))/\(line.goal.display(0)) g</span>"
        }.joined(separator: " ")
        let goal = energy.goal, top = goal * goalBarReach, value = min(energy.amount, top)
        return HTML("""
        <div class="goal-line band-\(energy.band.rawValue)" id="\(id)">
          <span class="totals-label">\(label):</span>
          <span class="goal-bar"><meter min="0" max="\(top.display(0))" low="\((goal * (1 - GoalStanding.tolerance)).display(0))" high="\((goal * (1 + GoalStanding.tolerance)).display(0))" optimum="\(goal.display(0))" value="\(value.display(0))" aria-hidden="true"></meter><span class="goal-mark" aria-hidden="true"></span></span>
          <span class="goal-words">\(energy.amount.display(0)) of \(goal.display(0)) kcal — <strong>\(words[energy.band]!)</strong></span>
          <span class="goal-macros">\(HTML(raw: macros))</span>
        </div>
        """)
    }

    static func rangeTitle(_ w: WeekWindow) -> String {
        let s = w.start, e = w.end
        if s.year == e.year && s.month == e.month { return "\(s.day)–\(e.day) \(monthName(s.month)) \(s.year)" }
        if s.year == e.year { return "\(s.day) \(monthName(s.month)) – \(e.day) \(monthName(e.month)) \(s.year)" }
        return "\(s.day) \(monthName(s.month)) \(s.year) – \(e.day) \(monthName(e.month)) \(e.year)"
    }

    static func monthName(_ m: Int) -> String {
        CalendarDate.monthNames[m - 1]
    }

    static func longDate(_ d: CalendarDate) -> String { "\(d.day) \(monthName(d.month)) \(d.year)" }

    /// One day (served alone as the `day` fragment after a change).
    static func totalsLine(_ totals: PlanTotals, currency: String, id: String, label: String) -> HTML {
        let summary = NutritionSummary(nutrients: totals.nutrients, cost: totals.cost, currency: currency)
        guard !summary.isEmpty else { return .empty }
        return "<p class=\"plan-totals\" id=\"\(id)\"><span class=\"totals-label\">\(label):</span> \(summary.html)</p>"
    }

    static func day(_ day: PlanDay, today: CalendarDate, start: CalendarDate, csrf: String, figures: DayFigures, types: MealTypeCatalog?) -> HTML {
        let totals = figures.line(day.entries), currency = figures.currency
        let isToday = day.date == today
        let entries = day.entries.map { entry in
            let slot = entry.assignment.mealType.flatMap { types?.resolve($0) }
            // A meal with a slot is logged there in one tap; without one, Today asks which meal it was.
            // Days to come have nothing to log yet.
            let log: HTML = figures.logged.contains(entry.assignment.id) ? HTML("<span class=\"logged-mark\">✓ Logged</span>")
                : day.date > today ? .empty : slot != nil ? HTML("""
              <form method="post" action="\(SiteURL.logPlanned.path)" class="inline">
                \(Layout.csrfField(csrf))
                <input type="hidden" name="assignmentId" value="\(entry.assignment.id.uuidString)">
                <input type="hidden" name="back" value="\(SiteURL.plan(start: start).path)">
                <button class="button small log-button" type="submit" data-pressable>Log<span class="visually-hidden"> \(entry.meal.description) as eaten</span></button>
              </form>
              """) : HTML("<a class=\"button small log-button\" href=\"\(SiteURL.diary(date: day.date == today ? nil : day.date).path(fragment: "planned"))\">Log<span class=\"visually-hidden\"> \(entry.meal.description) as eaten</span></a>")
            return HTML("""
            <li class="planned-meal" id="assignment-\(entry.assignment.id.uuidString)" data-assignment-id="\(entry.assignment.id.uuidString)">
              <div class="planned-text">\(slot.map { HTML("<span class=\"slot-label\">\($0.name)</span>") })<a class="planned-name" href="\(SiteURL.recipe(entry.meal.id, entry: entry.assignment.id).path)">\(entry.meal.description)\(repeatMark(entry))</a>
              \(entry.meal.primaryProtein.map { HTML("<span class=\"tag protein\">\($0)</span>") })</div>
              \(removeControl(entry, day: day, start: start, csrf: csrf))
              \(eaters(entry, day: day, start: start, csrf: csrf, members: figures.members, me: figures.me))
              <div class="planned-actions">
              \(servingsStepper(entry, start: start, csrf: csrf, day: day))
              \(log)
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
          \(figures.goals.flatMap { goals in day.entries.isEmpty ? nil : goalLine(GoalStanding(figures.eaten(day.entries), goals: goals), id: "day-\(day.date.iso)-goals", label: "Goals") })
          <a class="button small add-to-day" href="\(SiteURL.planPicker(date: day.date, query: nil).path)" data-pick-day="\(day.date.iso)" data-day-name="\(day.weekday.name)" data-pressable>\(Icons.plus) Add meal<span class="visually-hidden"> to \(day.weekday.name) \(longDate(day.date))</span></a>
        </li>
        """
    }

    /// Who eats it, by initials and portions, and a form to change it; shown once a household has
    /// more than one person.
    static func eaters(_ entry: PlanDay.Entry, day: PlanDay, start: CalendarDate, csrf: String, members: [Household.Member], me: UUID?) -> HTML {
        guard members.count > 1 else { return .empty }
        let a = entry.assignment, name = entry.meal.description
        let who = members.compactMap { member in
            a.portions(for: member.id).map { "\(Assignment.initials(of: Household.name(of: member, among: members, me: me)))\($0 == 1 ? "" : " ×\($0)")" }
        }.joined(separator: " · ")
        let rows = members.map { member in
            let portions = a.portions(for: member.id), key = member.id.uuidString, shown = Household.name(of: member, among: members, me: me)
            return HTML("""
            <li class="eater"><label><input type="checkbox" name="eater-\(a.id.uuidString)" value="\(key)"\(if: portions != nil, " checked")
                aria-labelledby="eaten-by-\(a.id.uuidString) eater-\(a.id.uuidString)-\(key)"> <span id="eater-\(a.id.uuidString)-\(key)">\(shown)</span></label>
              <input type="number" name="portions-\(key)" value="\("\(portions ?? 1)")" min="0.25" max="\("\(Eater.maximumPortions)")" step="0.25" inputmode="decimal"
                     aria-label="Portions for \(shown)"></li>
            """)
        }.joined()
        return HTML("""
        <details class="eaters-edit"><summary><span class="eaters" aria-label="Who eats \(name)">\(who.isEmpty ? "nobody" : who)</span></summary>
          <form method="post" action="\(SiteURL.assignmentEaters(a.id).path)">\(Layout.csrfField(csrf))
            <input type="hidden" name="start" value="\(start.iso)">
            <fieldset class="eater-set"><legend id="eaten-by-\(a.id.uuidString)">Eaten by</legend><ul class="eater-list">\(rows)</ul></fieldset>
            \(if: a.seriesId != nil, HTML("<label class=\"later-days\"><input type=\"checkbox\" name=\"later-\(a.id.uuidString)\" value=\"following\"> And the later days of this repeat</label>"))
            <button class="button small" type="submit">Save who eats<span class="visually-hidden"> \(name) on \(day.weekday.name)</span></button>
          </form></details>
        """)
    }

    /// How many portions are made: − n + (the planner's stepper; the cost and shopping list follow).
    static func servingsStepper(_ entry: PlanDay.Entry, start: CalendarDate, csrf: String, day: PlanDay) -> HTML {
        let n = entry.assignment.portions(of: entry.meal), range = Assignment.servingsRange
        let name = entry.meal.description
        return HTML("""
        <form method="post" action="\(SiteURL.updateAssignment(entry.assignment.id).path)" class="inline stepper" data-day-action="servings">
          \(Layout.csrfField(csrf))
          <input type="hidden" name="start" value="\(start.iso)">
          <button class="icon-button" type="submit" name="servings" value="\(n - 1)"\(if: n <= range.lowerBound, " disabled") aria-label="One portion fewer of \(name) on \(day.weekday.name)" data-pressable>−</button>
          <span class="stepper-value" aria-label="\(n) portion\(n == 1 ? "" : "s") of \(name)">×\(n)</span>
          <button class="icon-button" type="submit" name="servings" value="\(n + 1)"\(if: n >= range.upperBound, " disabled") aria-label="One portion more of \(name) on \(day.weekday.name)" data-pressable>+</button>
        </form>
        """)
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
            \(Self.repeatFields(id: "picker-repeat"))
            <ul id="picker-results" class="picker-list" aria-live="polite"></ul>
          </div>
        </dialog>
        """
    }
}
