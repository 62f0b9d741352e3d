import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation

/// Add or edit a food. Errors show next to their field; what was typed is kept.
struct FoodFormPage {
    var foodID: UUID?
    var values: [String: String] = [:]
    var errors = ValidationError([])
    var message: String?

    static let nutrientFields: [(name: String, label: String)] = [
        ("protein", "Protein (g)"), ("carbohydrates", "Carbohydrates (g)"), ("fat", "Fat (g)"),
        ("fiber", "Fibre (g)"), ("sugars", "Sugars (g)"), ("saturatedFat", "Saturated fat (g)"), ("salt", "Salt (g)")]
    /// Cholesterol, sodium, the other minerals and the vitamins, in their units (mg, µg).
    static let microFields: [(name: String, label: String)] = Nutrient.allCases.filter { $0.order >= Nutrient.cholesterol.order }
        .map { ($0.rawValue, "\($0.name) (\($0.unit.rawValue))") }

    init(food: Food? = nil) {
        foodID = food?.id
        guard let food else { values = ["basis": "g", "energyUnit": "kcal", "pricePer": "package", "icon": "generic"]; return }
        var v: [String: String] = ["name": food.name, "brand": food.brand ?? "", "barcode": food.barcode?.digits ?? "",
                                   "basis": food.basis.rawValue, "energy": food.per100.energyKcal.map { "\($0.rounded(2))" } ?? "",
                                   "energyUnit": "kcal", "portion": food.portion ?? "", "icon": food.icon.rawValue,
                                   "servingSize": food.serving.map { "\($0.size)" } ?? "", "servingLabel": food.serving?.label ?? "",
                                   "priceAmount": food.price.map { "\($0.amount)" } ?? "", "pricePer": food.price?.per.rawValue ?? "package",
                                   "pricePackageSize": food.price?.packageSize.map { "\($0)" } ?? "", "source": food.source.rawValue]
        for field in food.per100.fields where field.name != "energyKcal" { v[field.name] = field.value.map { "\($0)" } ?? "" }
        values = v
    }

    init(form: FormData, foodID: UUID?) {
        self.foodID = foodID
        for name in ["name", "brand", "barcode", "basis", "energy", "energyUnit", "portion", "icon", "servingSize", "servingLabel",
                     "priceAmount", "pricePer", "pricePackageSize", "source"] + Self.nutrientFields.map(\.name) + Self.microFields.map(\.name) {
            values[name] = form[name] ?? ""
        }
    }

    /// Choices whose problem has no field of its own to show at (a hidden field, radio buttons, a
    /// list of two): said above the form.
    static let choicesWithoutAField: Set<String> = ["basis", "icon", "source", "serving.unit"]

    var title: String { foodID == nil ? "Add food" : "Edit food" }

    /// The typed values as a draft; numbers that do not parse are errors on their field.
    func draft() throws(ValidationError) -> FoodDraft {
        var numbers = TypedNumbers()
        func number(_ name: String, field: String) -> Decimal? { numbers.read(values[name], field: field, example: "12.5") }
        let energy = number("energy", field: "per100.energyKcal")
        let inKj = values["energyUnit"] == "kJ"
        var nutrients = Nutrients(energyKcal: inKj ? nil : energy)
        nutrients.protein = number("protein", field: "per100.protein")
        nutrients.carbohydrates = number("carbohydrates", field: "per100.carbohydrates")
        nutrients.fat = number("fat", field: "per100.fat")
        nutrients.fiber = number("fiber", field: "per100.fiber")
        nutrients.sugars = number("sugars", field: "per100.sugars")
        nutrients.saturatedFat = number("saturatedFat", field: "per100.saturatedFat")
        nutrients.salt = number("salt", field: "per100.salt")
        for (name, _) in Self.microFields {
            if let nutrient = Nutrient(rawValue: name) { nutrients[nutrient] = number(name, field: "per100.\(name)") }
        }
        let servingSize = number("servingSize", field: "serving.size")
        let priceAmount = number("priceAmount", field: "price.amount")
        let packageSize = number("pricePackageSize", field: "price.packageSize")
        // The choices (basis, icon, source, price per) are read as the API reads them: one not
        // offered is refused by name, never replaced by a default.
        func choice(_ name: String) -> String? { values[name]?.trimmed.nilIfEmptyString }
        let input = FoodInput(
            name: values["name"] ?? "", brand: values["brand"], barcode: values["barcode"], basis: choice("basis"),
            per100: FoodInput.Per100(nutrients, energyKj: inKj ? energy : nil),
            serving: servingSize.map { FoodInput.ServingInput(size: $0, label: values["servingLabel"]) },
            portion: values["portion"], price: priceAmount.map { FoodInput.PriceInput(amount: $0, per: choice("pricePer"), packageSize: packageSize) },
            icon: choice("icon"), source: choice("source"))
        var problems = numbers.problems
        let draft: FoodDraft
        do { draft = try input.draft() } catch {
            throw ValidationError(problems + ((error as? ValidationError)?.fields ?? [.init(field: "name", message: "\(error)")]))
        }
        guard !problems.isEmpty else { return draft }
        // Report every problem at once: what did not parse, and what the parsed values break.
        do { _ = try draft.validated() } catch {
            problems += error.fields.filter { field in !problems.contains { $0.field == field.field } }
        }
        throw ValidationError(problems)
    }

