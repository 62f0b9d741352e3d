import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Adding to the diary: a plate of foods (and a meal, or a quick add) logged at once to one meal
/// type. Usual foods are one tap away, food rows search all your foods as you type, the totals
/// follow, and a meal eaten on another day can be copied in one step.
struct AddToDiaryPage {
    var date: CalendarDate
    var mealType: String
    var rows: [MealFormPage.IngredientRow] = []
    var mealID = ""
    var mealServings = "1"
    var quick: [String: String] = [:]
    var errors = ValidationError([])
    var message: String?
    var usual: [Food] = []
    var meals: [Meal] = []
    /// Meals eaten in the last days, to copy: (date, meal type, items, kcal).
    var recent: [(date: CalendarDate, mealType: MealType, count: Int, kcal: Decimal)] = []
    var totals: Nutrients?
    var today: CalendarDate?
    var mealTypes: MealTypeCatalog

    func render(layout: Layout) -> HTML {
        let types = MealTypeOptions.html(mealTypes, selected: mealType)
        let allRows = rows + Array(repeating: MealFormPage.IngredientRow(unit: ""), count: max(0, 2 - rows.count))
        let mealOptions = meals.map { m in HTML("<option value=\"\(m.id.uuidString)\"\(if: m.id.uuidString == mealID, " selected")>\(m.description)</option>") }.joined()
        // The quick add's problems (as typed, or the plate item it became) show at its fields.
        let quickError = { (key: String) in errors.fields.first { $0.field == "quickAdd.\(key)" || $0.field.hasSuffix(".quickAdd.\(key)") }?.message }
        let itemErrors = errors.fields.filter { ($0.field.hasPrefix("items") && !$0.field.contains(".quickAdd.")) || ["foodId", "from", "date", "loggedAt", "to"].contains($0.field) }.map(\.message)
        let copyOptions = recent.map { r in
            HTML("<option value=\"\(r.date.iso)|\(r.mealType.token)\">\(r.date.weekday.shortName) \(DashboardPage.shortDate(r.date)) · \(r.mealType.name) (\(r.count) item\(r.count == 1 ? "" : "s"), \(r.kcal.display(0)) kcal)</option>")
        }.joined()
        return layout.render("""
        <section class="card form-card plate-card">
          <h1>Add to your diary</h1>
          <nav class="jump-links" aria-label="On this page"><a href="#quick-add" class="button subtle">Quick add</a>\(if: !recent.isEmpty, HTML("<a href=\"#copy-meal\" class=\"button subtle\">Copy a meal</a>"))\(if: !meals.isEmpty, HTML("<a href=\"#library-meal\" class=\"button subtle\">A meal from your library</a>"))</nav>
          <p class="form-error" role="alert" id="form-message"\(if: message == nil && itemErrors.isEmpty, " hidden")>\(message ?? itemErrors.joined(separator: " "))</p>
          <form id="plate-form" method="post" action="\(SiteURL.diaryAdd().path)" class="stack" data-offline="plate" data-today="\(today?.iso ?? "")"
                data-quick-add-name="\(DiaryEntry.quickAddName)" data-default-servings="\("\(DiaryEntry.defaultServings)")">
            \(Layout.csrfField(layout.csrf ?? ""))
            <div class="grid-2">
              <div class="field"><label for="field-date">Day</label><input id="field-date" type="date" name="date" value="\(date.iso)"></div>
              <div class="field"><label for="field-mealType">Meal type</label><select id="field-mealType" name="mealType">\(types)</select></div>
            </div>
            <fieldset class="ingredients stack"><legend>Foods on the plate</legend>
              \(if: !usual.isEmpty, HTML("<div class=\"usual-foods\" hidden><p class=\"hint\" id=\"usual-hint\">Your usual foods — tap to put one on the plate:</p>\(Self.usualChips(usual))</div>"))
              <div id="ingredient-rows">\(allRows.enumerated().map { MealFormPage.ingredientRow($1, index: $0, errors: errors, plate: true) }.joined())</div>
              <p class="hint">Leave the amount empty for one serving (or 100 g when the food has no serving size).</p>
              <button type="button" class="button" data-add-ingredient hidden>\(Icons.plus) Add another food</button>
            </fieldset>
            <div id="plate-totals" class="totals" aria-live="polite">\(totals.map { HTML("<h3>On the plate</h3><p class=\"macros\">\(NutritionSummary(nutrients: $0, cost: nil, currency: "").html)</p>") } ?? HTML("<p class=\"muted\">The plate's totals show here as you add to it.</p>"))</div>
            <fieldset id="quick-add"><legend>Quick add (no food needed)</legend>
              <div class="grid-2">
                \(FormField(name: "quick.name", label: "What", value: quick["name"], autocomplete: "off").render)
                \([("energyKcal", "Calories (kcal)"), ("protein", "Protein (g)"), ("carbohydrates", "Carbs (g)"), ("fat", "Fat (g)")].map { key, label in
                    FormField(name: "quick.\(key)", label: label, value: quick[key], error: quickError(key), autocomplete: "off", inputMode: "decimal").render
                }.joined())
              </div>
            </fieldset>
            \(if: !meals.isEmpty, HTML("""
            <fieldset id="library-meal"><legend>A meal from your library</legend>
              <div class="grid-2">
                <div class="field"><label for="field-mealId">Dish</label><select id="field-mealId" name="mealId" data-searchable="your meals"><option value="">None</option>\(mealOptions)</select></div>
                \(FormField(name: "mealServings", label: "Servings", value: mealServings, autocomplete: "off", inputMode: "decimal").render)
              </div>
            </fieldset>
            """))
            \(FormField(name: "note", label: "Note", value: quick["note"], autocomplete: "off").render)
            <div class="form-actions sticky-actions">
              <a class="button subtle" href="\(SiteURL.diary(date: date).path)">Cancel</a>
              <button class="button primary" type="submit" data-pressable>Log it</button>
            </div>
            \(if: !recent.isEmpty, HTML("""
            <fieldset id="copy-meal"><legend>Or copy a meal you ate</legend>
              <div class="field"><label for="field-from">Eaten on</label><select id="field-from" name="from">\(copyOptions)</select></div>
              <button class="button" type="submit" formaction="\(SiteURL.diaryCopy.path)" data-copy data-pressable>Copy to this day and meal</button>
            </fieldset>
            """))
          </form>
        </section>
        """)
    }

