import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Adding to the diary: a plate of foods (and a meal, or a quick add) logged at once to one meal
/// type. Usual foods are one tap away, food rows search all your foods as you type, the totals
/// follow, and a meal eaten on another day can be copied in one step.
struct AddToDiaryPage {
    /// How many usual foods the plate offers as chips for a meal type.
    static let usualFoodsShown = 6
    var date: CalendarDate
    var mealType: String
    var rows: [MealFormPage.IngredientRow] = []
    var mealID = ""
    var mealServings = "1"
    var quick: [String: String] = [:]
    var errors = ValidationError([])
    var message: String?
    var usual: [UsualFood] = []
    var meals: [Meal] = []
    /// Meals eaten in the last days, to copy: (date, meal type, items, kcal).
    var recent: [(date: CalendarDate, mealType: MealType, count: Int, kcal: Decimal)] = []
    var totals: Nutrients?
    /// Amounts big enough to be a slip, asked about before logging (``DiaryEntry/largeAmountQuestion(food:)``).
    var largeAmounts: [String] = []
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
          <p class="form-error" role="alert" id="form-message"\(if: message == nil && itemErrors.isEmpty && largeAmounts.isEmpty, " hidden")>\(largeAmounts.isEmpty ? message ?? itemErrors.joined(separator: " ") : "Check before logging: " + largeAmounts.joined(separator: " ") + " Change the amount, or log it as it is.")</p>
          <form id="plate-form" method="post" action="\(SiteURL.diaryAdd().path)" class="stack" data-offline="plate" data-today="\(today?.iso ?? "")"
                data-quick-add-name="\(DiaryEntry.quickAddName)" data-default-servings="\("\(DiaryEntry.defaultServings)")">
            \(Layout.csrfField(layout.csrf ?? ""))
            \(largeAmounts.map { HTML("<input type=\"hidden\" name=\"confirmedAmount\" value=\"\($0)\">") }.joined())
            <div class="grid-2">
              <div class="field"><label for="field-date">Day</label><input id="field-date" type="date" name="date" value="\(date.iso)"></div>
              <div class="field"><label for="field-mealType">Meal type</label><select id="field-mealType" name="mealType">\(types)</select></div>
            </div>
            <fieldset class="ingredients stack"><legend>Foods on the plate</legend>
              \(if: !usual.isEmpty, HTML("<div class=\"usual-foods\" hidden><p class=\"hint\" id=\"usual-hint\">Your usual foods — tap to put one on the plate:</p>\(Self.usualChips(usual))</div>"))
              <div id="ingredient-rows">\(allRows.enumerated().map { MealFormPage.ingredientRow($1, index: $0, errors: errors, plate: true) }.joined())</div>
              <p class="hint">A number alone is grams (or millilitres); choose “serving” for servings. Left empty, the amount is one serving (or 100 g when the food has none).</p>
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
              <button class="button primary" type="submit" data-pressable>\(largeAmounts.isEmpty ? "Log it" : "Log it as it is")</button>
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

    /// A usual food and the amount a chip puts on the plate: the one last eaten, else its usual portion.
    struct UsualFood {
        let food: Food
        let portion: (quantity: Decimal, unit: QuantityUnit)
    }

    /// The usual foods' chips: on the page, and alone for a meal type chosen on it (`X-Fragment:
    /// usual-foods`, plate.js). Each carries what the row needs to say its unit.
    static func usualChips(_ usual: [UsualFood]) -> HTML {
        let chips = usual.map { u in
            let f = u.food
            return HTML("<li><button type=\"button\" class=\"chip food-chip\" data-food-id=\"\(f.id.uuidString)\" data-name=\"\(f.name)\" data-quantity=\"\("\(u.portion.quantity)")\" data-unit=\"\(u.portion.unit.rawValue)\" data-basis=\"\(f.basis.rawValue)\" data-serving=\"\(f.serving?.displayLabel ?? "")\"\(if: f.catalogId != nil, HTML(" data-catalog-id=\"\(f.catalogId ?? "")\""))) title=\"\(f.name)\">\(Icons.plus) <span class=\"food-chip-name\">\(f.name)</span></button></li>")
        }.joined()
        return HTML("<ul class=\"chips\" aria-describedby=\"usual-hint\">\(chips)</ul>")
    }
}