    private func field(_ name: String, _ label: String, errorKey: String? = nil, type: String = "text", inputmode: String? = nil,
                       required: Bool = false, hint: String? = nil, autocomplete: String? = "off") -> HTML {
        var f = FormField(name: name, label: label, value: values[name], error: errors.message(for: errorKey ?? name), type: type,
                          autocomplete: autocomplete, required: required, hint: hint)
        f.inputMode = inputmode
        return f.render
    }

    private func select(_ name: String, _ label: String, _ options: [(String, String)]) -> HTML {
        let chosen = values[name]
        return """
        <div class="field"><label for="field-\(name)">\(label)</label>
          <select id="field-\(name)" name="\(name)">\(options.map { HTML("<option value=\"\($0.0)\"\(if: $0.0 == chosen, " selected")>\($0.1)</option>") }.joined())</select></div>
        """
    }

    func render(layout: Layout) -> HTML {
        let action = foodID.map { SiteURL.updateFood($0).path } ?? SiteURL.foods().path
        let icons = FoodIcon.allCases.map { icon in
            HTML("""
            <label class="icon-choice"><input type="radio" name="icon" value="\(icon.rawValue)"\(if: values["icon"] == icon.rawValue, " checked")>
            <img src="\(SiteURL.foodIcon(icon).path)" alt="" width="32" height="32"><span>\(icon.label)</span></label>
            """)
        }.joined()
        let macroError = errors.message(for: "per100")
        return layout.render("""
        <section class="card form-card">
          <h1>\(title)</h1>
          <p class="form-error" id="form-message" role="alert"\(if: message == nil && errors.fields.isEmpty, " hidden")>\(message ?? (errors.fields.isEmpty ? "" : "Some fields need fixing: \(errors.fields.count) problem\(errors.fields.count == 1 ? "" : "s") below."))</p>
          \(errors.fields.filter { Self.choicesWithoutAField.contains($0.field) }.map { HTML("<p class=\"field-error\">\($0.message)</p>") }.joined())
          <form id="food-form" method="post" action="\(action)" class="stack" novalidate>
            \(Layout.csrfField(layout.csrf ?? ""))
            <input type="hidden" name="source" value="\(values["source"] ?? "custom")">
            \(field("name", "Name", required: true))
            \(field("brand", "Brand"))
            <div class="field barcode-field">
              \(field("barcode", "Barcode", inputmode: "numeric", hint: "The digits under the stripes (EAN-13, UPC-A or EAN-8)."))
              <div class="barcode-actions">
                <button type="button" class="button small" data-scan hidden>Scan with camera</button>
                <button type="button" class="button small" data-lookup-barcode hidden>Fill in from Open Food Facts</button>
              </div>
              <p class="hint" id="barcode-status" role="status"></p>
              <video id="scanner" class="scanner" hidden playsinline muted aria-label="Camera preview for scanning"></video>
            </div>
            <fieldset class="stack">
              <legend>Nutrition per 100 <span data-basis-label>\(values["basis"] ?? "g")</span></legend>
              \(select("basis", "Measured per", [("g", "100 g (solids)"), ("ml", "100 ml (liquids)")]))
              <div class="grid-2">
                \(field("energy", "Energy", errorKey: "per100.energyKcal", inputmode: "decimal"))
                \(select("energyUnit", "Energy unit", [("kcal", "kcal"), ("kJ", "kJ")]))
                \(Self.nutrientFields.map { field($0.name, $0.label, errorKey: "per100.\($0.name)", inputmode: "decimal") }.joined())
              </div>
              \(macroError.map { HTML("<p class=\"field-error\">\($0)</p>") })
              <details class="micro-fields" id="micro-fields"\(if: Self.microFields.contains { !(values[$0.name] ?? "").isEmpty || errors.message(for: "per100.\($0.name)") != nil }, " open")>
                <summary>Minerals and vitamins</summary>
                <p class="hint">Leave empty what the label does not say: unknown is not zero. Sodium follows from salt when left empty (salt × 400 mg).</p>
                <div class="grid-2">
                  \(Self.microFields.map { field($0.name, $0.label, errorKey: "per100.\($0.name)", inputmode: "decimal") }.joined())
                </div>
              </details>
            </fieldset>
            <fieldset class="stack">
              <legend>Serving and price</legend>
              <div class="grid-2">
                \(field("servingSize", "Serving size (g or ml)", errorKey: "serving.size", inputmode: "decimal"))
                \(field("servingLabel", "Serving name", hint: "e.g. 1 piece, 1 glass"))
                \(field("priceAmount", "Price", errorKey: "price.amount", inputmode: "decimal"))
                \(select("pricePer", "Price is per", [("package", "package"), ("serving", "serving")]))
                \(field("pricePackageSize", "Package size (g or ml)", errorKey: "price.packageSize", inputmode: "decimal"))
              </div>
              \(errors.message(for: "price.per").map { HTML("<p class=\"field-error\">\($0)</p>") })
              \(field("portion", "Portion note", hint: "Anything about portions, e.g. “a handful is about 30 g”."))
            </fieldset>
            <fieldset class="icons-fieldset">
              <legend>Icon</legend>
              <div class="icon-grid">\(icons)</div>
            </fieldset>
            <div class="form-actions">
              <a class="button subtle" href="\(SiteURL.foods().path)">Cancel</a>
              <button class="button primary" type="submit" data-pressable>\(foodID == nil ? "Add food" : "Save changes")</button>
            </div>
          </form>
        </section>
        """)
    }
}
