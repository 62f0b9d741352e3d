import ForkcastCore
import Foundation

/// The meal library: filters, the list (planned meals last, seed 002 Req 2.5) and its empty states.
struct MealListPage {
    struct Model {
        var filter: MealFilter
        var facets: MealFacets
        var items: [MealRepository.Listed]
        /// Meals in the library, ignoring the filter.
        var libraryCount: Int
        var window: WeekWindow
        var totals: [UUID: MealTotals] = [:]
        var currency = "EUR"
        /// Meals matching the filter (all pages).
        var matching = 0
        var page = 1
        var today = CalendarDate(dayNumber: 0)
    }

    let model: Model
    let csrf: String

    func render(layout: Layout) -> HTML {
        layout.render("""
        <div class="page-head">
          <h1>Meals</h1>
          <div class="head-actions">
            <a class="button" href="\(SiteURL.importRecipe.path)" data-pressable>Import recipe</a>
            <a class="button primary" href="\(SiteURL.newMeal.path)" data-pressable>\(Icons.plus) Add meal</a>
          </div>
        </div>
        \(filters)
        <div id="meal-results" aria-live="polite">\(results)</div>
        \(deleteDialog)
        """)
    }

    private var filters: HTML {
        let f = model.filter
        func options(_ values: [String], selected: String?) -> HTML {
            values.map { v in HTML("<option value=\"\(v)\"\(if: v.matchKey == selected?.matchKey, " selected")>\(v)</option>") }.joined()
        }
        let chosen = f.componentKeys
        let chips = model.facets.components.map { c in
            HTML("""
            <label class="chip toggle"><input type="checkbox" name="component" value="\(c)"\(if: chosen.contains(c.matchKey), " checked")><span>\(c)</span></label>
            """)
        }.joined()
        // One control for everything but the search (57 component chips pushed the first
        // meal 1,587 px down on a phone); open when something in it is chosen.
        let chosenCount = (f.protein == nil ? 0 : 1) + (f.carb == nil ? 0 : 1) + chosen.count
        return """
        <form id="meal-filters" class="card filters" method="get" action="\(SiteURL.meals().path)" role="search" aria-label="Filter meals">
          <div class="field">
            <label for="filter-q">Search</label>
            <input id="filter-q" type="search" name="q" value="\(f.text ?? "")" placeholder="Name or ingredient">
          </div>
          <details class="more-filters" id="more-filters"\(if: chosenCount > 0, " open")>
            <summary>Filters<span class="muted" id="filters-chosen">\(chosenCount == 0 ? " · none" : " · \(chosenCount) chosen")</span></summary>
            <div class="filter-row">
              <div class="field">
                <label for="filter-protein">Protein</label>
                <select id="filter-protein" name="protein"><option value="">Any protein</option>\(options(model.facets.proteins, selected: f.protein))</select>
              </div>
              <div class="field">
                <label for="filter-carb">Carb</label>
                <select id="filter-carb" name="carb"><option value="">Any carb</option>\(options(model.facets.carbs, selected: f.carb))</select>
              </div>
            </div>
            \(if: !model.facets.components.isEmpty, HTML("""
            <fieldset class="components">
              <legend>Components (all must match)</legend>
              <div class="chips">\(chips)</div>
            </fieldset>
            """))
          </details>
          <div class="filter-actions">
            <button class="button" type="submit" data-js-hide>Apply filters</button>
            \(if: f.isActive, HTML("<a class=\"button subtle\" href=\"\(SiteURL.meals().path)\" data-clear-filters>Clear filters</a>"))
          </div>
        </form>
        """
    }

