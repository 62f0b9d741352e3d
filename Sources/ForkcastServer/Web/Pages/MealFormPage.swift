import ForkcastCore
import Foundation

/// Add or edit a meal. Errors show next to their field and the typed input is kept.
struct MealFormPage {
    var mealID: UUID?
    var description = ""
    var primaryProtein = ""
    var primaryCarb = ""
    var components: [String] = []
    var errors = ValidationError([])
    /// A failure that is not about one field (e.g. storage unavailable).
    var message: String?
    var facets = MealFacets()

    init(mealID: UUID? = nil, meal: Meal? = nil, facets: MealFacets = MealFacets()) {
        self.mealID = mealID ?? meal?.id
        if let meal {
            description = meal.description
            primaryProtein = meal.primaryProtein ?? ""
            primaryCarb = meal.primaryCarb ?? ""
            components = meal.otherComponents
        }
        self.facets = facets
    }

    /// Reads what the person typed, exactly as typed.
    init(form: FormData, mealID: UUID?) {
        self.mealID = mealID
        description = form["description"] ?? ""
        primaryProtein = form["primaryProtein"] ?? ""
        primaryCarb = form["primaryCarb"] ?? ""
        let added = (form["newComponents"] ?? "").split(separator: ",").map(String.init)
        components = form.all("component") + added
    }

    var draft: MealDraft {
        MealDraft(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb, otherComponents: components)
    }

    var isEdit: Bool { mealID != nil }
    var title: String { isEdit ? "Edit meal" : "Add meal" }

    func render(layout: Layout) -> HTML {
        let action = mealID.map { SiteURL.updateMeal($0).path } ?? SiteURL.createMeal.path
        let datalist = { (id: String, values: [String]) -> HTML in
            HTML("<datalist id=\"\(id)\">\(values.map { HTML("<option value=\"\($0)\">") }.joined())</datalist>")
        }
        let chips = components.map { c in
            HTML("""
            <label class="chip toggle removable"><input type="checkbox" name="component" value="\(c)" checked><span>\(c)</span></label>
            """)
        }.joined()
        let componentError = errors.message(for: "otherComponents")
        return layout.render("""
        <section class="card form-card">
          <h1>\(title)</h1>
          <p class="form-error" id="form-message" role="alert"\(if: message == nil, " hidden")>\(message ?? "")</p>
          <form id="meal-form" method="post" action="\(action)" class="stack" data-enhance="meal-form" novalidate>
            \(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "description", label: "Description", value: description, error: errors.message(for: "description"), required: true, hint: "What the meal is, e.g. “Chicken curry”.", maxLength: MealDraft.maximumDescriptionLength).render)
            \(FormField(name: "primaryProtein", label: "Primary protein", value: primaryProtein, error: errors.message(for: "primaryProtein"), autocomplete: "off", list: "protein-options").render)
            \(datalist("protein-options", facets.proteins))
            \(FormField(name: "primaryCarb", label: "Primary carb", value: primaryCarb, error: errors.message(for: "primaryCarb"), autocomplete: "off", list: "carb-options").render)
            \(datalist("carb-options", facets.carbs))
            <fieldset class="components\(if: componentError != nil, " has-error")">
              <legend>Other components</legend>
              <div class="chips" id="component-chips" aria-live="polite">\(chips)</div>
              \(if: components.isEmpty, "<p class=\"hint\" id=\"no-components\">None yet.</p>")
            </fieldset>
            <div class="field">
              <label for="field-newComponents">Add components</label>
              <div class="add-component">
                <input id="field-newComponents" name="newComponents" type="text" list="component-options" placeholder="e.g. Garlic, Onion" autocomplete="off"\(if: componentError != nil, " aria-invalid=\"true\" aria-describedby=\"components-error\"")>
                <button type="button" class="button small" data-add-component hidden>Add</button>
              </div>
              <p class="hint">Separate several with commas.</p>
              \(datalist("component-options", facets.components))
              \(componentError.map { HTML("<p class=\"field-error\" id=\"components-error\">\($0)</p>") })
            </div>
            <div class="form-actions">
              <a class="button subtle" href="/meals">Cancel</a>
              <button class="button primary" type="submit" data-pressable>\(isEdit ? "Save changes" : "Add meal")</button>
            </div>
          </form>
        </section>
        """)
    }
}

/// Confirmation before a meal is deleted (the no-JavaScript path; scripts use a dialog).
struct DeleteMealPage {
    let meal: Meal
    let plannedDays: Int

    func render(layout: Layout) -> HTML {
        layout.render("""
        <section class="card narrow">
          <h1>Delete “\(meal.description)”?</h1>
          <p>\(plannedDays > 0 ? "It is planned on \(plannedDays) day\(plannedDays == 1 ? "" : "s"); those plans are removed too. " : "")This cannot be undone.</p>
          <form method="post" action="\(SiteURL.deleteMeal(meal.id).path)" class="form-actions">
            \(Layout.csrfField(layout.csrf ?? ""))
            <a class="button" href="/meals">Cancel</a>
            <button class="button danger" type="submit">Delete meal</button>
          </form>
        </section>
        """)
    }
}
