import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// The plate: its items as typed, added up as they change, and logged all at once.
extension WebDiaryController {
    /// The plate's items as typed: food rows (an empty amount is the usual portion), the chosen
    /// meal and the quick add.
    private func plateItems(_ page: AddToDiaryPage, rows: MealFormPage, owner: Owner, adopting: Bool) async throws -> [EntryInput] {
        var items: [EntryInput] = []
        let adopt: ((String) async throws -> Food?)? = adopting ? { name in try await owner.adoptCatalogFood(named: name) } : nil
        let draft = try await rows.draft(foods: owner.foods, usualPortions: true, adopt: adopt)
        items += draft.ingredients.map { EntryInput(foodId: $0.foodId, quantity: $0.quantity, unit: $0.unit.rawValue) }
        if let mealID = UUID(uuidString: page.mealID) {
            items.append(EntryInput(mealId: mealID, servings: Decimal(typed: page.mealServings)))
        }
        // Anything typed in the quick add is a quick add: ForkcastCore decides what it needs (its
        // calories), so macros or a name typed without them are refused, not dropped.
        let keys = ["energyKcal", "protein", "carbohydrates", "fat"]
        var numbers = TypedNumbers()
        let values = Dictionary(uniqueKeysWithValues: keys.map { ($0, numbers.read(page.quick[$0], field: "quickAdd.\($0)", example: "150")) })
        // Saving refuses a quick add that is not numbers yet; adding up (still typing) leaves it out.
        if adopting { try numbers.check() }
        if numbers.problems.isEmpty, (keys + ["name"]).contains(where: { !(page.quick[$0] ?? "").trimmed.isEmpty }) {
            items.append(EntryInput(quickAdd: .init(energyKcal: values["energyKcal"]!, protein: values["protein"]!,
                                                         carbohydrates: values["carbohydrates"]!, fat: values["fat"]!),
                                         name: page.quick["name"]))
        }
        return items
    }

    /// Logs the plate: every filled food row, the chosen meal and the quick add, all at once. With
    /// `X-Fragment: plate-totals` it only adds the plate up (the live totals), saving nothing.
    @Sendable func add(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        let rowsPage = MealFormPage(form: form, mealID: nil)
        let types = try await req.owner.mealTypes.catalog(now: req.now)
        // A day that is not one is refused below, with the plate shown again (on today).
        let sentDay = Result { () throws(ValidationError) in try Self.day(form["date"]) }
        let date = (try? sentDay.get()) ?? nil ?? user.today(now: req.now)
        let loggedAt = DiaryValidation.loggedAt(for: date, today: user.today(now: req.now), now: req.now, in: user.zone)
        // No meal type sent: the one its time suggests, as for the API (ForkcastCore's MealTypeCatalog).
        var page = AddToDiaryPage(date: date, mealType: form["mealType"].flatMap(types.normalized) ?? form["mealType"]
                                      ?? types.suggested(at: loggedAt, in: user.zone).token, mealTypes: types)
        page.rows = rowsPage.rows
        page.mealID = form["mealId"] ?? ""
        page.mealServings = form["mealServings"] ?? "1"
        for key in ["name", "energyKcal", "protein", "carbohydrates", "fat"] { page.quick[key] = form["quick.\(key)"] ?? "" }
        page.quick["note"] = form["note"] ?? ""
        if req.fragment("plate-totals") {
            // Rows still being typed are left out; the totals are what would be logged now.
            let items = (try? await plateItems(page, rows: rowsPage, owner: try req.owner, adopting: false)) ?? []
            let entries = try await req.owner.logEntry.preview(LogEntry.Plate(loggedAt: loggedAt, mealType: page.mealType, items: items))
            // Only what the items say: a macro no item knows is unknown, not 0 g.
            page.totals = entries.isEmpty ? nil : entries.reduce(Nutrients()) { $0 + $1.nutrients }
            let html: HTML = page.totals.map { HTML("<h3>On the plate (\(entries.count) item\(entries.count == 1 ? "" : "s"))</h3><p class=\"macros\">\(NutritionSummary(nutrients: $0, cost: nil, currency: "").html)</p>") }
                ?? HTML("<p class=\"muted\">The plate's totals show here as you add to it.</p>")
            return html.response()
        }
        do {
            _ = try sentDay.get()
            let confirmed = Set(form.all("confirmedAmount")), filled = page
            let entries: [DiaryEntry]
            do {
                // The catalogue foods its rows name are adopted in the same write as the plate: a
                // refused plate leaves none of them behind.
                entries = try await req.owner.inOneWrite { owner in
                    let items = try await plateItems(filled, rows: rowsPage, owner: owner, adopting: true)
                    do {
                        return try await owner.logEntry.plate(LogEntry.Plate(loggedAt: loggedAt, mealType: filled.mealType, note: filled.quick["note"],
                                                                         items: items), confirming: confirmed)
                    } catch Refusal.largeAmounts(let questions) {
                        // Each question on its row (a meal's and a quick add's at the top), asked once.
                        let foodRows = items.prefix { $0.foodId != nil }.count
                        throw LargeAmounts(questions: questions.map(\.message), errors: ValidationError(questions.map { q in
                            let index = Int(q.field.dropFirst("items[".count).prefix { $0.isNumber }) ?? foodRows
                            return .init(field: index < foodRows ? "ingredients[\(index)].quantity" : "amount", message: q.message)
                        }))
                    }
                }
            } catch let large as LargeAmounts {
                page.largeAmounts = large.questions
                throw large.errors
            }
            req.flash("Logged \(entries.count) item\(entries.count == 1 ? "" : "s") to \(types.name(of: page.mealType)).")
            return req.redirect(to: SiteURL.diary(date: page.date == user.today(now: req.now) ? nil : page.date).path(fragment: "group-\(page.mealType)"), redirectType: .normal)
        } catch let errors as ValidationError {
            page.errors = errors
            try await fillChoices(&page, user: user, req: req)
            return page.render(layout: req.layout("Add to diary", .today, scripts: [SiteURL.script("plate").path])).response(status: .unprocessableEntity)
        }
    }
}

/// A plate's amounts big enough to be slips, asked about on their rows.
private struct LargeAmounts: Error {
    let questions: [String]
    let errors: ValidationError
}