    /// The usual foods' chips: on the page, and alone for a meal type chosen on it (`X-Fragment:
    /// usual-foods`, plate.js).
    static func usualChips(_ usual: [Food]) -> HTML {
        let chips = usual.map { f in
            HTML("<li><button type=\"button\" class=\"chip food-chip\" data-food-id=\"\(f.id.uuidString)\" data-name=\"\(f.name)\" data-usual-quantity=\"\("\(f.usualPortion.quantity)")\" data-usual-unit=\"\(f.usualPortion.unit.rawValue)\" title=\"\(f.name)\">\(Icons.plus) <span class=\"food-chip-name\">\(f.name)</span></button></li>")
        }.joined()
        return HTML("<ul class=\"chips\" aria-describedby=\"usual-hint\">\(chips)</ul>")
    }
}

/// Goals and body data: the profile (metric or imperial), the arithmetic, manual goals, weights
/// and the Apple Health import.
struct GoalsPage {
    var goals: Goals
    var calculation: GoalCalculation?
    /// Whether the person set their goals by hand (the same numbers as the defaults included).
    var setByHand: Bool
    var profile: BodyProfile?
    var weights: [WeightEntry]
    /// The person's zone: a weight measured at 23:30 in Auckland is shown on that day, not UTC's.
    var zone: TimeZone
    var errors = ValidationError([])
    var message: String?
    /// A weighing just deleted, offered back once.
    var putBack: PutBack?

