import ForkcastCore
import Foundation

/// The food library: search as you type (local foods only), list or grid, icons, and the way to
/// find products on Open Food Facts.
struct FoodListPage {
    let query: String
    let foods: [Food]
    let total: Int
    let libraryCount: Int
    let grid: Bool
    let currency: String
    let csrf: String
    var page = 1

    func render(layout: Layout) -> HTML {
        layout.render("""
        <div class="page-head">
          <h1>Foods</h1>
          <div class="head-actions">
            <a class="button" href="#off-title" data-pressable>Find on Open Food Facts</a>
            <a class="button primary" href="\(SiteURL.newFood.path)" data-pressable>\(Icons.plus) Add food</a>
          </div>
        </div>
        <form id="food-search" class="card filters" method="get" action="\(SiteURL.foods().path)" role="search" aria-label="Search your foods">
          <div class="filter-row">
            <div class="field grow">
              <label for="food-q">Search your foods</label>
              <input id="food-q" type="search" name="q" value="\(query)" placeholder="Name or brand">
            </div>
            <fieldset class="view-toggle">
              <legend>Show as</legend>
              <label class="chip toggle"><input type="radio" name="view" value="list"\(if: !grid, " checked")> List</label>
              <label class="chip toggle"><input type="radio" name="view" value="grid"\(if: grid, " checked")> Grid</label>
            </fieldset>
          </div>
          <div class="filter-actions"><button class="button" type="submit" data-js-hide>Search</button></div>
        </form>
        <div id="food-results" aria-live="polite">\(results)</div>
        <section class="card off-search" aria-labelledby="off-title">
          <h2 id="off-title">Find on Open Food Facts</h2>
          <p class="hint">Looks products up on Open Food Facts by name or barcode; add the ones you want to your foods and edit them freely.</p>
          <form method="get" action="\(SiteURL.openFoodFacts.path)" class="filter-row" id="off-form">
            <div class="field grow"><label for="off-q">Product name or barcode</label>
              <input id="off-q" type="search" name="q" value="\(query)" placeholder="e.g. Fanta orange or 5449000011527"></div>
            <button class="button" type="submit" data-pressable>Search Open Food Facts</button>
          </form>
          <div id="off-results" aria-live="polite"></div>
        </section>
        \(deleteDialog)
        """)
    }

    /// The part that changes while typing (the `food-list` fragment).
    var results: HTML {
        if libraryCount == 0 {
            return """
            <div class="empty card" id="empty-foods"><h2>No foods yet</h2>
            <p>Add the ingredients and products you eat, or find them on Open Food Facts below.</p></div>
            """
        }
        if foods.isEmpty {
            return "<div class=\"empty card\" id=\"no-food-match\"><h2>No foods match “\(query)”</h2><p>Try another word, or search Open Food Facts below.</p></div>"
        }
        let query = self.query, grid = self.grid
        let pager = Pager(page: page, per: Pager.perPage, total: total, noun: query.trimmed.isEmpty ? ("food", "foods") : ("food matches", "foods match"),
                          link: { SiteURL.foods(query: query.trimmed.isEmpty ? nil : query, page: $0, grid: grid).path })
        return """
        <p class="count" id="food-count">\(pager.summary)\(if: !query.trimmed.isEmpty, HTML(" <span class=\"muted\">(of \(libraryCount) in your library)</span>"))</p>
        <ul class="food-list\(if: grid, " grid")" id="food-list">\(foods.map { Self.card($0, currency: currency) }.joined())</ul>
        \(pager.nav)
        """
    }

