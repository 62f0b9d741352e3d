import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// The home page (diary dashboard), adding to the diary, editing entries, logging planned and copied meals.
struct WebDiaryController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.diary(), use: dashboard)
        routes.get(SiteURL.diaryAdd(), use: addForm)
        routes.post(SiteURL.diaryAdd(), use: add)
        routes.post(SiteURL.deleteEntry(SiteURL.anyID), use: deleteEntry)
        routes.get(SiteURL.editEntry(SiteURL.anyID), use: editEntry)
        routes.post(SiteURL.updateEntry(SiteURL.anyID), use: updateEntry)
        routes.post(SiteURL.logPlanned, use: logPlanned)
        routes.post(SiteURL.diaryCopy, use: copyMeal)
    }

    @Sendable func dashboard(req: Request) async throws -> Response {
        let user = try req.webUser
        let date = try req.queryParameters.date("date") ?? user.today(now: req.now)
        let cursor = try await req.changesCursor()
        // Entries deleted on the open page while their Undo is offered (offline-deletes.js).
        let hiding = Set((req.queryParameters.string("hidden") ?? "").split(separator: ",").prefix(50).compactMap { UUID(uuidString: String($0)) })
        let model = try await req.owner.dashboard(date: date, range: req.queryParameters.string("range") ?? "week", hiding: hiding)
        var layout = req.layout("Today", .today, scripts: [SiteURL.script("capture").path], cursor: cursor)
        layout.days = (date, date, date.longText)
        return DashboardPage(model: model, csrf: CSRF.token(for: req)).render(layout: layout).response()
    }

    @Sendable func addForm(req: Request) async throws -> Response {
        let user = try req.webUser
        let query = req.queryParameters
        let types = try await req.owner.mealTypes.catalog(now: req.now)
        var page = AddToDiaryPage(date: try query.date("date") ?? user.today(now: req.now),
                                  mealType: query.string("mealType").flatMap(types.normalized) ?? types.suggested(at: req.now, in: user.zone).token,
                                  mealTypes: types)
        // Another meal type chosen on the plate: its usual foods alone.
        if req.fragment("usual-foods") {
            return AddToDiaryPage.usualChips(try await usualFoods(for: page.mealType, req: req)).response()
        }
        // From a meal's card (Meals › Log): that meal on the plate, one serving.
        if let meal = query.string("mealId").flatMap(UUID.init(uuidString:)) { page.mealID = meal.uuidString }
        try await fillChoices(&page, user: user, req: req)
        return page.render(layout: req.layout("Add to diary", .today, scripts: [SiteURL.script("plate").path])).response()
    }

    /// The usual foods offered for a meal type, in the order ``UsualFoods`` ranks them.
    /// Each with the amount it was last logged in.
    private func usualFoods(for mealType: String, req: Request) async throws -> [AddToDiaryPage.UsualFood] {
        let ids = try await req.owner.diary.entries.usualFoods(for: mealType, now: req.now, limit: AddToDiaryPage.usualFoodsShown)
        let found = try await req.owner.foods.find(ids: ids)
        let last = try await req.owner.diary.entries.lastPortions(of: ids, now: req.now)
        return ids.compactMap { id in
            found[id].map { AddToDiaryPage.UsualFood(food: $0, portion: last[id] ?? $0.usualAmount) }
        }
    }

    /// The usual foods, the library's meals and the meals of the last week to copy.
    func fillChoices(_ page: inout AddToDiaryPage, user: UserModel, req: Request) async throws {
        page.today = user.today(now: req.now)
        let diary = try req.owner.diary.entries
        page.usual = try await usualFoods(for: page.mealType, req: req)
        page.meals = try await libraryMeals(req, around: page.date)
        let week = try await diary.entries(from: page.date.adding(days: -7), to: page.date)
        let types = page.mealTypes
        page.recent = Dictionary(grouping: week.filter(\.isCounted), by: { "\($0.date.iso)|\($0.mealType)" }).values.compactMap { entries in
            guard let first = entries.first, let type = types.resolve(first.mealType) else { return nil }
            return (first.date, type, entries.count, DiaryDay.total(of: entries).energyKcal ?? 0)
        }.sorted { ($0.date, -$0.mealType.position) > ($1.date, -$1.mealType.position) }
    }

    @Sendable func deleteEntry(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "diary entry")
        guard let entry = try await req.owner.deleteEntry(id) else { throw AppError.notFound("That entry was already deleted.") }
        // Today's Undo has said so already (and sends this when its seconds are up, or as the page is left).
        if req.fragment("delete") { return Response(status: .noContent) }
        req.flash("Deleted “\(entry.name)”.")
        return req.redirect(to: SiteURL.diary(date: entry.date == user.today(now: req.now) ? nil : entry.date).path(fragment: "group-\(entry.mealType)"), redirectType: .normal)
    }

    /// Moving an entry to another meal type or day, or changing its note.
    @Sendable func editEntry(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "diary entry")
        guard let entry = try await req.owner.diary.entries.find(id) else { throw AppError.notFound("That entry does not exist (any more).") }
        var page = EditEntryPage(entry: entry, zone: user.zone, mealTypes: try await req.owner.mealTypes.catalog(now: req.now))
        if entry.kind == .photo { page.meals = try await libraryMeals(req, around: entry.date) }
        return page.render(layout: req.layout("Edit entry", .today, scripts: [SiteURL.script("entry").path])).response()
    }

    /// The meals a plate or a photo entry may be counted as (the library, up to 500).
    private func libraryMeals(_ req: Request, around date: CalendarDate) async throws -> [Meal] {
        try await req.owner.meals.list(filter: MealFilter(), page: try Paging(per: 500), plannedIn: WeekWindow(start: date)).items.map(\.meal)
    }

    @Sendable func updateEntry(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "diary entry")
        let service = try req.owner.diary
        guard let existing = try await service.entries.find(id) else { throw AppError.notFound("That entry does not exist (any more).") }
        let form = FormData(req)
        let types = try await service.types()
        var page = EditEntryPage(entry: existing, zone: user.zone, mealTypes: types)
        for key in ["quantity", "unit", "servings", "quick.name", "quick.energyKcal", "quick.protein", "quick.carbohydrates", "quick.fat",
                    "mealType", "date", "time", "note", "mealId", "ingredientFood", "ingredientFoodId", "ingredientQuantity", "ingredientUnit"] {
            page.typed[key] = form[key]
        }
        if existing.kind == .photo { page.meals = try await libraryMeals(req, around: existing.date) }
        // The same edit as PUT /api/v1/diary/entries/{id}: a changed amount or quick add is sent
        // with its food or meal (recomputed); otherwise only meal type, time and note change.
        var input = EntryInput(mealType: form["mealType"], note: form["note"] ?? "")
        var problems: [ValidationError.Field] = []
        var foodRow = false
        var numbers = TypedNumbers()
        func number(_ key: String, field: String) -> Decimal? { numbers.read(form[key], field: field) }
        switch existing.kind {
        case let .food(foodId, quantity, unit):
            let newQuantity = number("quantity", field: "quantity") ?? quantity
            let newUnit = form["unit"] ?? unit.rawValue
            if newQuantity != quantity || newUnit != unit.rawValue {
                input.foodId = foodId; input.quantity = newQuantity; input.unit = newUnit
            }
        case let .meal(mealId, servings):
            let newServings = number("servings", field: "servings") ?? servings
            if newServings != servings { input.mealId = mealId; input.servings = newServings }
        case .photo where !(form["ingredientFood"]?.trimmed ?? "").isEmpty:
            // Counted as a food: the same row as the plate's (an empty amount is the usual portion),
            // read in the edit's own write below, where a catalogue food it names is made the
            // person's; the live totals read it without making it theirs.
            foodRow = true
            // Read here only for the live totals: a save reads it once, in its write.
            if req.fragment("entry-totals"),
               let first = try? await MealFormPage(form: form, mealID: nil).draft(foods: try req.owner.foods, usualPortions: true, adopt: nil).ingredients.first {
                input.foodId = first.foodId; input.quantity = first.quantity; input.unit = first.unit.rawValue
            }
        case .photo where UUID(uuidString: form["mealId"] ?? "") != nil:
            input.mealId = UUID(uuidString: form["mealId"]!)
            input.servings = number("servings", field: "servings") ?? DiaryEntry.defaultServings
        case .quickAdd, .photo:
            if existing.kind == .photo, (form["quick.energyKcal"]?.trimmed ?? "").isEmpty {
                // Still a photo: only its name, meal type, time and note change.
                if let name = form["quick.name"]?.trimmed.nilIfEmptyString, name != existing.name { input.name = name }
                break
            }
            let values = Nutrients(energyKcal: number("quick.energyKcal", field: "quickAdd.energyKcal"), protein: number("quick.protein", field: "quickAdd.protein"),
                                                  carbohydrates: number("quick.carbohydrates", field: "quickAdd.carbohydrates"), fat: number("quick.fat", field: "quickAdd.fat"))
            let name = form["quick.name"]?.trimmed.nilIfEmptyString ?? existing.name
            let n = existing.nutrients
            if values.energyKcal != n.energyKcal || values.protein != n.protein || values.carbohydrates != n.carbohydrates || values.fat != n.fat || name != existing.name {
                input.quickAdd = values; input.name = name
            }
        }
        if req.fragment("entry-totals") {
            // What the new amount comes to, before saving (the plate's preview, nothing stored).
            let amount = input.foodId != nil || input.mealId != nil || input.quickAdd != nil
            let preview = amount && problems.isEmpty && numbers.problems.isEmpty
                ? try await req.owner.logEntry.preview(LogEntry.Plate(mealType: existing.mealType, items: [EntryInput(
                    foodId: input.foodId, quantity: input.quantity, unit: input.unit, mealId: input.mealId, servings: input.servings,
                    quickAdd: input.quickAdd)])).first : nil
            return EditEntryPage.totals(preview?.nutrients, changed: amount).response()
        }
        if let dateText = form["date"] {
            if let date = CalendarDate(iso: dateText), let time = ClockTime(form["time"] ?? "12:00") {
                // The form always sends the day and time it shows (to the minute): left as shown,
                // the entry keeps its exact instant, so changing only the meal type is not a time edit.
                let shown = Calendar(identifier: .gregorian).dateComponents(in: user.zone, from: existing.loggedAt)
                if date != existing.date || time.hour != shown.hour || time.minute != shown.minute {
                    input.loggedAt = date.instant(hour: time.hour, minute: time.minute, in: user.zone)
                }
            } else {
                problems.append(.init(field: "date", message: "Give the day as YYYY-MM-DD and the time as HH:MM (00:00 to 23:59)."))
            }
        }
        problems = numbers.problems + problems
        let entry: DiaryEntry
        do {
            guard problems.isEmpty else { throw ValidationError(problems) }
            let (edit, confirmMove, row) = (input, form["confirmMove"] == "1", foodRow ? MealFormPage(form: form, mealID: nil) : nil)
            let edited = try await req.owner.inOneWrite { owner in
                var edit = edit
                if let row, let first = try await row.draft(foods: owner.foods, usualPortions: true,
                                                            adopt: { name in try await owner.adoptCatalogFood(named: name) }).ingredients.first {
                    edit.foodId = first.foodId; edit.quantity = first.quantity; edit.unit = first.unit.rawValue
                }
                return try await owner.editEntry(id, with: edit, confirmMove: confirmMove)
            }
            guard let edited else { throw AppError.notFound("That entry does not exist (any more).") }
            entry = edited
        } catch Refusal.occasionChange(let from, let to) {
            page.confirmMove = (from, to)
            return page.render(layout: req.layout("Move entry?", .today, scripts: [SiteURL.script("entry").path])).response(status: .conflict)
        } catch let errors as ValidationError {
            page.errors = errors
            return page.render(layout: req.layout("Edit entry", .today, scripts: [SiteURL.script("entry").path])).response(status: .unprocessableEntity)
        } catch Refusal.missingReference(_, let detail) {
            page.errors = ValidationError(field: "food", detail + " The amount cannot be recomputed; delete the entry and log it again.")
            return page.render(layout: req.layout("Edit entry", .today)).response(status: .unprocessableEntity)
        }
        req.flash("Saved “\(entry.name)” (\(types.name(of: entry.mealType)), \(entry.date.weekday.name)).")
        return req.redirect(to: SiteURL.diary(date: entry.date == user.today(now: req.now) ? nil : entry.date).path(fragment: "group-\(entry.mealType)"), redirectType: .normal)
    }

    /// One tap on the planner: one serving of the planned meal, logged now (or at noon of its day).
    @Sendable func logPlanned(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = FormData(req)
        let service = try req.owner.diary
        guard let id = form["assignmentId"].flatMap(UUID.init(uuidString:)),
              let entry = try await req.owner.logPlanned(id, mealType: form["mealType"]) else {
            throw AppError.notFound("That planned meal no longer exists.")
        }
        req.flash("Logged “\(entry.name)” to \(try await service.types().name(of: entry.mealType)) on \(entry.date.weekday.name).")
        // Back to Today opens at the meal it went to, with its confirmation there.
        let back = form["back"].map(WebAuthController.safeNext) ?? SiteURL.plan(start: nil).path
        return req.redirect(to: back.hasPrefix(SiteURL.diary().path) && !back.contains("#") ? back + "#group-\(entry.mealType)" : back,
                            redirectType: .normal)
    }

    /// The form's `date`: nil when none was sent (today); a ValidationError when it is not a day
    /// (2026-02-30, 2026-1-1): a day typed wrong is refused, never logged as today instead.
    static func day(_ sent: String?) throws(ValidationError) -> CalendarDate? {
        guard let text = sent?.trimmed.nilIfEmptyString else { return nil }
        guard let date = CalendarDate(iso: text) else {
            throw ValidationError(field: "date", "Give the day as YYYY-MM-DD, a day that exists; got \(text.prefix(40)).")
        }
        return date
    }

    /// "Same as yesterday" and the plate's "copy a meal": `from` is "YYYY-MM-DD|mealType".
    @Sendable func copyMeal(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        let source = (form["from"] ?? "").split(separator: "|", maxSplits: 1).map(String.init)
        guard source.count == 2, let from = CalendarDate(iso: source[0]) else { throw AppError.badRequest("Choose the meal to copy.") }
        let date = try Self.day(form["date"]) ?? user.today(now: req.now)
        let mealType = form["mealType"] ?? source[1]
        let service = try req.owner.diary
        let only = form["only"].map { Set($0.split(separator: ",").compactMap { UUID(uuidString: String($0)) }) }
        let entries = try await req.owner.logEntry.copied(from: from, mealType: source[1], to: date, as: mealType, only: only)
        let target = entries.first?.mealType ?? mealType
        req.flash("Logged \(entries.count) item\(entries.count == 1 ? "" : "s") to \(try await service.types().name(of: target)), as on \(PlannerPage.longDate(from)).")
        return req.redirect(to: SiteURL.diary(date: date == user.today(now: req.now) ? nil : date).path(fragment: "group-\(target)"), redirectType: .normal)
    }
}
