import ForkcastCore
import ForkcastApp
import Foundation

/// The household's pantry: what goes off soon, every lot by place (the first to go off first),
/// adding a lot, using or changing one, and this month's waste.
struct PantryPage {
    let view: PantryView
    /// The household's foods, by name, for the add form.
    let foods: [Food]
    /// What can be cooked from it now.
    let cookable: [PantryRules.Cookable]
    let currency: String
    let csrf: String
    var message: String?
    /// The lot the message is about (its form opens again); nil: the add form's.
    var failedLot: UUID?

    func render(layout: Layout) -> HTML {
        let soon = view.soon
        let places = PantryLocation.usual + Set(view.lots.map(\.location)).subtracting(PantryLocation.usual).sorted()
        let groups = places.compactMap { place -> HTML? in
            let lots = view.lots.filter { $0.location == place }
            guard !lots.isEmpty else { return nil }
            return HTML("""
            <h3 class="pantry-place">\(place) <span class="muted">· \(lots.count)</span></h3>
            <ul class="pantry-lots">\(lots.map(row).joined())</ul>
            """)
        }.joined()
        let waste = view.waste
        let wasted = [waste.grams > 0 ? ShoppingAmount.text(quantity: waste.grams, unit: "g") : nil,
                      waste.milliliters > 0 ? ShoppingAmount.text(quantity: waste.milliliters, unit: "ml") : nil].compactMap { $0 }
        return layout.render("""
        <div class="page-head"><h1>Pantry</h1><a class="button small" href="\(SiteURL.shopping.path)">Shopping lists</a>
          <p class="muted">\(view.lots.count) lot\(view.lots.count == 1 ? "" : "s") · shared by the household</p></div>
        \(message.map { HTML("<p class=\"form-error\" role=\"alert\" id=\"pantry-message\">\($0)</p>") })
        <div class="pantry-live" data-live>
        \(if: !soon.isEmpty, HTML("""
          <section class="card" aria-labelledby="soon-title" id="pantry-soon">
            <h2 id="soon-title">Use soon</h2>
            <ul class="pantry-soon">\(soon.map { HTML("<li>\(view.name(of: $0)) <span class=\"muted\">\(amount($0)) · \(dateText($0))</span></li>") }.joined())</ul>
          </section>
          """))
          <section class="card" aria-labelledby="lots-title" id="pantry-lots">
            <h2 id="lots-title">In the pantry</h2>
            \(view.lots.isEmpty ? HTML("<p class=\"muted\">Nothing yet: add what you have below.</p>") : groups)
          </section>
          \(cookableCard)
          <section class="card" aria-labelledby="waste-title" id="pantry-waste">
            <h2 id="waste-title">Thrown away since \(view.since.day) \(CalendarDate.monthNames[view.since.month - 1])</h2>
            <p>\(wasted.isEmpty ? "Nothing." : wasted.joined(separator: " and ") + (waste.cost > 0 ? ", about \(Currency.format(waste.cost, currency))" : ""))</p>
          </section>
        </div>
        \(addForm)
        """)
    }

    private func amount(_ lot: PantryItem) -> String { Self.amount(lot) }
    private func dateText(_ lot: PantryItem) -> String { Self.dateText(lot, today: view.today) }

    static func amount(_ lot: PantryItem) -> String {
        ShoppingAmount.text(quantity: lot.amount, unit: lot.unit.rawValue) ?? ""
    }

    /// "best before 5 December", "goes off tomorrow", "went off 1 December".
    static func dateText(_ lot: PantryItem, today: CalendarDate) -> String {
        guard let date = lot.bestBefore else { return "no date" }
        let days = today.days(until: date)
        let day = "\(date.day) \(CalendarDate.monthNames[date.month - 1])\(date.year == today.year ? "" : " \(date.year)")"
        switch days {
        case ..<0: return "went off \(day)"
        case 0: return "goes off today"
        case 1: return "goes off tomorrow"
        default: return "best before \(day)"
        }
    }