    func render(layout: Layout) -> HTML {
        let p = profile
        func option<T: RawRepresentable>(_ value: T, _ label: String, selected: T?) -> HTML where T.RawValue == String {
            HTML("<option value=\"\(value.rawValue)\"\(if: value.rawValue == selected?.rawValue, " selected")>\(label)</option>")
        }
        let steps = calculation?.steps.map { HTML("<li>\($0)</li>") }.joined() ?? .empty
        let recent = weights.suffix(8).reversed().map { w -> HTML in
            let when = Self.when(w.measuredAt, in: zone), kg = w.weightKg.display(1)
            return HTML("""
            <li><span><strong>\(kg) kg</strong> <span class="muted">\(when) · \(Self.sourceName(w.source))</span></span>
            <form method="post" action="\(SiteURL.deleteWeight(w.id).path)" class="inline">\(Layout.csrfField(layout.csrf ?? ""))<button class="icon-button" type="submit" aria-label="Delete the weight of \(kg) kg from \(when)" data-pressable>\(Icons.close)</button></form></li>
            """)
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
          <p class="muted">\(goals.source == .computed ? "Computed from your body profile:" : (!setByHand ? "Defaults (\(Goals.defaults.energyKcal.display(0)) kcal / \(Goals.defaults.protein.display(0)) g / \(Goals.defaults.carbohydrates.display(0)) g / \(Goals.defaults.fat.display(0)) g) until you set your own." : "Set by hand."))</p>
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
            <details class="imperial"\(if: ["heightFt", "heightIn", "weightLb"].contains { errors.message(for: $0) != nil }, " open")><summary>Use feet, inches and pounds instead</summary>
              <div class="grid-2">
                \(FormField(name: "heightFt", label: "Height (ft)", error: errors.message(for: "heightFt"), autocomplete: "off", inputMode: "numeric").render)
                \(FormField(name: "heightIn", label: "and inches", error: errors.message(for: "heightIn"), autocomplete: "off", inputMode: "decimal").render)
                \(FormField(name: "weightLb", label: "Weight (lb)", error: errors.message(for: "weightLb"), autocomplete: "off", inputMode: "decimal").render)
              </div>
              <p class="hint">Filled-in imperial values are used instead of the metric ones.</p>
            </details>
            <div class="field"><label for="field-activityLevel">Activity</label><select id="field-activityLevel" name="activityLevel">
              \(ActivityLevel.allCases.map { option($0, $0.shortLabel, selected: p?.activityLevel ?? .light) }.joined())</select></div>
            <div class="field"><label for="field-aim">Aim</label><select id="field-aim" name="aim">
              \(Aim.allCases.map { option($0, $0.label, selected: p?.aim ?? .maintain) }.joined())</select></div>
            <label class="check"><input type="checkbox" name="useComputedGoals" id="field-useComputedGoals"\(if: !setByHand, " checked")> Use goals computed from this profile</label>
            <p class="hint">Unticked, your goals set by hand stay as they are.</p>
            <button class="button primary" type="submit">Save body profile</button>
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
        \(targetsForm(csrf: layout.csrf ?? ""))
        <section class="card" aria-labelledby="weights-title">
          <h2 id="weights-title">Weight</h2>
          <form method="post" action="\(SiteURL.goalsWeights.path)" class="filter-row">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(FormField(name: "weight", label: "Today's weight", error: errors.message(for: "weightKg"), autocomplete: "off", inputMode: "decimal").render)
            <div class="field"><label for="field-weightUnit">Unit</label><select id="field-weightUnit" name="weightUnit"><option value="kg">kg</option><option value="lb">lb</option></select></div>
            <button class="button" type="submit">Add weight</button>
          </form>
          \(putBack.map { $0.form(csrf: layout.csrf ?? "", zone: zone) })
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

extension GoalsPage {
    /// A deleted weighing, kept in the session for the next page only: its "Put it back" records it
    /// again (the same weight, time and source) through the same form as a new one.
    struct PutBack: Codable {
        var weightKg: Decimal
        var measuredAt: Date
        var source: String

        init(_ weight: WeightEntry) {
            (weightKg, measuredAt, source) = (weight.weightKg, weight.measuredAt, RecordWeight.sourceRecordedAgain(weight.source))
        }

        private static let key = "weightPutBack"

        func keep(in session: Session) {
            session.data[Self.key] = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
        }

        static func take(from session: Session) -> PutBack? {
            guard let kept = session.data[key] else { return nil }
            session.data[key] = nil
            return try? JSONDecoder().decode(PutBack.self, from: Data(kept.utf8))
        }

        func form(csrf: String, zone: TimeZone) -> HTML {
            HTML("""
            <form method="post" action="\(SiteURL.goalsWeights.path)" class="put-back" role="status">
              \(Layout.csrfField(csrf))
              <input type="hidden" name="weight" value="\(weightKg.description)"><input type="hidden" name="weightUnit" value="kg">
              <input type="hidden" name="measuredAt" value="\(Instant.format(measuredAt))"><input type="hidden" name="source" value="\(source)">
              <span>Deleted \(weightKg.display(1)) kg from \(GoalsPage.when(measuredAt, in: zone)).</span>
              <button class="button small" type="submit">Put it back</button>
            </form>
            """)
        }
    }

    /// When a weighing was measured, in the person's zone: "4 December 2023, 00:07".
    static func when(_ instant: Date, in zone: TimeZone) -> String {
        "\(PlannerPage.longDate(CalendarDate(instant, in: zone))), \(ClockText.time(instant, in: zone))"
    }

    /// Where a weighing came from, as a person says it.
    static func sourceName(_ source: String) -> String {
        switch source {
        case "manual": "typed in"
        case "profile": "body profile"
        case ImportHealthData.source: "Apple Health"
        default: source
        }
    }

    /// Each nutrient's daily target: the daily value until the person changes it.
    func targetsForm(csrf: String) -> HTML {
        let fields = Nutrient.targeted.map { n -> HTML in
            let own = goals.targets[n]
            let daily = n.dailyValue.map { "\($0)" } ?? ""
            return HTML("""
            <div class="field target-field\(if: own != nil, " changed")">
              <label for="field-target-\(n.rawValue)">\(n.name) (\(n.unit.rawValue))</label>
              <input id="field-target-\(n.rawValue)" name="target.\(n.rawValue)" value="\(own.map { "\($0)" } ?? daily)" inputmode="decimal" autocomplete="off"\(if: errors.message(for: "targets.\(n.rawValue)") != nil, " aria-invalid=\"true\" aria-describedby=\"error-target-\(n.rawValue)\"")>
              \(errors.message(for: "targets.\(n.rawValue)").map { HTML("<p class=\"field-error\" id=\"error-target-\(n.rawValue)\">\($0)</p>") })
              <p class="hint">\(n.direction == .atMost ? "At most" : "At least") · daily value \(n.text(n.dailyValue ?? 0))\(if: own != nil, " · changed")</p>
            </div>
            """)
        }.joined()
        return HTML("""
        <section class="card" aria-labelledby="targets-title">
          <h2 id="targets-title">Nutrient targets</h2>
          <p class="muted">Each nutrient's daily value (FDA, adults) unless you change it: a low-sodium or keto diet changes a few.\(if: !goals.targets.isEmpty, " Changed: \(goals.targets.keys.sorted().map { "\($0.name) \($0.text(goals.targets[$0]!))" }.joined(separator: ", ")).")</p>
          <details class="targets-details" id="targets-details"\(if: errors.fields.contains { $0.field.hasPrefix("targets.") }, " open")>
            <summary>Change nutrient targets</summary>
            <form method="post" action="\(SiteURL.goalsTargets.path)" class="stack" id="targets-form">
              \(Layout.csrfField(csrf))
              <p class="hint">Empty a field to go back to the daily value.</p>
              <div class="grid-2 targets-grid">\(fields)</div>
              <button class="button" type="submit">Save nutrient targets</button>
            </form>
          </details>
        </section>
        """)
    }
}

extension EditEntryPage {
    /// A photo entry is counted from a food (searched as you type), a meal of the library, or the
    /// quick add's values below.
    var countAs: HTML {
        let mealOptions = meals.map { m in HTML("<option value=\"\(m.id.uuidString)\"\(if: typed["mealId"] == m.id.uuidString, " selected")>\(m.description)</option>") }.joined()
        let row = MealFormPage.IngredientRow(food: typed["ingredientFood"] ?? "", foodID: typed["ingredientFoodId"] ?? "", quantity: typed["ingredientQuantity"] ?? "",
                                             unit: typed["ingredientUnit"] ?? "")
        return HTML("""
        <p class="uncounted-note"><strong>Not counted yet.</strong> Count it as a food, a meal from your library, or by its calories.</p>
        <fieldset class="count-as" id="count-as"><legend>Count it as a food</legend>
          \(MealFormPage.ingredientRow(row, index: 0, errors: errors, plate: true))
        </fieldset>
        \(if: !meals.isEmpty, HTML("""
        <div class="grid-2">
          <div class="field"><label for="field-mealId">or a meal</label><select id="field-mealId" name="mealId" data-searchable="your meals"><option value="">—</option>\(mealOptions)</select></div>
          \(FormField(name: "servings", label: "Servings", value: typed["servings"] ?? "1", error: errors.message(for: "servings"), autocomplete: "off", inputMode: "decimal").render)
        </div>
        """))
        <p class="hint">or by its calories:</p>
        """)
    }
}

/// Correct one diary entry: the amount (grams, millilitres or servings), a quick add's name and
/// values, the meal type, the day and the time, the note; or delete it. Values not touched stay as
/// they were logged.
struct EditEntryPage {
    let entry: DiaryEntry
    let zone: TimeZone
    let mealTypes: MealTypeCatalog
    var errors = ValidationError([])
    /// What was typed when saving failed (shown again as typed).
    var typed: [String: String] = [:]
    /// The occasions a time edit would move the entry between: the page asks first (seed 004 §7).
    var confirmMove: (from: OccasionRef, to: OccasionRef)?
    /// For a photo entry: the library's meals it may be counted as.
    var meals: [Meal] = []

    func render(layout: Layout) -> HTML {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: entry.loggedAt)
        let time = typed["time"] ?? String(format: "%02d:%02d", parts.hour ?? 12, parts.minute ?? 0)
        let chosenType = typed["mealType"] ?? entry.mealType
        let types = MealTypeOptions.html(mealTypes, selected: chosenType)
        func field(_ name: String, _ label: String, _ value: String?, error: String? = nil, mode: String? = "decimal") -> HTML {
            FormField(name: name, label: label, value: typed[name] ?? value, error: error ?? errors.message(for: name), autocomplete: "off", inputMode: mode).render
        }
        let amount: HTML = switch entry.kind {
        case let .food(_, quantity, unit):
            """
            <div class="grid-2">
              \(field("quantity", "Amount", "\(quantity)"))
              <div class="field"><label for="field-unit">Unit</label><select id="field-unit" name="unit">\(QuantityUnit.allCases.map { u in
                  HTML("<option value=\"\(u.rawValue)\"\(if: u.rawValue == (typed["unit"] ?? unit.rawValue), " selected")>\(u == .serving ? "servings" : u.label)</option>") }.joined())</select>
                \(errors.message(for: "unit").map { HTML("<p class=\"field-error\">\($0)</p>") })</div>
            </div>
            <p class="hint">A new amount is worked out from the food as it is now.</p>
            """
        case let .meal(_, servings):
            field("servings", "Servings", "\(servings)")
        case .quickAdd, .photo:
            """
            \(if: entry.kind == .photo, countAs)
            \(field("quick.name", "What", entry.name, mode: nil))
            <div class="grid-2">
              \(field("quick.energyKcal", "Calories (kcal)", entry.nutrients.energyKcal.map { "\($0)" }, error: errors.message(for: "quickAdd.energyKcal")))
              \(field("quick.protein", "Protein (g)", entry.nutrients.protein.map { "\($0)" }, error: errors.message(for: "quickAdd.protein")))
              \(field("quick.carbohydrates", "Carbs (g)", entry.nutrients.carbohydrates.map { "\($0)" }, error: errors.message(for: "quickAdd.carbohydrates")))
              \(field("quick.fat", "Fat (g)", entry.nutrients.fat.map { "\($0)" }, error: errors.message(for: "quickAdd.fat")))
            </div>
            """
        }
        let otherErrors = errors.fields.filter { !["quantity", "unit", "servings", "mealType", "note", "date"].contains($0.field) && !$0.field.hasPrefix("quickAdd.")
            && !$0.field.hasPrefix("ingredients[") }
        let confirmation: HTML = confirmMove.map { move in
            HTML("""
            <div class="confirm-move" role="alertdialog" aria-labelledby="confirm-move-title" id="confirm-move">
              <h2 id="confirm-move-title">\(move.from.mealType == move.to.mealType ? "Move this entry to another day?" : "Move this entry to another meal?")</h2>
              <p>The new time moves “\(entry.name)” from <strong>\(move.from.name)</strong> to <strong>\(move.to.name)</strong>. Only this entry moves; the rest of \(mealTypes.name(of: move.from.mealType)) that day stays.</p>
              <p class="hint">Press <strong>Move it</strong> to save, or change the time back.</p>
            </div>
            """)
        } ?? HTML("")
        return layout.render("""
        <section class="card narrow">
          \(entry.photoId.map { HTML("<img class=\"entry-photo\" src=\"\(PhotoURL.image($0))\" alt=\"Photo of \(entry.name)\">") })
          <h1>\(entry.name)</h1>
          <p class="muted">\(entry.isCounted ? "\(entry.nutrients.energyKcal.map { "\($0.display(0)) kcal" } ?? "") · \(DashboardPage.amount(entry))" : "Not counted yet")</p>
          \(if: !otherErrors.isEmpty, HTML("<p class=\"form-error\" role=\"alert\">\(otherErrors.map(\.message).joined(separator: " "))</p>"))
          \(confirmation)
          <form method="post" action="\(SiteURL.updateEntry(entry.id).path)" class="stack" id="entry-form">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(if: confirmMove != nil, HTML("<input type=\"hidden\" name=\"confirmMove\" value=\"1\">"))
            \(amount)
            <div class="field"><label for="field-mealType">Meal type</label><select id="field-mealType" name="mealType">\(types)</select></div>
            \(errors.message(for: "mealType").map { HTML("<p class=\"field-error\">\($0)</p>") })
            <div class="grid-2">
              \(FormField(name: "date", label: "Day", value: typed["date"] ?? entry.date.iso, error: errors.message(for: "date"), type: "date", autocomplete: nil).render)
              \(FormField(name: "time", label: "Time", value: time, type: "time", autocomplete: nil).render)
            </div>
            \(FormField(name: "note", label: "Note", value: typed["note"] ?? entry.note, error: errors.message(for: "note"), autocomplete: "off").render)
            <div class="form-actions">
              <a class="button subtle" href="\(SiteURL.diary(date: entry.date).path)">Cancel</a>
              <button class="button primary" type="submit" id="save-entry">\(confirmMove == nil ? "Save" : "Move it")</button>
            </div>
          </form>
          <form method="post" action="\(SiteURL.deleteEntry(entry.id).path)" class="delete-entry" data-confirm="Delete “\(entry.name)” from your diary?">
            \(Layout.csrfField(layout.csrf ?? ""))
            <button class="button danger" type="submit">Delete this entry</button>
          </form>
        </section>
        """)
    }
}
