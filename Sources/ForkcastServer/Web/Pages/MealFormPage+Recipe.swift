import ForkcastCore
import Foundation

/// The meal form's recipe: steps with their timers, times, source and notes, and the ingredient
/// lines kept as written.
extension MealFormPage {
    struct StepRow {
        var text = ""
        /// Minutes as typed.
        var timer = ""
    }

    mutating func show(_ recipe: Recipe) {
        steps = recipe.steps.map { StepRow(text: $0.text, timer: $0.timerSeconds.map { (Decimal($0) / 60).display(2) } ?? "") }
        prepMinutes = recipe.prepMinutes.map(String.init) ?? ""
        cookMinutes = recipe.cookMinutes.map(String.init) ?? ""
        source = recipe.source ?? ""
        notes = recipe.notes ?? ""
    }

    mutating func readRecipe(_ form: FormData) {
        let texts = form.all("stepText"), timers = form.all("stepTimer")
        steps = texts.indices.map { StepRow(text: texts[$0], timer: $0 < timers.count ? timers[$0] : "") }
            .filter { !$0.text.trimmed.isEmpty || !$0.timer.trimmed.isEmpty }
        prepMinutes = form["prepMinutes"] ?? ""
        cookMinutes = form["cookMinutes"] ?? ""
        source = form["source"] ?? ""
        notes = form["notes"] ?? ""
    }

    /// The recipe as typed: timers in minutes become seconds; ``Recipe`` checks the rest.
    func recipe(texts: [TextIngredient], numbers: inout TypedNumbers) -> Recipe {
        var recipe = Recipe(source: source, notes: notes, textIngredients: texts)
        for (index, row) in steps.enumerated() {
            let minutes = numbers.read(row.timer, field: "steps[\(index)].timerSeconds", example: "10")
            // Out of range stays out of range (refused by Recipe), without overflowing Int.
            let seconds = minutes.map { m in m * 60 > Decimal(Int32.max) ? Int(Int32.max) : NSDecimalNumber(decimal: (m * 60).rounded(0)).intValue }
            recipe.steps.append(RecipeStep(text: row.text, timerSeconds: seconds))
        }
        for (field, typed) in [("prepMinutes", prepMinutes), ("cookMinutes", cookMinutes)] {
            let value = numbers.read(typed, field: field, example: "20").map { $0 > 1_000_000 ? 1_000_000 : NSDecimalNumber(decimal: $0.rounded(0)).intValue }
            if field == "prepMinutes" { recipe.prepMinutes = value } else { recipe.cookMinutes = value }
        }
        return recipe
    }

    static func textRow(_ row: IngredientRow, n: Int) -> HTML {
        """
        <div class="ingredient-row text-line" data-text-row>
          <div class="field grow"><label for="ingredient-food-\(n)">Line \(n), kept as written</label>
            <input id="ingredient-food-\(n)" name="ingredientFood" value="\(row.food)" autocomplete="off" maxlength="\(Recipe.maximumLineLength)">
            <p class="hint">No food: left out of the totals. Empty it to remove the line.</p>
            <input type="hidden" name="ingredientFoodId" value=""><input type="hidden" name="ingredientQuantity" value="">
            <input type="hidden" name="ingredientUnit" value=""><input type="hidden" name="ingredientKind" value="text"><input type="hidden" name="ingredientWritten" value=""></div>
        </div>
        """
    }

    var recipeSection: HTML {
        let rows = (steps + Array(repeating: StepRow(), count: steps.isEmpty ? 3 : 1)).enumerated().map { index, step in
            let n = index + 1
            let error = errors.message(for: "steps[\(index)].text") ?? errors.message(for: "steps[\(index)].timerSeconds")
            return HTML("""
            <li class="step-row">
              <div class="field grow"><label for="step-text-\(n)">Step \(n)</label>
                <textarea id="step-text-\(n)" name="stepText" rows="2" maxlength="\(Recipe.maximumStepLength)"\(if: error != nil, " aria-invalid=\"true\" aria-describedby=\"step-\(n)-error\"")>\(step.text)</textarea></div>
              <div class="field qty"><label for="step-timer-\(n)">Timer (min)</label>
                <input id="step-timer-\(n)" name="stepTimer" inputmode="decimal" value="\(step.timer)" autocomplete="off"></div>
              \(error.map { HTML("<p class=\"field-error row-error\" id=\"step-\(n)-error\">\($0)</p>") })
            </li>
            """)
        }.joined()
        let open = !steps.isEmpty || !prepMinutes.isEmpty || !cookMinutes.isEmpty || !source.isEmpty || !notes.isEmpty
            || errors.fields.contains { $0.field.hasPrefix("steps") || ["prepMinutes", "cookMinutes", "source", "notes"].contains($0.field) }
        return """
        <details class="recipe-fields stack"\(if: open, " open")>
          <summary>Recipe: steps, times, source and notes</summary>
          <div class="grid-2">
            \(FormField(name: "prepMinutes", label: "Preparation (min)", value: prepMinutes, error: errors.message(for: "prepMinutes"), autocomplete: "off", inputMode: "numeric").render)
            \(FormField(name: "cookMinutes", label: "Cooking (min)", value: cookMinutes, error: errors.message(for: "cookMinutes"), autocomplete: "off", inputMode: "numeric").render)
          </div>
          <ol class="step-rows stack">\(rows)</ol>
          <p class="hint">Save to get another empty step. A timer is in minutes (0.5 is 30 seconds).</p>
          \(FormField(name: "source", label: "Source (an address or a book)", value: source, error: errors.message(for: "source"), autocomplete: "off", maxLength: Recipe.maximumSourceLength).render)
          <div class="field\(if: errors.message(for: "notes") != nil, " has-error")"><label for="field-notes">Notes</label>
            <textarea id="field-notes" name="notes" rows="3" maxlength="\(Recipe.maximumNotesLength)">\(notes)</textarea>
            \(errors.message(for: "notes").map { HTML("<p class=\"field-error\">\($0)</p>") })</div>
        </details>
        """
    }
}

extension MealFormPage.IngredientRow {
    /// A cook's unit as the form carries it: "stored|unit|size|shown|food", where shown is the
    /// amount field as shown and food the row's food id (or, for a catalogue match, its name).
    static func carry(_ written: WrittenUnit?, key: String, stored: QuantityUnit, shown: String) -> String {
        guard let written else { return "" }
        return [stored.rawValue, written.unit?.rawValue ?? "", "\(written.size)", shown, key].joined(separator: "|")
    }

    /// The cook's unit this row carried, while the row is as it was shown: the same food, amount and
    /// unit. A typed amount is read in the unit typed ("150" g of onion, not 1.4 onions); another
    /// food's cup would weigh wrong.
    func written(for food: Food, stored: QuantityUnit) -> WrittenUnit? {
        let parts = written.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == stored.rawValue, parts[3] == quantity.trimmed, parts[4] == food.id.uuidString || parts[4] == self.food,
              let size = Decimal(string: parts[2], locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        let unit = parts[1].isEmpty ? nil : CookUnit(rawValue: parts[1])
        guard parts[1].isEmpty || unit != nil else { return nil }
        return WrittenUnit(unit: unit, size: size)
    }
}
