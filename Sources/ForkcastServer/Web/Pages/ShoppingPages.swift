import ForkcastCore
import Foundation

/// The Shopping tab: the person's lists, and a new one from a range of the plan.
struct ShoppingListsPage {
    struct Row {
        let list: ShoppingList
        let items: Int
        let checked: Int
    }

    let rows: [Row]
    let from: CalendarDate
    let to: CalendarDate
    let csrf: String
    var message: String?

    func render(layout: Layout) -> HTML {
        let lists = rows.map { row in
            HTML("""
            <li><a class="list-row" href="\(SiteURL.shoppingList(row.list.id).path)">
              <span class="list-name">\(row.list.name)</span>
              <span class="muted">\(ShoppingListPage.range(row.list)) · \(row.checked) of \(row.items) in the basket\(if: row.list.shareToken != nil, " · shared")</span>
            </a></li>
            """)
        }.joined()
        return layout.render("""
        <div class="page-head"><h1>Shopping</h1><a class="button small" href="\(SiteURL.pantry.path)">Pantry</a></div>
        <section class="card stack" aria-labelledby="new-list-title">
          <h2 id="new-list-title">A list from the plan</h2>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          <form method="post" action="\(SiteURL.shopping.path)" class="filter-row list-range">
            \(Layout.csrfField(csrf))
            <div class="field"><label for="list-from">From</label><input id="list-from" type="date" name="from" value="\(from.iso)" required></div>
            <div class="field"><label for="list-to">To</label><input id="list-to" type="date" name="to" value="\(to.iso)" required></div>
            <div class="field grow"><label for="list-name">Name <span class="muted">(optional)</span></label>
              <input id="list-name" name="name" maxlength="\(ShoppingList.maximumNameLength)" placeholder="\(ShoppingList.defaultName(from: from, to: to))"></div>
            <button class="button primary" type="submit" data-pressable>Make the list</button>
          </form>
          <p class="hint">Every ingredient of the meals planned in those days, for the portions planned, added up per food.</p>
        </section>
        <section class="card" aria-labelledby="lists-title" data-live>
          <h2 id="lists-title">Your lists</h2>
          \(rows.isEmpty ? HTML("<p class=\"muted\">No lists yet.</p>") : HTML("<ul class=\"shopping-lists\">\(lists)</ul>"))
        </section>
        """)
    }
}

/// One list in the shop: big rows to check off, grouped by aisle, checked ones at the bottom.
/// The same rows serve the owner's page and the page a sharing link opens (which may only check).
struct ShoppingListPage {
    let contents: ShoppingListContents
    let currency: String
    let csrf: String
    /// The sharing link's token when the page is the shared one; nil on the owner's page.
    var sharedToken: String?
    /// The link to show (after Share), on the owner's page.
    var shareURL: String?
    var message: String?
    /// The planned meals of the list's days that it could not count (owner's page only).
    var uncounted: [String] = []

    static func range(_ list: ShoppingList) -> String {
        CalendarDate.rangeText(from: list.from, to: list.to)
    }

    func render(layout: Layout) -> HTML {
        let list = contents.list
        let total = ShoppingPlan.estimatedTotal(contents.items)
        let priced = contents.items.filter { $0.estimatedPrice != nil }.count
        return layout.render("""
        <div class="page-head shopping-head">
          <h1 id="list-title">\(list.name)</h1>
          <p class="muted">\(Self.range(list))\(total.map { HTML(" · about <strong>\(Currency.format($0, currency))</strong> for the \(priced == contents.items.count ? "\(priced) items" : "\(priced) of \(contents.items.count) items") with a price") })</p>
          \(if: !uncounted.isEmpty, HTML("<p class=\"muted\" id=\"uncounted\">Not counted (no ingredients): \(uncounted.joined(separator: ", ")).</p>"))
        </div>
        \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
        \(sharedToken == nil ? ownerTools : .empty)
        <section class="card shopping-card" aria-labelledby="list-title" data-list-id="\(list.id.uuidString)">
          \(items)
        </section>
        \(sharedToken == nil ? addForm : .empty)
        """)
    }

