import ForkcastCore
import Foundation

/// Adding to the diary: a plate of foods (and a meal, or a quick add) logged at once to one meal type.
struct AddToDiaryPage {
    var date: CalendarDate
    var mealType: String
    var rows: [MealFormPage.IngredientRow] = []
    var mealID = ""
    var mealServings = "1"
    var quick: [String: String] = [:]
    var errors = ValidationError([])
    var message: String?
    var foods: [Food] = []
    var meals: [Meal] = []

    func render(layout: Layout) -> HTML {
        let types = MealType.defaults.map { t in HTML("<option value=\"\(t.key)\"\(if: t.key == mealType, " selected")>\(t.name)</option>") }.joined()
        let allRows = rows + Array(repeating: MealFormPage.IngredientRow(), count: max(0, 3 - rows.count))
        let mealOptions = meals.map { m in HTML("<option value=\"\(m.id.uuidString)\"\(if: m.id.uuidString == mealID, " selected")>\(m.description)</option>") }.joined()
        let itemErrors = errors.fields.filter { $0.field.hasPrefix("items") || $0.field == "foodId" }.map(\.message)
        return layout.render("""
        <section class="card form-card">
          <h1>Add to your diary</h1>
          <p class="form-error" role="alert" id="form-message"\(if: message == nil && itemErrors.isEmpty, " hidden")>\(message ?? itemErrors.joined(separator: " "))</p>
          <form id="plate-form" method="post" action="\(SiteURL.diaryAdd().path)" class="stack">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="grid-2">
              <div class="field"><label for="field-date">Day</label><input id="field-date" type="date" name="date" value="\(date.iso)"></div>
              <div class="field"><label for="field-mealType">Meal</label><select id="field-mealType" name="mealType">\(types)</select></div>
            </div>
            <fieldset class="ingredients"><legend>Foods on the plate</legend>
              <div id="ingredient-rows">\(allRows.enumerated().map { MealFormPage.ingredientRow($1, index: $0, errors: errors) }.joined())</div>
              <button type="button" class="button small" data-add-ingredient hidden>\(Icons.plus) Add another food</button>
              <datalist id="food-options">\(foods.map { HTML("<option value=\"\($0.name)\" data-id=\"\($0.id.uuidString)\">") }.joined())</datalist>
              <div id="meal-totals" class="totals" aria-live="polite"></div>
            </fieldset>
            <fieldset><legend>A meal from your library</legend>
              <div class="grid-2">
                <div class="field"><label for="field-mealId">Meal</label><select id="field-mealId" name="mealId"><option value="">None</option>\(mealOptions)</select></div>
                <div class="field"><label for="field-mealServings">Servings</label><input id="field-mealServings" name="mealServings" inputmode="decimal" value="\(mealServings)"></div>
              </div>
            </fieldset>
            <fieldset><legend>Quick add (no food needed)</legend>
              <div class="grid-2">
                \(FormField(name: "quick.name", label: "What", value: quick["name"], autocomplete: "off").render)
                \(["energyKcal": "Calories (kcal)", "protein": "Protein (g)", "carbohydrates": "Carbs (g)", "fat": "Fat (g)"].sorted { $0.key > $1.key }.map { key, label in
                    var f = FormField(name: "quick.\(key)", label: label, value: quick[key], error: errors.message(for: "quickAdd.\(key)"), autocomplete: "off")
                    f.inputMode = "decimal"
                    return f.render
                }.joined())
              </div>
            </fieldset>
            \(FormField(name: "note", label: "Note", value: quick["note"], autocomplete: "off").render)
            <div class="form-actions">
              <a class="button subtle" href="\(SiteURL.diary(date: date).path)">Cancel</a>
              <button class="button primary" type="submit" data-pressable>Log it</button>
            </div>
          </form>
        </section>
        """)
    }
}

/// Goals and body data: the profile (metric or imperial), the arithmetic, manual goals, weights
/// and the Apple Health import.
struct GoalsPage {
    var goals: Goals
    var calculation: GoalCalculation?
    var profile: BodyProfile?
    var weights: [BodyRepository.Weight]
    /// The person's zone: a weight measured at 23:30 in Auckland is shown on that day, not UTC's.
    var zone: TimeZone
    var errors = ValidationError([])
    var message: String?