    static func card(_ food: Food, currency: String) -> HTML {
        let n = food.per100
        let unit = food.basis.rawValue
        func macro(_ cls: String, _ label: String, _ v: Decimal?) -> HTML {
            v.map { HTML("<span class=\"tag \(cls)\"><abbr title=\"\(label)\">\(String(label.prefix(1)))</abbr> \($0.gramsText) g</span>") } ?? .empty
        }
        let price = FoodMath.pricePerBasisUnit(food).map { Currency.format($0 * 100, currency) + " / 100 \(unit)" }
        return """
        <li class="food card" id="food-\(food.id.uuidString)" data-food-id="\(food.id.uuidString)" data-name="\(food.name)">
          <img class="food-icon" src="\(SiteURL.foodIcon(food.icon).path)" alt="" width="40" height="40">
          <div class="food-main">
            <h2 class="food-name">\(food.name)</h2>
            \(food.brand.map { HTML("<p class=\"muted food-brand\">\($0)</p>") })
            <p class="per100"><span class="kcal">\(n.energyKcal.map { "\($0.display(0)) kcal" } ?? "kcal unknown")</span> per 100 \(unit)</p>
            <p class="macros">\(macro("protein", "Protein", n.protein))\(macro("carb", "Carbohydrates", n.carbohydrates))\(macro("fat", "Fat", n.fat))</p>
            \(food.serving.map { HTML("<p class=\"muted\">Serving: \($0.displayLabel)</p>") })
            \(price.map { HTML("<p class=\"muted\">\($0)</p>") })
            \(if: food.source == .openFoodFacts, "<span class=\"source-badge\">Open Food Facts</span>")
            \(if: !food.warnings.isEmpty, HTML("<p class=\"warning\">\(food.warnings.joined(separator: " "))</p>"))
          </div>
          <div class="meal-actions">
            <a class="button small" href="\(SiteURL.editFood(food.id).path)" data-pressable>Edit<span class="visually-hidden"> \(food.name)</span></a>
            <a class="button small danger" href="\(SiteURL.deleteFood(food.id).path)" data-delete-food data-pressable>Delete<span class="visually-hidden"> \(food.name)</span></a>
          </div>
        </li>
        """
    }

    private var deleteDialog: HTML {
        """
        <dialog id="delete-food-dialog" aria-labelledby="delete-food-title">
          <form method="post" class="stack">
            \(Layout.csrfField(csrf))
            <h2 id="delete-food-title">Delete food?</h2>
            <p id="delete-food-text"></p>
            <div class="dialog-actions">
              <button class="button" type="button" data-close>Cancel</button>
              <button class="button danger" type="submit">Delete</button>
            </div>
          </form>
        </dialog>
        """
    }
}

/// Open Food Facts results, each with a button that makes it one of the user's foods.
struct OpenFoodFactsResultsView {
    let query: String
    let products: [FoodDraft]
    let failure: String?
    let csrf: String

    var html: HTML {
        if let failure {
            return "<p class=\"form-error\" role=\"alert\" id=\"off-unavailable\">\(failure)</p>"
        }
        if products.isEmpty { return "<p class=\"muted\" id=\"off-empty\">Open Food Facts has nothing for “\(query)”.</p>" }
        return """
        <ul class="picker-list off-list" id="off-list">\(products.map { p in
            HTML("""
            <li class="picker-item">
              <span><strong>\(p.name)</strong>\(p.brand.map { HTML(" · \($0)") })
                <span class="muted">\(p.per100.energyKcal.map { "\($0.display(0)) kcal / 100 \(p.basis.rawValue)" } ?? "no nutrition data")\(p.barcode.map { " · \($0)" } ?? "")</span></span>
              \(p.barcode.map { code in HTML("""
              <form method="post" action="\(SiteURL.importFood.path)" data-import-form>
                \(Layout.csrfField(csrf))<input type="hidden" name="barcode" value="\(code)">
                <button class="button small primary" type="submit" data-pressable>Add<span class="visually-hidden"> \(p.name)</span></button>
              </form>
              """) })
            </li>
            """)
        }.joined())</ul>
        """
    }
}

/// The no-JavaScript page around Open Food Facts results.
struct OpenFoodFactsPage {
    let results: OpenFoodFactsResultsView

    func render(layout: Layout) -> HTML {
        layout.render("""
        <section class="card">
          <h1>Open Food Facts: “\(results.query)”</h1>
          \(results.html)
          <p><a href="\(SiteURL.foods().path)">Back to your foods</a></p>
        </section>
        """)
    }
}
