import ForkcastContract
import ForkcastCore
import Foundation

/// A recipe to cook from: its amounts for the servings asked (a stepper changes them), its steps
/// with the amounts of what each step names, times, source and notes. Its household sees it with
/// Edit and its sharing link; anyone holding that link sees it read-only.
struct RecipeViewPage {
    let meal: Meal
    let foods: [UUID: Food]
    let servings: Int
    let totals: MealTotals
    let currency: String
    let viewer: Viewer
    /// The plan entry it was opened from (its portions are the servings shown).
    var plannedFor: PlannedFor?
    /// The photo's address anyone can fetch, for the JSON-LD (a shared recipe's only).
    var sharedImage: String?

    /// The plan entry it was opened from, with "Cooked" (its ingredients out of the pantry).
    private func planned(_ entry: PlannedFor) -> HTML {
        guard case .household(_, let csrf) = viewer else { return .empty }
        return HTML("""
        <form method="post" action="\(SiteURL.cookedEntry(entry.assignment.id).path)" class="filter-row" id="planned-for">\(Layout.csrfField(csrf))
          <p class="muted">Planned: \(entry.line)</p>
          <button class="button small" type="submit" data-pressable>Cooked: take it from the pantry</button></form>
        """)
    }

    enum Viewer {
        /// A member of the meal's household: `link` is the recipe's sharing link, nil when not shared.
        case household(link: String?, csrf: String)
        /// Whoever opened the sharing link with this token.
        case linkHolder(token: String)
    }

    private func address(servings: Int) -> String {
        switch viewer {
        case .household: SiteURL.recipe(meal.id, servings: servings, entry: plannedFor?.assignment.id).path
        case .linkHolder(let token): SiteURL.sharedRecipe(token, servings: servings).path
        }
    }

