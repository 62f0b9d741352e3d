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
    var notice: String?  // not a problem: what to know (an import's draft is not saved yet)
    var facets = MealFacets()
    var servings = "1"
    /// Ingredient rows as typed: food name, food id (set by scripts or when editing), quantity, unit.
    var rows: [IngredientRow] = []
    var nutrition: [String: String] = [:]
    var steps: [StepRow] = []
    var prepMinutes = ""
    var cookMinutes = ""
    var source = ""
    var notes = ""
    /// Foods offered as suggestions (and used to show names when editing).
    var foodOptions: [Food] = []
    var totals: MealTotals?
    var currency = "EUR"

    struct IngredientRow {
        var food = ""
        var foodID = ""
        var quantity = ""
        var unit = "g"
        /// A line kept as written, no food (``MealLine/text``).
        var isText = false
        /// The cook's unit, carried through the form (``written(for:stored:)``).
        var written = ""
    }

    static let nutritionFields: [(name: String, label: String)] = [
        ("energyKcal", "Energy (kcal)"), ("protein", "Protein (g)"), ("carbohydrates", "Carbs (g)"), ("fat", "Fat (g)")]

    init(mealID: UUID? = nil, meal: Meal? = nil, facets: MealFacets = MealFacets(), foods: [UUID: Food] = [:]) {
        self.mealID = mealID ?? meal?.id
        if let meal {
            description = meal.description
            primaryProtein = meal.primaryProtein ?? ""
            primaryCarb = meal.primaryCarb ?? ""
            components = meal.otherComponents
            servings = String(meal.servings)
            rows = meal.lines.map { line in
                switch line {
                case .food(let i): IngredientRow(food: foods[i.foodId]?.name ?? "", foodID: i.foodId.uuidString, quantity: "\(i.quantity)", unit: i.unit.rawValue,
                                                 written: IngredientRow.carry(i.written, key: i.foodId.uuidString, stored: i.unit, shown: "\(i.quantity)"))
                case .text(let text): IngredientRow(food: text, isText: true)
                }
            }
            show(meal.recipe)
            if let manual = meal.manualNutrition {
                for field in manual.fields { nutrition[field.name] = field.value.map { "\($0)" } ?? "" }
            }
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
        servings = form["servings"] ?? "1"
        let names = form.all("ingredientFood"), ids = form.all("ingredientFoodId")
        let quantities = form.all("ingredientQuantity"), units = form.all("ingredientUnit"), kinds = form.all("ingredientKind"), written = form.all("ingredientWritten")
        for i in 0..<max(names.count, ids.count, quantities.count) {
            let row = IngredientRow(food: i < names.count ? names[i] : "", foodID: i < ids.count ? ids[i] : "",
                                    quantity: i < quantities.count ? quantities[i] : "", unit: i < units.count ? units[i] : "g",
                                    isText: i < kinds.count && kinds[i] == "text", written: i < written.count ? written[i] : "")
            if !row.food.trimmed.isEmpty || !row.foodID.isEmpty || !row.quantity.trimmed.isEmpty { rows.append(row) }
        }
        for field in Self.nutritionFields { nutrition[field.name] = form["nutrition.\(field.name)"] ?? "" }
        readRecipe(form)
    }

    /// The typed values as a draft: ingredient names are matched to the user's foods (exactly,
    /// ignoring case) unless a script already chose the food.
    /// With `usualPortions` (the plate) an empty amount is the food's usual portion and the unit
    /// "usual" is servings where the food has them, else grams or millilitres.
    /// `adopt`: when a typed name is none of the person's foods, the catalogue food of exactly that
    /// name made theirs (the form sent without the page's script, or from the offline queue).
    func draft(foods: some FoodReads, usualPortions: Bool = false, adopt: ((String) async throws -> Food?)? = nil) async throws -> MealDraft {
        var problems: [ValidationError.Field] = []
        var numbers = TypedNumbers()
        func number(_ raw: String, field: String) -> Decimal? { numbers.read(raw, field: field, example: "150") }
        var lines: [MealLine] = []
        for (index, row) in rows.enumerated() {
            let field = "ingredients[\(index)]"
            if row.isText { lines.append(.text(row.food)); continue }
            var food: Food?
            if let id = UUID(uuidString: row.foodID) { food = try await foods.find(id) }
            if food == nil, !row.food.trimmed.isEmpty {
                food = try await foods.list(query: row.food, page: try Paging(per: 50)).items
                    .first { $0.name.matchKey == row.food.matchKey }
                if food == nil, let adopt { food = try await adopt(row.food) }
            }
            guard let food else {
                problems.append(.init(field: "\(field).foodId", message: row.food.trimmed.isEmpty
                    ? "Choose a food for ingredient \(index + 1)."
                    : "No food called “\(row.food.trimmed)” yet: choose a match under the field, search Open Food Facts, or create it there."))
                continue
            }
            let typedUnit = QuantityUnit(rawValue: row.unit)
            let typed = number(row.quantity, field: "\(field).quantity")
            guard row.quantity.trimmed.isEmpty || typed != nil else { continue }
            // The plate's rule is ForkcastCore's (Food.platePortion); a meal's ingredient needs its amount, in grams unless chosen.
            guard let amount = usualPortions ? food.platePortion(quantity: typed, unitText: row.unit) : typed.map({ ($0, typedUnit ?? .gram) }) else {
                problems.append(.init(field: "\(field).quantity", message: "How much \(food.name)?"))
                continue
            }
            lines.append(.food(Ingredient(foodId: food.id, quantity: amount.quantity, unit: amount.unit, written: row.written(for: food, stored: amount.unit))))
        }
        let (ingredients, texts) = MealLine.split(lines)
        let recipe = recipe(texts: texts, numbers: &numbers)
        var manual = Nutrients()
        manual.energyKcal = number(nutrition["energyKcal"] ?? "", field: "nutrition.energyKcal")
        manual.protein = number(nutrition["protein"] ?? "", field: "nutrition.protein")
        manual.carbohydrates = number(nutrition["carbohydrates"] ?? "", field: "nutrition.carbohydrates")
        manual.fat = number(nutrition["fat"] ?? "", field: "nutrition.fat")
        let servingCount = Int(servings.trimmed) ?? 0
        problems += numbers.problems
        guard problems.isEmpty else { throw ValidationError(problems) }
        return MealDraft(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb, otherComponents: components,
                         servings: servingCount, ingredients: ingredients, manualNutrition: manual == Nutrients() ? nil : manual,
                         recipe: recipe)
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
          \(notice.map { HTML("<p class=\"notice\" id=\"form-notice\" role=\"status\">\($0)</p>") })
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
            \(ingredientsSection)
            \(recipeSection)
            <div class="form-actions">
              <a class="button subtle" href="\(SiteURL.meals().path)">Cancel</a>
              <button class="button primary" type="submit" data-pressable>\(isEdit ? "Save changes" : "Add meal")</button>
            </div>
          </form>
        </section>
        """)
    }
}

extension MealFormPage {
    var ingredientsSection: HTML {
        let emptyRows = max(0, 3 - rows.count)
        let allRows = rows + Array(repeating: IngredientRow(), count: emptyRows)
        let rowHTML = allRows.enumerated().map { index, row in Self.ingredientRow(row, index: index, errors: errors) }.joined()
        let manualFields = Self.nutritionFields.map { f in
            FormField(name: "nutrition.\(f.name)", label: f.label, value: nutrition[f.name], error: errors.message(for: "nutrition.\(f.name)"),
                      autocomplete: "off", inputMode: "decimal").render
        }.joined()
        return """
        <fieldset class="ingredients stack">
          <legend>Ingredients and nutrition</legend>
          \(FormField(name: "servings", label: "Servings this makes", value: servings, error: errors.message(for: "servings"), type: "number", autocomplete: nil, inputMode: "numeric").render)
          <p class="hint">Pick foods from your food library; nutrition and cost per serving are worked out from them.</p>
          <div id="ingredient-rows">\(rowHTML)</div>
          <button type="button" class="button small" data-add-ingredient hidden>\(Icons.plus) Add ingredient</button>
          <datalist id="food-options">\(foodOptions.map { HTML("<option value=\"\($0.name)\" data-id=\"\($0.id.uuidString)\">") }.joined())</datalist>
          <details class="manual-nutrition"\(if: !nutrition.values.allSatisfy { $0.isEmpty }, " open")>
            <summary>No ingredients? Type the nutrition per serving</summary>
            <div class="grid-2">\(manualFields)</div>
          </details>
          <div id="meal-totals" class="totals" aria-live="polite">\(totals.map { MealTotalsView(totals: $0, servings: Int(servings) ?? 1, currency: currency).html } ?? HTML.empty)</div>
        </fieldset>
        """
    }

    static func ingredientRow(_ row: IngredientRow, index: Int, errors: ValidationError, plate: Bool = false) -> HTML {
        let n = index + 1
        if row.isText { return textRow(row, n: n) }
        let foodError = errors.message(for: "ingredients[\(index)].foodId") ?? errors.message(for: "ingredients[\(index)].unit")
        let quantityError = errors.message(for: "ingredients[\(index)].quantity")
        // A named portion chosen on the plate (plate.js) comes back as it was sent.
        let portion: HTML = plate ? Food.portionGrams(row.unit).map { HTML("<option value=\"\(row.unit)\" data-portion selected>× \("\($0)") g portion</option>") } ?? .empty : .empty
        let units: HTML = "\(if: plate, HTML("<option value=\"\"\(if: row.unit.isEmpty, " selected")>g/ml</option>"))\(QuantityUnit.allCases.map { u in HTML("<option value=\"\(u.rawValue)\"\(if: u.rawValue == row.unit, " selected")>\(u.label)</option>") })\(portion)"
        return """
        <div class="ingredient-row" data-ingredient-row>
          <div class="field grow"><label for="ingredient-food-\(n)">Food \(n)</label>
            <input id="ingredient-food-\(n)" name="ingredientFood" value="\(row.food)" autocomplete="off"\(if: foodError != nil, " aria-invalid=\"true\" aria-describedby=\"ingredient-food-\(n)-error\"")>
            <input type="hidden" name="ingredientFoodId" value="\(row.foodID)"><input type="hidden" name="ingredientKind" value="food"><input type="hidden" name="ingredientWritten" value="\(row.written)">
            \(foodError.map { HTML("<p class=\"field-error\" id=\"ingredient-food-\(n)-error\">\($0)</p>") })</div>
          <div class="field qty"><label for="ingredient-qty-\(n)">Amount</label>
            <input id="ingredient-qty-\(n)" name="ingredientQuantity" inputmode="decimal" value="\(row.quantity)" autocomplete="off"\(if: plate, " placeholder=\"amount\"")\(if: quantityError != nil, " aria-invalid=\"true\" aria-describedby=\"ingredient-qty-\(n)-error\"")></div>
          <div class="field unit"><label for="ingredient-unit-\(n)">Unit</label>
            <select id="ingredient-unit-\(n)" name="ingredientUnit">\(units)</select></div>
          <button type="button" class="icon-button remove-ingredient" data-remove-ingredient aria-label="Remove ingredient \(n)" hidden>\(Icons.close)</button>
          \(quantityError.map { HTML("<p class=\"field-error row-error\" id=\"ingredient-qty-\(n)-error\">\($0)</p>") })
        </div>
        """
    }
}

/// Nutrition and cost of a meal: per serving, and for the whole dish.
struct MealTotalsView {
    let totals: MealTotals
    let servings: Int
    let currency: String

    var html: HTML {
        let p = totals.perServing
        guard p.energyKcal != nil || p.protein != nil || p.carbohydrates != nil || p.fat != nil else {
            return "<p class=\"muted\" id=\"totals-empty\">Add ingredients (or type the nutrition) to see totals.</p>"
        }
        return """
        <h3>Per serving</h3>
        <p class="macros" id="per-serving">\(NutritionSummary(nutrients: p, cost: totals.costPerServing, currency: currency).html)</p>
        \(if: servings > 1, HTML("<p class=\"muted\">Whole meal (\(servings) servings): \(totals.total.energyKcal.map { "\($0.display(0)) kcal" } ?? "–")\(totals.cost.map { " · " + Currency.format($0, currency) } ?? "")</p>"))
        """
    }
}

/// "520 kcal · P 30 g · C 60 g · F 15 g · €2.40", coloured like the rings (protein red, carbs orange, fat blue).
struct NutritionSummary {
    let nutrients: Nutrients
    let cost: Decimal?
    let currency: String

    var html: HTML {
        var parts: [HTML] = []
        if let e = nutrients.energyKcal { parts.append("<span class=\"kcal\">\(e.display(0)) kcal</span>") }
        if let v = nutrients.protein { parts.append("<span class=\"tag protein\"><abbr title=\"Protein\">P</abbr> \(v.gramsText) g</span>") }
        if let v = nutrients.carbohydrates { parts.append("<span class=\"tag carb\"><abbr title=\"Carbohydrates\">C</abbr> \(v.gramsText) g</span>") }
        if let v = nutrients.fat { parts.append("<span class=\"tag fat\"><abbr title=\"Fat\">F</abbr> \(v.gramsText) g</span>") }
        if let cost { parts.append("<span class=\"cost\">\(Currency.format(cost, currency))</span>") }
        if nutrients.energyKcal != nil, nutrients.protein == nil, nutrients.carbohydrates == nil, nutrients.fat == nil {
            parts.append("<span class=\"muted\">macros not known</span>")
        }
        return HTML(raw: parts.map(\.html).joined(separator: " "))
    }

    var isEmpty: Bool { nutrients.energyKcal == nil && nutrients.protein == nil && nutrients.carbohydrates == nil && nutrients.fat == nil && cost == nil }
}