    func render(layout: Layout) -> HTML {
        let p = profile
        func option<T: RawRepresentable>(_ value: T, _ label: String, selected: T?) -> HTML where T.RawValue == String {
            HTML("<option value=\"\(value.rawValue)\"\(if: value.rawValue == selected?.rawValue, " selected")>\(label)</option>")
        }
        let steps = calculation?.steps.map { HTML("<li>\($0)</li>") }.joined() ?? .empty
        let recent = weights.suffix(8).reversed().map { w in
            HTML("<li>\(w.weightKg.display(1)) kg <span class=\"muted\">\(CalendarDate(w.measuredAt, in: zone).iso) · \(w.source)</span></li>")
        }.joined()
        let sexChoice = Sex.allCases.map { s in
            HTML("<label class=\"chip toggle\"><input type=\"radio\" name=\"sex\" value=\"\(s.rawValue)\"\(if: p?.sex == s, " checked")> \(s.rawValue.capitalized)</label>")
        }.joined()
        return layout.render("""
        <div class="page-head"><h1>Goals</h1></div>
        \(message.map { HTML("<p class=\"form-error\" role=\"alert\">\($0)</p>") })
        <section class="card" aria-labelledby="current-title">
          <h2 id="current-title">Your daily goals</h2>
          <p class="macros goals-line" id="current-goals"><span class="kcal">\(goals.energyKcal.display(0)) kcal</span>
            <span class="tag protein">Protein \(goals.protein.display(0)) g</span> <span class="tag carb">Carbs \(goals.carbohydrates.display(0)) g</span>
            <span class="tag fat">Fat \(goals.fat.display(0)) g</span></p>
          <p class="muted">\(goals.source == .computed ? "Computed from your body profile:" : (calculation == nil && profile == nil ? "Defaults (2000 kcal / 150 g / 250 g / 65 g) until you set your own." : "Set by hand."))</p>
          \(if: calculation != nil, HTML("<ol class=\"arithmetic\" id=\"arithmetic\">\(steps)</ol>"))
        </section>
        <section class="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Compute from your body</h2>
          <form method="post" action="\(SiteURL.goalsProfile.path)" class="stack" id="profile-form">
            \(Layout.csrfField(layout.csrf ?? ""))
            <fieldset class="view-toggle"><legend>Sex</legend>\(sexChoice)</fieldset>
            \(errors.message(for: "sex").map { HTML("<p class=\"field-error\">\($0)</p>") })
            \(FormField(name: "birthDate", label: "Date of birth", value: p?.birthDate.iso, error: errors.message(for: "birthDate"), type: "date", autocomplete: "bday").render)
            <div class="grid-2">
              \(FormField(name: "heightCm", label: "Height (cm)", value: p.map { "\($0.heightCm)" }, error: errors.message(for: "heightCm"), autocomplete: "off", inputMode: "decimal").render)
              \(FormField(name: "weightKg", label: "Weight (kg)", value: p.map { "\($0.weightKg.rounded(1))" }, error: errors.message(for: "weightKg"), autocomplete: "off", inputMode: "decimal").render)
            </div>
            <details class="imperial"><summary>Use feet, inches and pounds instead</summary>
              <div class="grid-2">
                \(FormField(name: "heightFt", label: "Height (ft)", autocomplete: "off", inputMode: "numeric").render)
                \(FormField(name: "heightIn", label: "and inches", autocomplete: "off", inputMode: "decimal").render)
                \(FormField(name: "weightLb", label: "Weight (lb)", autocomplete: "off", inputMode: "decimal").render)
              </div>
              <p class="hint">Filled-in imperial values are used instead of the metric ones.</p>
            </details>
            <div class="field"><label for="field-activityLevel">Activity</label><select id="field-activityLevel" name="activityLevel">
              \(ActivityLevel.allCases.map { option($0, "\($0.label) × \($0.multiplier)", selected: p?.activityLevel ?? .light) }.joined())</select></div>
            <div class="field"><label for="field-aim">Aim</label><select id="field-aim" name="aim">
              \(Aim.allCases.map { option($0, $0.label, selected: p?.aim ?? .maintain) }.joined())</select></div>
            <button class="button primary" type="submit">Save and use computed goals</button>
          </form>
        </section>
        <section class="card" aria-labelledby="manual-title">
          <h2 id="manual-title">Or set goals by hand</h2>
          <form method="post" action="\(SiteURL.goalsManual.path)" class="stack">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="grid-2">
              \([("energyKcal", "Calories (kcal)", goals.energyKcal), ("protein", "Protein (g)", goals.protein), ("carbohydrates", "Carbs (g)", goals.carbohydrates), ("fat", "Fat (g)", goals.fat)].map { name, label, value in
                  FormField(name: "manual.\(name)", label: label, value: "\(value.rounded(0))", error: errors.message(for: name), autocomplete: "off", inputMode: "numeric").render
              }.joined())
            </div>
            <button class="button" type="submit">Save manual goals</button>
          </form>
        </section>
        <section class="card" aria-labelledby="weights-title">
          <h2 id="weights-title">Weight</h2>
          <form method="post" action="\(SiteURL.goalsWeights.path)" class="filter-row">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "weight", label: "Today's weight", error: errors.message(for: "weightKg"), autocomplete: "off", inputMode: "decimal").render)
            <div class="field"><label for="field-weightUnit">Unit</label><select id="field-weightUnit" name="weightUnit"><option value="kg">kg</option><option value="lb">lb</option></select></div>
            <button class="button" type="submit">Add weight</button>
          </form>
          \(weights.isEmpty ? HTML("<p class=\"muted\">No weights yet.</p>") : HTML("<ul class=\"weights\" id=\"weights\">\(recent)</ul>"))
          <h3>Import from Apple Health</h3>
          <form method="post" action="\(SiteURL.goalsImport(csrf: layout.csrf).path)" enctype="multipart/form-data" class="filter-row">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="field grow"><label for="field-export">export.zip or export.xml</label><input id="field-export" type="file" name="export" accept=".zip,.xml,application/zip,text/xml"></div>
            <button class="button" type="submit">Import</button>
          </form>
          <p class="hint">Reads body mass, height, date of birth and sex (one weight a day). Exports of any size are streamed, up to 4 GB.</p>
        </section>
        """)
    }
}

