import ForkcastApp
import ForkcastCore
import Foundation

/// Meals › Import recipe: paste a recipe's text or a page's HTML, or choose a saved page or a
/// .json file. Forkcast reads what the person's browser already has; it fetches nothing.
struct RecipeImportPage {
    var pasted = ""
    var error: String?

    func render(layout: Layout, csrf: String) -> HTML {
        layout.render("""
        <section class="card form-card stack" id="recipe-import">
          <h1>Import a recipe</h1>
          <p class="hint">Paste the recipe's text, or the page's source (HTML), or choose a saved page or a recipe's .json file.
            Forkcast does not visit the page itself: sites often refuse servers, and your browser already has it.
            Nothing is saved until you check the draft and press Add meal.</p>
          <p class="form-error" role="alert"\(if: error == nil, " hidden")>\(error ?? "")</p>
          <form method="post" action="\(SiteURL.importRecipe.path)" enctype="multipart/form-data" class="stack" id="recipe-import-form">
            \(Layout.csrfField(csrf))
            <div class="field">
              <label for="field-source">Recipe text or page source</label>
              <textarea id="field-source" name="source" rows="10" autocomplete="off"\(if: error != nil, " aria-invalid=\"true\"")>\(pasted)</textarea>
            </div>
            <div class="field">
              <label for="field-file">Or a file (.html, .json, .txt)</label>
              <input id="field-file" type="file" name="file" accept=".html,.htm,.json,.jsonld,.txt,text/html,application/json,application/ld+json,text/plain">
            </div>
            <div class="form-actions">
              <a class="button subtle" href="\(SiteURL.meals().path)">Cancel</a>
              <button class="button primary" type="submit" data-pressable>Read recipe</button>
            </div>
          </form>
        </section>
        """)
    }

    /// What was sent, as a source: a .json file or text that starts like JSON is JSON-LD; text with
    /// tags is a page; anything else is a recipe's text.
    static func source(_ text: String, filename: String? = nil) -> DraftRecipe.Source {
        let start = text.drop { $0.isWhitespace }.first
        if filename?.lowercased().hasSuffix(".json") == true || filename?.lowercased().hasSuffix(".jsonld") == true || start == "{" || start == "[" {
            return .jsonLD(text)
        }
        if start == "<" || text.range(of: "<script", options: .caseInsensitive) != nil || text.range(of: "itemprop=", options: .caseInsensitive) != nil {
            return .html(text)
        }
        return .text(text)
    }
}

extension MealFormPage {
    /// The meal form filled from an import's draft: lines matched to the person's foods as their
    /// rows, catalogue matches as rows naming the catalogue food (made theirs when the meal is
    /// saved), the rest as lines kept as written.
    init(draft: DraftRecipe.Draft) {
        self.init()
        description = draft.meal.description
        servings = String(draft.meal.servings)
        rows = draft.lines.map { line in
            switch (line.match, line.amount) {
            case _ where line.line.isOptional:
                IngredientRow(food: line.line.text, isText: true)
            case let (.food(food), amount?):
                IngredientRow(food: food.name, foodID: food.id.uuidString, quantity: amount.quantity.rounded(1).description, unit: amount.unit.rawValue,
                              written: IngredientRow.carry(line.written, key: food.id.uuidString, stored: amount.unit, shown: amount.quantity.rounded(1).description))
            case let (.catalog(entry), amount?):
                IngredientRow(food: entry.name, quantity: amount.quantity.rounded(1).description, unit: amount.unit.rawValue,
                              written: IngredientRow.carry(line.written, key: entry.name, stored: amount.unit, shown: amount.quantity.rounded(1).description))
            default:
                IngredientRow(food: line.line.text, isText: true)
            }
        }
        show(draft.meal.recipe)
        let estimated = draft.lines.filter { $0.amount?.conversion == .estimated }.count
        let page = draft.recipe.nutritionPerServing?.energyKcal.map { " The page says \($0.display(0)) kcal per serving; the matched lines give \((draft.nutritionPerServing.energyKcal ?? 0).display(0))." } ?? ""
        notice = "Read from the \(draft.found > 1 ? "first of \(draft.found) recipes on the " : "")page: check each line's food and amount, then press Add meal. Nothing is saved yet.\(page)"
            + (estimated > 0 ? " \(estimated) amount\(estimated == 1 ? " was" : "s were") estimated (a volume or a count at a usual weight): check them." : "")
    }
}