    private func row(_ lot: PantryItem) -> HTML {
        let id = lot.id.uuidString
        let unit = lot.unit.rawValue
        return HTML("""
        <li class="pantry-lot" id="lot-\(id)">
          <details\(if: failedLot == lot.id, " open")>
            <summary class="pantry-row"><span class="pantry-name">\(view.name(of: lot))</span>
              <span class="pantry-amount">\(amount(lot))</span>
              <span class="muted pantry-date\(if: lot.useSoon(today: view.today), " soon")">\(dateText(lot))\(if: lot.opened, " · opened")</span></summary>
            <form method="post" action="\(SiteURL.usePantryItem(lot.id).path)" class="filter-row pantry-use">
              \(Layout.csrfField(csrf))
              <div class="field"><label for="use-\(id)">Take out (\(unit))</label>
                <input id="use-\(id)" name="amount" inputmode="decimal" size="6" required value="\(lot.amount.description)"></div>
              <input type="hidden" name="unit" value="\(unit)">
              <button class="button" type="submit" name="reason" value="eaten" data-pressable>Used</button>
              <button class="button danger" type="submit" name="reason" value="discarded" data-pressable>Thrown away</button>
            </form>
            <form method="post" action="\(SiteURL.updatePantryItem(lot.id).path)" class="filter-row pantry-edit">
              \(Layout.csrfField(csrf))
              <input type="hidden" name="foodId" value="\(lot.foodId.uuidString)">
              <div class="field"><label for="amount-\(id)">Amount (\(unit))</label>
                <input id="amount-\(id)" name="amount" inputmode="decimal" size="6" required value="\(lot.amount.description)"></div>
              <input type="hidden" name="unit" value="\(unit)">
              \(placeField("location-\(id)", lot.location))
              <div class="field"><label for="best-\(id)">Best before</label>
                <input id="best-\(id)" type="date" name="bestBefore" value="\(lot.bestBefore?.iso ?? "")"></div>
              \(Self.openedBox("opened-\(id)", lot.opened))
              <button class="button" type="submit" data-pressable>Save</button>
            </form>
            <form method="post" action="\(SiteURL.deletePantryItem(lot.id).path)" class="inline" data-confirm="Remove this lot? Nothing is counted as used or wasted.">
              \(Layout.csrfField(csrf))<button class="button small danger" type="submit" data-pressable>Remove (entered by mistake)</button></form>
          </details>
        </li>
        """)
    }

    /// Every lot's form has an "opened" box: each in a group of its own, named, for screen readers.
    static func openedBox(_ fieldID: String, _ checked: Bool) -> HTML {
        HTML("""
        <fieldset class="check-field"><legend class="visually-hidden">Opened</legend>
          <label for="\(fieldID)"><input id="\(fieldID)" type="checkbox" name="opened" value="1"\(if: checked, " checked")> Opened</label></fieldset>
        """)
    }

    private func placeField(_ fieldID: String, _ value: String) -> HTML {
        HTML("""
        <div class="field"><label for="\(fieldID)">Where</label>
          <input id="\(fieldID)" name="location" list="pantry-places" maxlength="\(PantryLocation.maximumLength)" size="10" value="\(value)"></div>
        """)
    }

    private var cookableCard: HTML {
        guard !cookable.isEmpty else { return .empty }
        let rows = cookable.prefix(10).map { found in
            HTML("""
            <li><a class="list-row" href="\(SiteURL.recipe(found.meal.id).path)"><span class="list-name">\(found.meal.description)</span>
              <span class="muted">\(found.missing.map { "all but \($0)" } ?? "everything is here")</span></a></li>
            """)
        }.joined()
        return HTML("""
        <section class="card" aria-labelledby="cookable-title" id="pantry-cookable">
          <h2 id="cookable-title">What can I cook now</h2>
          <ul class="shopping-lists">\(rows)</ul>
        </section>
        """)
    }