    /// The part that changes with the filter (served alone as the `meal-list` fragment).
    var results: HTML {
        let count = model.items.count
        if model.libraryCount == 0 {
            return """
            <div class="empty card" id="empty-library">
              <h2>No meals yet</h2>
              <p>Your library is empty. Add the dishes you cook, then plan them on days of the week.</p>
              <a class="button primary" href="\(SiteURL.newMeal.path)">\(Icons.plus) Add your first meal</a>
            </div>
            """
        }
        if count == 0 {
            return """
            <div class="empty card" id="no-match">
              <h2>No meals match</h2>
              <p>None of your \(model.libraryCount) meals match these filters.</p>
              <a class="button" href="\(SiteURL.meals().path)" data-clear-filters>Clear filters</a>
            </div>
            """
        }
        let filter = model.filter
        let pager = Pager(page: model.page, per: Pager.perPage, total: model.matching,
                          noun: filter.isActive ? ("meal matches", "meals match") : ("meal", "meals"), link: { SiteURL.meals(filter, page: $0).path })
        let summary = filter.isActive ? "\(model.matching) of \(model.libraryCount) meals match" + (model.matching > Pager.perPage ? " · " + pager.summary : "")
                                      : pager.summary
        return """
        <p class="count" id="meal-count">\(summary)</p>
        <ul class="meal-list" id="meal-list">\(model.items.map { Self.card($0, csrf: csrf, totals: model.totals[$0.meal.id], currency: model.currency, today: model.today) }.joined())</ul>
        \(pager.nav)
        """
    }

    static func card(_ item: MealRepository.Listed, csrf: String, totals: MealTotals? = nil, currency: String = "EUR", today: CalendarDate) -> HTML {
        let meal = item.meal
        let summary = totals.map { NutritionSummary(nutrients: $0.perServing, cost: $0.costPerServing, currency: currency) }
        let components = meal.otherComponents.map { HTML("<li class=\"chip\">\($0)</li>") }.joined()
        return """
        <li class="meal card\(if: item.isPlanned, " planned")" id="meal-\(meal.id.uuidString)" data-meal-id="\(meal.id.uuidString)" data-description="\(meal.description)">
          <div class="meal-main">
            <h2 class="meal-title"><a href="\(SiteURL.recipe(meal.id).path)">\(meal.description)</a></h2>
            \(if: item.isPlanned, "<span class=\"planned-note\">Planned this week</span>")
            <p class="macros">
              \(meal.primaryProtein.map { HTML("<span class=\"tag protein\"><span class=\"visually-hidden\">Protein: </span>\($0)</span>") })
              \(meal.primaryCarb.map { HTML("<span class=\"tag carb\"><span class=\"visually-hidden\">Carb: </span>\($0)</span>") })
            </p>
            \(if: !meal.otherComponents.isEmpty, HTML("<ul class=\"chips\" aria-label=\"Other components\">\(components)</ul>"))
            \(summary.flatMap { $0.isEmpty ? nil : HTML("<p class=\"nutrition\"><span class=\"visually-hidden\">Per serving: </span>\($0.html)</p>") })
          </div>
          <div class="meal-actions">
            <a class="button small primary" href="\(SiteURL.diaryAdd(meal: meal.id).path)" data-pressable>Log<span class="visually-hidden"> \(meal.description)</span></a>
            <details class="plan-meal">
              <summary class="button small">Plan<span class="visually-hidden"> \(meal.description)</span></summary>
              <form method="post" action="\(SiteURL.assign.path)" class="plan-meal-form">
                \(Layout.csrfField(csrf))
                <input type="hidden" name="mealId" value="\(meal.id.uuidString)">
                <label for="plan-date-\(meal.id.uuidString)">Day</label>
                <input id="plan-date-\(meal.id.uuidString)" type="date" name="date" value="\(today.iso)" min="\(today.iso)" required>
                <button class="button small" type="submit">Add to plan</button>
              </form>
            </details>
            <a class="button small" href="\(SiteURL.editMeal(meal.id).path)" data-pressable>Edit<span class="visually-hidden"> \(meal.description)</span></a>
            <a class="button small danger" href="\(SiteURL.deleteMeal(meal.id).path)" data-delete-meal data-pressable>Delete<span class="visually-hidden"> \(meal.description)</span></a>
          </div>
        </li>
        """
    }

    private var deleteDialog: HTML {
        """
        <dialog id="delete-dialog" aria-labelledby="delete-title">
          <form method="post" class="stack">
            \(Layout.csrfField(csrf))
            <h2 id="delete-title">Delete meal?</h2>
            <p id="delete-text"></p>
            <div class="dialog-actions">
              <button class="button" type="button" value="cancel" data-close>Cancel</button>
              <button class="button danger" type="submit">Delete</button>
            </div>
          </form>
        </dialog>
        """
    }
}