    /// The rows alone (the `items` fragment, after a check).
    var items: HTML {
        let open = contents.items.filter { !$0.checked }, done = contents.items.filter(\.checked)
        var groups: [(String, [ShoppingItem])] = []
        for item in open {
            if groups.last?.0 == item.category { groups[groups.count - 1].1.append(item) } else { groups.append((item.category, [item])) }
        }
        let aisles = groups.map { category, items in
            HTML("<li class=\"aisle\"><h2 class=\"aisle-title\">\(category)</h2><ul class=\"shop-rows\">\(items.map(row).joined())</ul></li>")
        }.joined()
        let basket: HTML = done.isEmpty ? .empty
            : HTML("<li class=\"aisle basket\"><h2 class=\"aisle-title\">In the basket (\(done.count))</h2><ul class=\"shop-rows\">\(done.map(row).joined())</ul></li>")
        let empty: HTML = contents.items.isEmpty
            ? HTML("<li class=\"muted\">Nothing to buy: no planned meal in these days has ingredients\(if: sharedToken == nil, " — plan some, then Refresh").</li>") : .empty
        return HTML("<ul id=\"shopping-items\" class=\"shopping-items\" data-live>\(empty)\(aisles)\(basket)</ul>")
    }

    private func row(_ item: ShoppingItem) -> HTML {
        let action = sharedToken.map { SiteURL.sharedCheck($0, item.id).path } ?? SiteURL.checkShoppingItem(item.id).path
        let meals = item.meals.isEmpty ? (item.source == .manual ? "added by you" : "") : item.meals.joined(separator: ", ")
        let delete: HTML = sharedToken != nil ? .empty : HTML("""
          <div class="shop-actions">
          <a class="icon-button shop-edit" href="\(SiteURL.editShoppingItem(item.id).path)" aria-label="Change \(item.name): amount or aisle">\(Icons.pencil)</a>
          <form method="post" action="\(SiteURL.deleteShoppingItem(item.id).path)" class="inline shop-delete">
            \(Layout.csrfField(csrf))
            <button class="icon-button" type="submit" aria-label="Take \(item.name) off the list" data-pressable>\(Icons.close)</button>
          </form>
          </div>
          """)
        return HTML("""
        <li class="shop-item\(if: item.checked, " checked")" id="item-\(item.id.uuidString)" data-item-id="\(item.id.uuidString)">
          <form method="post" action="\(action)" class="shop-check" data-shopping-check data-list-id="\(item.listId.uuidString)"\(if: sharedToken == nil, " data-offline-check")>
            \(Layout.csrfField(csrf))
            <input type="hidden" name="checked" value="\(item.checked ? "false" : "true")">
            <button class="shop-row" type="submit" aria-pressed="\(item.checked ? "true" : "false")">
              <span class="shop-box" aria-hidden="true"></span>
              <span class="shop-text"><span class="shop-name">\(item.name)</span>\(item.amountText.map { HTML(" <span class=\"shop-amount\">\($0)</span>") })
                \(if: !meals.isEmpty, HTML("<span class=\"shop-meals\">\(meals)</span>"))</span>
              \(item.estimatedPrice.map { HTML("<span class=\"shop-price\">\(Currency.format($0, currency))</span>") })
            </button>
          </form>
          \(delete)
        </li>
        """)
    }

    private var ownerTools: HTML {
        let list = contents.list
        let share: HTML = list.shareToken == nil ? HTML("""
          <form method="post" action="\(SiteURL.shareShoppingList(list.id).path)" class="inline">\(Layout.csrfField(csrf))
            <button class="button small" type="submit" data-pressable>Share</button></form>
          """) : HTML("""
          <form method="post" action="\(SiteURL.unshareShoppingList(list.id).path)" class="inline">\(Layout.csrfField(csrf))
            <button class="button small" type="submit" data-pressable>Stop sharing</button></form>
          """)
        let link: HTML = shareURL.map { url in HTML("""
          <div class="share-link"><label for="share-url">Anyone with this link can see this list and check items off (nothing else):</label>
          <input id="share-url" class="share-url" readonly value="\(url)">
          <button class="button small" type="button" data-share-from="share-url">Share link</button></div>
          """) } ?? .empty
        return HTML("""
        <div class="shopping-tools">
          <form method="post" action="\(SiteURL.refreshShoppingList(list.id).path)" class="inline">\(Layout.csrfField(csrf))
            <button class="button small" type="submit" data-pressable>Refresh from the plan</button></form>
          \(share)
          <a class="button small" href="#add-item-title">Add something</a>
          <a class="button small" href="\(SiteURL.plan(start: list.from).path)">Planner</a>
          <form method="post" action="\(SiteURL.deleteShoppingList(list.id).path)" class="inline" data-confirm="Delete this list?">\(Layout.csrfField(csrf))
            <button class="button small danger" type="submit" data-pressable>Delete list</button></form>
        </div>
        \(link)
        """)
    }