/// Edit one diary entry: meal type, day and time, note (its values stay as logged).
struct EditEntryPage {
    let entry: DiaryEntry
    let zone: TimeZone
    var errors = ValidationError([])

    func render(layout: Layout) -> HTML {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: entry.loggedAt)
        let time = String(format: "%02d:%02d", parts.hour ?? 12, parts.minute ?? 0)
        let types = MealType.defaults.map { t in HTML("<option value=\"\(t.key)\"\(if: t.key == entry.mealType, " selected")>\(t.name)</option>") }.joined()
        return layout.render("""
        <section class="card narrow">
          <h1>\(entry.name)</h1>
          <p class="muted">\(entry.nutrients.energyKcal.map { "\($0.display(0)) kcal" } ?? "") — the values stay as they were logged.</p>
          <form method="post" action="\(SiteURL.updateEntry(entry.id).path)" class="stack" id="entry-form">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="field"><label for="field-mealType">Meal</label><select id="field-mealType" name="mealType">\(types)</select></div>
            \(errors.message(for: "mealType").map { HTML("<p class=\"field-error\">\($0)</p>") })
            <div class="grid-2">
              \(FormField(name: "date", label: "Day", value: entry.date.iso, type: "date", autocomplete: nil).render)
              \(FormField(name: "time", label: "Time", value: time, type: "time", autocomplete: nil).render)
            </div>
            \(FormField(name: "note", label: "Note", value: entry.note, error: errors.message(for: "note"), autocomplete: "off").render)
            <div class="form-actions">
              <a class="button subtle" href="\(SiteURL.diary(date: entry.date).path)">Cancel</a>
              <button class="button primary" type="submit">Save</button>
            </div>
          </form>
        </section>
        """)
    }
}