    private var addForm: HTML {
        let places = PantryLocation.usual + Set(view.lots.map(\.location)).subtracting(PantryLocation.usual).sorted()
        let options = foods.map { HTML("<option value=\"\($0.id.uuidString)\">\($0.name)\($0.brand.map { " (\($0))" } ?? "")</option>") }.joined()
        return HTML("""
        <section class="card" aria-labelledby="add-lot-title">
          <h2 id="add-lot-title">Add to the pantry</h2>
          \(if: failedLot == nil && message != nil, HTML("<p class=\"form-error\" role=\"alert\">\(message ?? "")</p>"))
          \(foods.isEmpty ? HTML("<p class=\"muted\">Add a food first (Foods tab); the pantry holds the household's foods.</p>") : HTML("""
          <form method="post" action="\(SiteURL.addPantryItem.path)" class="filter-row pantry-add">
            \(Layout.csrfField(csrf))
            <div class="field grow"><label for="lot-food">Food</label><select id="lot-food" name="foodId" required>\(options)</select></div>
            <div class="field"><label for="lot-amount">How much</label><input id="lot-amount" name="amount" inputmode="decimal" size="6" required></div>
            <div class="field"><label for="lot-unit">Unit</label><select id="lot-unit" name="unit">
              <option value="">g or ml</option><option value="piece">pieces</option><option value="serving">servings</option></select></div>
            \(placeField("lot-location", PantryLocation.cupboard))
            <div class="field"><label for="lot-best">Best before <span class="muted">(optional)</span></label>
              <input id="lot-best" type="date" name="bestBefore"></div>
            \(Self.openedBox("lot-opened", false))
            <button class="button primary" type="submit" data-pressable>Add</button>
          </form>
          """))
          <form method="post" action="\(SiteURL.addPantryBarcode.path)" class="filter-row pantry-add" aria-label="Add a pack by its barcode">
            \(Layout.csrfField(csrf))
            <div class="field grow"><label for="pack-barcode">Or a pack by its barcode</label>
              <input id="pack-barcode" name="barcode" inputmode="numeric" autocomplete="off" pattern="[0-9 ]{8,16}" required></div>
            <div class="field"><label for="pack-amount">How much <span class="muted">(blank: the pack)</span></label>
              <input id="pack-amount" name="amount" inputmode="decimal" size="6"></div>
            \(placeField("pack-location", PantryLocation.cupboard))
            <div class="field"><label for="pack-best">Best before <span class="muted">(optional)</span></label>
              <input id="pack-best" type="date" name="bestBefore"></div>
            <button class="button" type="submit" data-pressable>Add the pack</button>
          </form>
          <datalist id="pantry-places">\(places.map { HTML("<option value=\"\($0)\">") }.joined())</datalist>
          <p class="hint">Pieces and servings are kept in grams or millilitres through the food's serving size. A barcode finds the household's food, or brings the product from Open Food Facts with the pack size on its label.</p>
        </section>
        """)
    }
}

/// What cooking took out of the pantry, said in one sentence (a flash after "We ate this").
enum PantryTaking {
    static func summary(_ cooked: CookFromPantry.Cooked) -> String? {
        guard !cooked.alreadyCooked else { return nil }
        let taken = cooked.lines.filter { $0.taken > 0 }
        let short = cooked.lines.filter { $0.short > 0 && $0.taken > 0 }
        guard !taken.isEmpty else { return nil }
        let amount = { (value: Decimal, line: CookFromPantry.Line) in ShoppingAmount.text(quantity: value, unit: line.unit.rawValue) ?? "" }
        var text = "Taken from the pantry: " + taken.map { "\(amount($0.taken, $0)) \($0.name)" }.joined(separator: ", ") + "."
        if !short.isEmpty { text += " Short: " + short.map { "\(amount($0.short, $0)) \($0.name)" }.joined(separator: ", ") + "." }
        return text
    }
}