    private var addForm: HTML {
        HTML("""
        <section class="card" aria-labelledby="add-item-title">
          <h2 id="add-item-title">Add something</h2>
          <form method="post" action="\(SiteURL.addShoppingItem(contents.list.id).path)" class="filter-row">
            \(Layout.csrfField(csrf))
            <div class="field grow"><label for="item-name">What</label>
              <input id="item-name" name="name" required maxlength="\(ShoppingItem.maximumNameLength)" placeholder="dish soap"></div>
            <div class="field"><label for="item-quantity">How much <span class="muted">(optional)</span></label>
              <input id="item-quantity" name="quantity" inputmode="decimal" size="6"></div>
            <div class="field"><label for="item-unit">Unit <span class="muted">(optional)</span></label>
              <input id="item-unit" name="unit" maxlength="\(ShoppingItem.maximumUnitLength)" size="8" placeholder="bottle"></div>
            <button class="button primary" type="submit" data-pressable>Add</button>
          </form>
        </section>
        """)
    }
}

/// "Fill my week": suggestions for the empty slots, all ticked; one tap plans them.
struct SuggestionsPage {
    let suggestions: PlanSuggestions
    let filter: MealFilter
    let facets: MealFacets
    let types: MealTypeCatalog
    let currency: String
    let csrf: String

    func render(layout: Layout) -> HTML {
        let w = suggestions.window
        let byDate = Dictionary(grouping: suggestions.suggestions, by: \.date)
        let days = suggestions.days.map { day -> HTML in
            let items = byDate[day.date] ?? []
            let planned = suggestions.presenter.dayTotals(day).nutrients
            let after = items.reduce(planned) { $0 + $1.perServing }
            let rows = items.map { s in
                HTML("""
                <li><label class="suggestion">
                  <input type="checkbox" name="pick" value="\(s.meal.id.uuidString)|\(s.date.iso)|\(s.mealType)" checked>
                  <span class="slot-label">\(types.name(of: s.mealType))</span> <span class="planned-name">\(s.meal.description)</span>
                  <span class="muted">\(s.perServing.energyKcal.map { "\($0.display(0)) kcal" } ?? "")</span>\(Self.usesSoon(s))
                </label></li>
                """)
            }.joined()
            return HTML("""
            <li class="card suggestion-day"><fieldset class="suggestion-set">
              <legend><span class="day-name">\(day.weekday.name)</span> <span class="day-date">\(PlannerPage.longDate(day.date))</span></legend>
              \(items.isEmpty ? HTML("<p class=\"muted\">\(day.entries.isEmpty ? "No meal of yours brings this day closer to your goals." : "Planned already, or nothing brings it closer to your goals.")</p>") : HTML("<ul class=\"fill-suggestions\">\(rows)</ul>"))
              \(PlannerPage.goalLine(GoalStanding(after, goals: suggestions.goals), id: "suggest-\(day.date.iso)", label: items.isEmpty ? "As planned" : "With these"))
            </fieldset></li>
            """)
        }.joined()
        func options(_ values: [String], selected: String?) -> HTML {
            HTML("<option value=\"\">Any</option>") + values.map { HTML("<option\(if: $0.matchKey == selected?.matchKey, " selected")>\($0)</option>") }.joined()
        }
        return layout.render("""
        <div class="page-head"><h1>Fill my week</h1><p class="muted">\(PlannerPage.rangeTitle(w))</p></div>
        <form method="get" action="\(SiteURL.planSuggestions(start: nil).path)" class="card filter-row" role="search">
          <input type="hidden" name="start" value="\(w.start.iso)">
          <div class="field"><label for="s-protein">Protein</label><select id="s-protein" name="protein">\(options(facets.proteins, selected: filter.protein))</select></div>
          <div class="field"><label for="s-carb">Carb</label><select id="s-carb" name="carb">\(options(facets.carbs, selected: filter.carb))</select></div>
          <div class="field"><label for="s-component">With</label><select id="s-component" name="component">\(options(facets.components, selected: filter.components.first))</select></div>
          <fieldset class="slot-choice"><legend>Fill</legend>\(types.offered.map { t in
              HTML("<label class=\"check\"><input type=\"checkbox\" name=\"mealType\" value=\"\(t.token)\"\(if: suggestions.slots.contains(t.token), " checked")> \(t.name)</label>")
          }.joined())</fieldset>
          <button class="button" type="submit">Suggest again</button>
        </form>
        <form method="post" action="\(SiteURL.acceptSuggestions.path)" class="stack">
          \(Layout.csrfField(csrf))
          <input type="hidden" name="start" value="\(w.start.iso)">
          <p class="hint">Meals from your library for the empty \(suggestions.slots.map { types.name(of: $0).lowercased() }.joined(separator: ", ")) slots not eaten yet, each where you have planned or eaten it before, chosen to bring each day closest to your goals. Untick any to leave it out; nothing is planned until you say so.</p>
          <div class="form-actions"><button class="button primary" type="submit" data-pressable data-counts="pick" data-label="Plan the ticked meals"\(if: suggestions.suggestions.isEmpty, " disabled")>Plan the ticked meals (\(suggestions.suggestions.count))</button>
            <a class="button" href="\(SiteURL.plan(start: w.start).path)">Back to the planner</a></div>
          <ol class="suggestion-days">\(days)</ol>
        </form>
        """)
    }
}

