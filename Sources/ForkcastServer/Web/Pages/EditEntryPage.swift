import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

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

    /// What a changed amount comes to, shown before saving (the `entry-totals` fragment, entry.js).
    static func totals(_ nutrients: Nutrients?, changed: Bool) -> HTML {
        let text: HTML = !changed ? HTML("Change the amount to see what it comes to.")
            : nutrients.map { HTML("With the new amount: \(NutritionSummary(nutrients: $0, cost: nil, currency: "").html)") } ?? HTML("Not a whole amount yet.")
        return HTML("<p class=\"muted\" id=\"entry-totals\" aria-live=\"polite\">\(text)</p>")
    }

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
            \(field("quick.name", "What", entry.kind == .photo && entry.name == DiaryEntry.photoName ? nil : entry.name, mode: nil))
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
            \(if: entry.isCounted, Self.totals(nil, changed: false))
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