    func render(layout: Layout) -> HTML {
        let lines = meal.recipeLines(foods: foods, servings: servings)
        let ingredientItems = lines.map { line in
            HTML("<li class=\"recipe-line\(if: line.isText, " text-line")\">\(line.amount.map { HTML("<span class=\"amount\">\($0)</span> ") })<span class=\"name\">\(line.name)</span></li>")
        }.joined()
        let keys = lines.map(\.key)
        let stepItems = meal.recipe.steps.enumerated().map { index, step in
            let uses = step.mentions(keys).compactMap { i in lines[i].amount.map { "\(lines[i].key) \($0)" } }
            return HTML("""
            <li class="recipe-step" id="step-\(index + 1)"><p>\(step.text)</p>
              \(step.timerSeconds.map { HTML("<p class=\"timer-note\">Timer: \(Self.duration($0))</p>") })
              \(if: !uses.isEmpty, HTML("<p class=\"muted step-uses\">\(uses.joined(separator: " · "))</p>"))</li>
            """)
        }.joined()
        let textCount = lines.filter(\.isText).count
        let recipe = meal.recipe
        let times = [recipe.prepMinutes.map { "Preparation \(Self.duration($0 * 60))" }, recipe.cookMinutes.map { "cooking \(Self.duration($0 * 60))" }]
            .compactMap { $0 }.joined(separator: " · ")
        let stepper: HTML = """
        <nav class="servings-stepper" aria-label="Servings">
          <a class="button small\(if: servings <= 1, " disabled")" href="\(address(servings: max(servings - 1, 1)))" aria-label="One serving fewer"\(if: servings <= 1, " aria-disabled=\"true\"")>−</a>
          <span id="servings-shown" aria-live="polite">\(servings) serving\(servings == 1 ? "" : "s")</span>
          <a class="button small\(if: servings >= MealDraft.maximumServings, " disabled")" href="\(address(servings: min(servings + 1, MealDraft.maximumServings)))" aria-label="One serving more">+</a>
        </nav>
        """
        return layout.render("""
        <article class="card recipe stack" id="recipe">
          <div class="page-head">
            <h1>\(meal.description)</h1>
            \(edit)
          </div>
          \(photo)
          \(if: !times.isEmpty, HTML("<p class=\"muted\" id=\"recipe-times\">\(times)</p>"))
          \(plannedFor.map(planned))
          \(stepper)
          \(if: servings != meal.servings, HTML("<p class=\"muted\">The recipe makes \(meal.servings); amounts are for \(servings).</p>"))
          <h2>Ingredients</h2>
          \(lines.isEmpty ? HTML("<p class=\"muted\">No ingredients yet.</p>") : HTML("<ul class=\"recipe-lines\" id=\"recipe-lines\">\(ingredientItems)</ul>"))
          \(if: textCount > 0, HTML("<p class=\"muted\" id=\"text-lines-note\">\(textCount) line\(textCount == 1 ? " is" : "s are") kept as written, without a food: not counted in the nutrition.</p>"))
          \(HTML("<p class=\"nutrition\" id=\"recipe-per-serving\"><span class=\"visually-hidden\">Per serving: </span>\(NutritionSummary(nutrients: totals.perServing, cost: totals.costPerServing, currency: currency).html)</p>"))
          <h2>Steps</h2>
          \(meal.recipe.steps.isEmpty ? HTML("<p class=\"muted\">No steps yet: add them with Edit.</p>") : HTML("<ol class=\"recipe-steps\" id=\"recipe-steps\">\(stepItems)</ol>"))
          \(source)
          \(recipe.notes.map { HTML("<h2>Notes</h2><p class=\"recipe-notes\">\($0)</p>") })
          \(actions)
          <script type="application/ld+json">\(HTML(raw: document.json()))</script>
        </article>
        """)
    }

    private var document: RecipeDocument {
        var document = RecipeDocument(meal: meal, foods: foods, perServing: totals.perServing)
        document.image = sharedImage
        return document
    }

    /// The recipe's photo, at the top; its width and height come from CSS (it fills the card's width).
    private var photo: HTML? {
        guard meal.photoId != nil else { return nil }
        let src = switch viewer {
        case .household: Meals.Photo.path.filled(["id": meal.id.uuidString])
        case .linkHolder(let token): Meals.SharedPhoto.path.filled(["token": token])
        }
        return HTML("<img class=\"recipe-photo\" id=\"recipe-photo\" src=\"\(src)\" alt=\"Photo of \(meal.description)\">")
    }

    /// For the household: put a photo on the recipe (one from the phone's camera or files), or take it off.
    private func photoForms(_ csrf: String) -> HTML {
        HTML("""
        <form method="post" action="\(SiteURL.recipePhoto(meal.id).path)" enctype="multipart/form-data" class="stack" id="recipe-photo-form">\(Layout.csrfField(csrf))
          <div class="field"><label for="recipe-photo-file">\(meal.photoId == nil ? "Add a photo" : "Another photo")</label>
            <input id="recipe-photo-file" type="file" name="photo" accept="image/jpeg,image/png,image/webp" required></div>
          <p><button class="button small" type="submit" data-pressable>Save photo</button></p></form>
        \(if: meal.photoId != nil, HTML("""
          <form method="post" action="\(SiteURL.deleteRecipePhoto(meal.id).path)" class="inline" id="recipe-photo-delete">\(Layout.csrfField(csrf))
            <button class="button small" type="submit" data-pressable>Remove the photo</button></form>
          """))
        """)
    }

    private var edit: HTML? {
        guard case .household = viewer else { return nil }
        return HTML("""
        <span class="head-actions"><a class="button small primary" href="\(SiteURL.cook(meal.id, servings: servings, entry: plannedFor?.assignment.id).path)" data-pressable>Cook</a>
          <a class="button small" href="\(SiteURL.editMeal(meal.id).path)" data-pressable>Edit</a></span>
        """)
    }

    /// Download and print; for the household, the sharing link too.
    private var actions: HTML {
        switch viewer {
        case .linkHolder(let token):
            return HTML("""
            <p class="recipe-actions no-print"><a class="button small" href="\(Meals.Shared.path.filled(["token": token]))" download="recipe.jsonld">Download (schema.org JSON-LD)</a>
              <span class="muted">Another recipe app imports this page's address or the file.</span></p>
            """)
        case .household(let link, let csrf):
            let share: HTML = link.map { url in HTML("""
              <div class="share-link" id="recipe-share"><label for="share-url">Anyone with this link can read this recipe (nothing else):</label>
              <input id="share-url" class="share-url" readonly value="\(url)">
              <button class="button small" type="button" data-share-from="share-url">Share link</button>
              <form method="post" action="\(SiteURL.unshareRecipe(meal.id).path)" class="inline">\(Layout.csrfField(csrf))
                <button class="button small" type="submit" data-pressable>Stop sharing</button></form></div>
              """) } ?? HTML("""
              <form method="post" action="\(SiteURL.shareRecipe(meal.id).path)" class="inline" id="recipe-share">\(Layout.csrfField(csrf))
                <button class="button small" type="submit" data-pressable>Share a link</button></form>
              """)
            return HTML("""
            <div class="recipe-actions no-print stack"><p><a class="button small" href="\(Meals.RecipeJSONLD.path.filled(["id": meal.id.uuidString]))" download>Download (schema.org JSON-LD)</a>
              <span class="muted">Print this page for a paper copy.</span></p>
              \(share)
              \(photoForms(csrf))</div>
            """)
        }
    }

    private var source: HTML? {
        guard let source = meal.recipe.source else { return nil }
        if let url = URL(string: source), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil {
            return HTML("<p class=\"muted\" id=\"recipe-source\">Source: <a href=\"\(source)\" rel=\"noopener noreferrer nofollow\">\(url.host ?? source)</a></p>")
        }
        return HTML("<p class=\"muted\" id=\"recipe-source\">Source: \(source)</p>")
    }

    /// "5 min", "1 h 30 min", "45 s".
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