/// Changing one item of a list: its name, amount and aisle (an aisle chosen here is kept through
/// refreshes and used for the food on later lists).
struct ShoppingItemPage {
    let item: ShoppingItem
    /// Aisles to offer: the list's own and the usual ones.
    let aisles: [String]
    let csrf: String
    var message: String?

    static let usualAisles = ShoppingAisle.allCases.map(\.rawValue)

    func render(layout: Layout) -> HTML {
        let options = aisles.map { HTML("<option value=\"\($0)\"></option>") }.joined()
        return layout.render("""
        <section class="card narrow stack" aria-labelledby="item-title">
          <h1 id="item-title">\(item.name)</h1>
          \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
          <form method="post" action="\(SiteURL.updateShoppingItem(item.id).path)" class="stack">
            \(Layout.csrfField(csrf))
            <div class="field"><label for="edit-name">Name</label>
              <input id="edit-name" name="name" required maxlength="\(ShoppingItem.maximumNameLength)" value="\(item.name)"></div>
            <div class="grid-2">
              <div class="field"><label for="edit-quantity">How much</label>
                <input id="edit-quantity" name="quantity" inputmode="decimal" value="\(item.quantity.map { "\($0)" } ?? "")"></div>
              <div class="field"><label for="edit-unit">Unit</label>
                <input id="edit-unit" name="unit" maxlength="\(ShoppingItem.maximumUnitLength)" value="\(item.unit ?? "")"></div>
            </div>
            <div class="field"><label for="edit-aisle">Aisle</label>
              <input id="edit-aisle" name="category" list="aisles" maxlength="\(ShoppingItem.maximumCategoryLength)" value="\(item.category)">
              <datalist id="aisles">\(options)</datalist></div>
            \(if: item.source == .plan, HTML("<p class=\"hint\">From the plan: Refresh sets the amount from the plan again; the aisle you choose stays.</p>"))
            <div class="form-actions">
              <a class="button" href="\(SiteURL.shoppingList(item.listId).path)">Cancel</a>
              <button class="button primary" type="submit" data-pressable>Save</button>
            </div>
          </form>
        </section>
        """)
    }
}

extension SuggestionsPage {
    /// Why a suggestion came first: the pantry stock it uses before it goes off.
    static func usesSoon(_ s: PlanSuggester.Suggestion) -> HTML {
        guard let first = s.usesSoon.first else { return .empty }
        let names = s.usesSoon.map(\.name).joined(separator: ", ")
        let when = "\(first.bestBefore.day) \(CalendarDate.monthNames[first.bestBefore.month - 1])"
        return HTML("<span class=\"pantry-why\">Uses \(names) from the pantry before it goes off (\(when))</span>")
    }
}
