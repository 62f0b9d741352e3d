import Fluent
import ForkcastCore
import Vapor

/// The home page (diary dashboard), adding to the diary, and the goals page.
struct WebDiaryController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.diary(), use: dashboard)
        routes.get(SiteURL.diaryAdd(), use: addForm)
        routes.post(SiteURL.diaryAdd(), use: add)
        routes.post(SiteURL.deleteEntry(SiteURL.anyID), use: deleteEntry)
        routes.get(SiteURL.editEntry(SiteURL.anyID), use: editEntry)
        routes.post(SiteURL.updateEntry(SiteURL.anyID), use: updateEntry)
        routes.post(SiteURL.logPlanned, use: logPlanned)
        routes.get(SiteURL.goals, use: goalsPage)
        routes.post(SiteURL.goalsProfile, use: saveProfile)
        routes.post(SiteURL.goalsManual, use: saveManual)
        routes.post(SiteURL.goalsWeights, use: addWeight)
        routes.on(.POST, SiteURL.goalsImport(csrf: nil), body: .stream, use: importHealth)
    }

    @Sendable func dashboard(req: Request) async throws -> Response {
        let user = try req.webUser
        let date = try req.queryParameters.date("date") ?? user.today(now: req.now)
        let model = try await DashboardPage.model(service: try req.owner.diaryService, date: date,
                                                  range: req.queryParameters.string("range") ?? "week", currency: user.currency)
        return DashboardPage(model: model, csrf: CSRF.token(for: req)).render(layout: req.layout("Today", .today)).response()
    }

    @Sendable func addForm(req: Request) async throws -> Response {
        let user = try req.webUser
        let query = req.queryParameters
        let hour = Calendar(identifier: .gregorian).dateComponents(in: user.zone, from: req.now).hour ?? 12
        var page = AddToDiaryPage(date: try query.date("date") ?? user.today(now: req.now),
                                  mealType: query.string("mealType").flatMap { MealType.named($0)?.key } ?? MealType.suggested(hour: hour).key)
        try await fillChoices(&page, user: user, req: req)
        return page.render(layout: req.layout("Add to diary", .today, scripts: [SiteURL.script("meal-form").path])).response()
    }

    private func fillChoices(_ page: inout AddToDiaryPage, user: UserModel, req: Request) async throws {
        page.foods = try await req.owner.foods.list(query: nil, page: try Paging(per: 200)).items
        page.meals = try await req.owner.meals.list(filter: MealFilter(), page: try Paging(per: 500), plannedIn: WeekWindow(start: page.date)).items.map(\.meal)
    }

    /// Logs the plate: every filled food row, the chosen meal and the quick add, all at once.
    @Sendable func add(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        let rowsPage = MealFormPage(form: form, mealID: nil)
        var page = AddToDiaryPage(date: form["date"].flatMap(CalendarDate.init(iso:)) ?? user.today(now: req.now), mealType: form["mealType"] ?? "snack")
        page.rows = rowsPage.rows
        page.mealID = form["mealId"] ?? ""
        page.mealServings = form["mealServings"] ?? "1"
        for key in ["name", "energyKcal", "protein", "carbohydrates", "fat"] { page.quick[key] = form["quick.\(key)"] ?? "" }
        page.quick["note"] = form["note"] ?? ""
        let service = try req.owner.diaryService
        do {
            var items: [DiaryEntryInput] = []
            let draft = try await rowsPage.draft(foods: try req.owner.foods)
            items += draft.ingredients.map { DiaryEntryInput(foodId: $0.foodId, quantity: $0.quantity, unit: $0.unit.rawValue) }
            if let mealID = UUID(uuidString: page.mealID) {
                items.append(DiaryEntryInput(mealId: mealID, servings: Decimal(typed: page.mealServings) ?? 1))
            }
            func number(_ key: String) -> Decimal? { Decimal(typed: page.quick[key] ?? "") }
            if let kcal = number("energyKcal") {
                items.append(DiaryEntryInput(quickAdd: .init(energyKcal: kcal, protein: number("protein"), carbohydrates: number("carbohydrates"), fat: number("fat")),
                                             name: page.quick["name"]))
            }
            let loggedAt = DiaryValidation.loggedAt(for: page.date, today: user.today(now: req.now), now: req.now, in: user.zone)
            let entries = try await service.logPlate(PlateInput(loggedAt: loggedAt, mealType: page.mealType, note: page.quick["note"], items: items),
                                                     ids: { req.dependencies.uuid() })
            req.flash("Logged \(entries.count) item\(entries.count == 1 ? "" : "s") to \(MealType.named(page.mealType)?.name ?? page.mealType).")
            return req.redirect(to: SiteURL.diary(date: page.date).path(fragment: "group-\(page.mealType)"), redirectType: .normal)
        } catch let errors as ValidationError {
            page.errors = errors
            try await fillChoices(&page, user: user, req: req)
            return page.render(layout: req.layout("Add to diary", .today, scripts: [SiteURL.script("meal-form").path])).response(status: .unprocessableEntity)
        }
    }

    @Sendable func deleteEntry(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "diary entry")
        let diary = try req.owner.diary
        guard let entry = try await diary.find(id), try await diary.delete(id) else { throw AppError.notFound("That entry was already deleted.") }
        req.flash("Deleted “\(entry.name)”.")
        return req.redirect(to: SiteURL.diary(date: entry.date).path, redirectType: .normal)
    }

    /// Moving an entry to another meal type or day, or changing its note.
    @Sendable func editEntry(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "diary entry")
        guard let entry = try await req.owner.diary.find(id) else { throw AppError.notFound("That entry does not exist (any more).") }
        return EditEntryPage(entry: entry, zone: user.zone).render(layout: req.layout("Edit entry", .today)).response()
    }

    @Sendable func updateEntry(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "diary entry")
        let service = try req.owner.diaryService
        guard let existing = try await service.diary.find(id) else { throw AppError.notFound("That entry does not exist (any more).") }
        let form = FormData(req)
        var page = EditEntryPage(entry: existing, zone: user.zone)
        // The same edit as PUT /api/v1/diary/entries/{id}: meal type, time and note.
        var input = DiaryEntryInput(mealType: form["mealType"], note: form["note"] ?? "")
        var problems: [ValidationError.Field] = []
        if let dateText = form["date"] {
            if let date = CalendarDate(iso: dateText), let time = ClockTime(form["time"] ?? "12:00") {
                input.loggedAt = date.instant(hour: time.hour, minute: time.minute, in: user.zone)
            } else {
                problems.append(.init(field: "date", message: "Give the day as YYYY-MM-DD and the time as HH:MM (00:00 to 23:59)."))
            }
        }
        let entry: DiaryEntry
        do {
            guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
            guard let edited = try await service.edit(id, with: input) else { throw AppError.notFound("That entry does not exist (any more).") }
            entry = edited
        } catch AppError.validation(let errors) {
            page.errors = errors
            return page.render(layout: req.layout("Edit entry", .today)).response(status: .unprocessableEntity)
        }
        req.flash("Moved “\(entry.name)” to \(MealType.named(entry.mealType)?.name ?? entry.mealType) on \(entry.date.weekday.name).")
        return req.redirect(to: SiteURL.diary(date: entry.date).path(fragment: "group-\(entry.mealType)"), redirectType: .normal)
    }

    /// One tap on the planner: one serving of the planned meal, logged now (or at noon of its day).
    @Sendable func logPlanned(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        let service = try req.owner.diaryService
        guard let id = form["assignmentId"].flatMap(UUID.init(uuidString:)),
              let entry = try await service.logPlanned(id, id: req.dependencies.uuid()) else {
            throw AppError.notFound("That planned meal no longer exists.")
        }
        req.flash("Logged “\(entry.name)” to \(MealType.named(entry.mealType)?.name ?? entry.mealType) on \(entry.date.weekday.name).")
        return req.redirect(to: form["back"].map(WebAuthController.safeNext) ?? SiteURL.plan(start: nil).path, redirectType: .normal)
    }

    @Sendable func goalsPage(req: Request) async throws -> Response {
        try await renderGoals(req: req, errors: ValidationError([]), message: nil, status: .ok)
    }

    private func renderGoals(req: Request, errors: ValidationError, message: String?, status: HTTPStatus) async throws -> Response {
        let user = try req.webUser
        let body = try req.owner.body
        let (goals, calculation) = try await body.goals(today: user.today(now: req.now))
        let page = GoalsPage(goals: goals, calculation: calculation, profile: try await body.profile(), weights: try await body.weights(page: Paging(page: 1, per: 8)).items.reversed(), zone: user.zone,
                             errors: errors, message: message)
        return page.render(layout: req.layout("Goals", .today)).response(status: status)
    }

    @Sendable func saveProfile(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        func number(_ key: String) -> Decimal? { form[key].flatMap { Decimal(typed: $0) } }
        let imperial = number("heightFt") != nil || number("weightLb") != nil
        guard let birth = form["birthDate"].flatMap(CalendarDate.init(iso:)) else {
            return try await renderGoals(req: req, errors: ValidationError(field: "birthDate", "Enter your date of birth."), message: nil, status: .unprocessableEntity)
        }
        let input = BodyProfileInput(sex: form["sex"] ?? "", birthDate: birth,
                                     heightCm: imperial && number("heightFt") != nil ? nil : number("heightCm"),
                                     heightFt: number("heightFt"), heightIn: number("heightIn"),
                                     weightKg: imperial && number("weightLb") != nil ? nil : number("weightKg"), weightLb: number("weightLb"),
                                     activityLevel: form["activityLevel"] ?? "", aim: form["aim"] ?? "")
        do {
            let profile = try BodyInput.profile(from: input, today: user.today(now: req.now))
            let body = try req.owner.body
            try await body.save(profile, now: req.now, uuid: req.dependencies.uuid())
            try await body.saveGoals(Goals(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0, source: .computed), now: req.now)
            req.flash("Saved. Your goals are now computed from your body profile.")
            return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
        } catch AppError.validation(let errors) {
            return try await renderGoals(req: req, errors: errors, message: nil, status: .unprocessableEntity)
        }
    }

    @Sendable func saveManual(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        func number(_ key: String) -> Decimal? { form["manual.\(key)"].flatMap { Decimal(typed: $0) } }
        do {
            let goals = try await BodyInput.goals(from: GoalsInput(source: "manual", energyKcal: number("energyKcal"), protein: number("protein"),
                                                                   carbohydrates: number("carbohydrates"), fat: number("fat")), body: try req.owner.body)
            try await req.owner.body.saveGoals(goals, now: req.now)
            req.flash("Saved your goals.")
            return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
        } catch AppError.validation(let errors) {
            return try await renderGoals(req: req, errors: errors, message: nil, status: .unprocessableEntity)
        }
    }

    @Sendable func addWeight(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        guard let value = form["weight"].flatMap({ Decimal(typed: $0) }), value > 0 else {
            return try await renderGoals(req: req, errors: ValidationError(field: "weightKg", "Enter your weight as a number."), message: nil, status: .unprocessableEntity)
        }
        let kg: Decimal
        do {
            kg = try form["weightUnit"] == "lb" ? BodyInput.kilograms(kg: nil, lb: value, field: "weightKg") : BodyInput.kilograms(kg: value, lb: nil, field: "weightKg")
        } catch AppError.validation(let errors) {
            return try await renderGoals(req: req, errors: ValidationError(errors.fields.map { .init(field: "weightKg", message: $0.message) }), message: nil, status: .unprocessableEntity)
        }
        try await req.owner.body.addWeights([(req.now, kg)], source: "manual")
        req.flash("Added \(kg.display(1)) kg.")
        return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
    }

    /// The same streamed import as the API (``HealthImportRunner``), answered with a page.
    @Sendable func importHealth(req: Request) async throws -> Response {
        let user = try req.webUser
        do {
            let result = try await HealthImportRunner.run(req, user: user)
            let skipped = result.skipped.filter { $0.key != "alreadyRecorded" }.values.reduce(0, +)
            req.flash("Imported from Apple Health: \(result.weightsAdded) new weight\(result.weightsAdded == 1 ? "" : "s")"
                      + (result.heightCm.map { ", height \($0.display(1)) cm" } ?? "") + (result.birthDate.map { ", born \($0.iso)" } ?? "")
                      + (skipped > 0 ? "; \(skipped) record\(skipped == 1 ? "" : "s") passed over (implausible, unknown unit or a second weight the same day)" : "") + ".")
            return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
        } catch AppError.validation(let errors) {
            return try await renderGoals(req: req, errors: ValidationError([]), message: errors.summary, status: .unprocessableEntity)
        } catch AppError.badRequest {
            return try await renderGoals(req: req, errors: ValidationError([]), message: "Choose your export.zip or export.xml first.", status: .badRequest)
        } catch AppError.conflict(let detail) {
            return try await renderGoals(req: req, errors: ValidationError([]), message: detail, status: .conflict)
        }
    }
}
