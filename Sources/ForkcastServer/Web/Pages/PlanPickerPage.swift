import ForkcastCore
import Foundation

/// The meal picker for one day (the no-JavaScript path; scripts show it in a dialog).
struct PlanPickerPage {
    let date: CalendarDate
    let query: String
    let meals: [Meal]
    let csrf: String
    var mealType: String?
    /// Meals matching the search in the whole library (the list shows the first ones).
    var total = 0
    var mealTypes: MealTypeCatalog?
    /// The Repeat chosen with the last search (each Add sends it).
    var rule: PlanRepeat?

    func render(layout: Layout) -> HTML {
        layout.render("""
        <section class="card">
          <h1>Add a meal to \(date.weekday.name) \(PlannerPage.longDate(date))</h1>
          <form method="get" action="\(SiteURL.planPicker(date: date, query: nil).template)" role="search" class="filter-row picker-search">
            <input type="hidden" name="date" value="\(date.iso)">
            <div class="field grow"><label for="picker-q">Search your meals</label>
            <input id="picker-q" type="search" name="q" value="\(query)"></div>
            <div class="field grow"><label for="picker-mealType">For</label>\(PlannerPage.slotSelect(id: "picker-mealType", selected: mealType, types: mealTypes))</div>
            \(PlannerPage.repeatFields(id: "picker-page-repeat", rule: rule, workdays: false))
            <button class="button" type="submit">Search</button>
          </form>
          <ul class="picker-list">\(results)</ul>
          <p><a href="\(SiteURL.plan(start: date).path)">Back to the planner</a></p>
        </section>
        """)
    }

    /// The results alone (the `picker` fragment).
    var results: HTML {
        if meals.isEmpty {
            return query.isEmpty ? "<li class=\"muted\">Your library is empty. <a href=\"\(SiteURL.newMeal.path)\">Add a meal</a> first.</li>"
                                 : "<li class=\"muted\">No meals match “\(query)”.</li>"
        }
        let more: HTML = total > meals.count ? HTML("<li class=\"muted picker-count\">Showing \(meals.count) of \(total) meals\(query.isEmpty ? "" : " matching") — type to find the others.</li>") : .empty
        let items = meals.map { meal in
            HTML("""
            <li>
              <form method="post" action="\(SiteURL.assign.path)" class="picker-item" data-pick-form>
                \(Layout.csrfField(csrf))
                <input type="hidden" name="mealId" value="\(meal.id.uuidString)">
                <input type="hidden" name="date" value="\(date.iso)">
                <input type="hidden" name="mealType" value="\(mealType ?? "")">
                \(PlannerPage.repeatHidden(rule))
                <span class="picker-name">\(meal.description)\(meal.primaryProtein.map { HTML(" <span class=\"tag protein\">\($0)</span>") })</span>
                <button class="button small primary" type="submit" data-pressable>Add<span class="visually-hidden"> \(meal.description)</span></button>
              </form>
            </li>
            """)
        }
        return "\(more)\(items)"
    }
}
