import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// The goals page: the body profile, goals set by hand, nutrient targets, weights, an Apple Health
/// import, and a week's nutrients.
struct WebGoalsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.goals, use: goalsPage)
        routes.post(SiteURL.goalsProfile, use: saveProfile)
        routes.post(SiteURL.goalsManual, use: saveManual)
        routes.post(SiteURL.goalsWeights, use: addWeight)
        routes.post(SiteURL.deleteWeight(SiteURL.anyID), use: deleteWeight)
        routes.post(SiteURL.goalsTargets, use: saveTargets)
        routes.get(SiteURL.nutrientsWeek(), use: nutrientsWeek)
        routes.get(SiteURL.nutrient(":nutrient"), use: nutrient)
        routes.on(.POST, SiteURL.goalsImport, body: .stream, use: importHealth)
    }

    @Sendable func goalsPage(req: Request) async throws -> Response {
        try await renderGoals(req: req, errors: ValidationError([]), message: nil, status: .ok)
    }

    private func renderGoals(req: Request, errors: ValidationError, message: String?, status: HTTPStatus) async throws -> Response {
        let user = try req.webUser
        let body = try req.owner.body
        let (goals, calculation) = try await body.goals(today: user.today(now: req.now))
        // Goals typed by hand stay unless asked otherwise, even when they equal the defaults.
        let setByHand = try await body.storedGoals().map { $0.source != .computed } ?? false
        var page = GoalsPage(goals: goals, calculation: calculation, setByHand: setByHand, profile: try await body.profile(), weights: try await body.weights(page: Paging(page: 1, per: 8)).items.reversed(), zone: user.zone,
                             errors: errors, message: message)
        page.putBack = req.hasSession ? GoalsPage.PutBack.take(from: req.session) : nil
        return page.render(layout: req.layout("Goals", .settings)).response(status: status)
    }

    @Sendable func saveProfile(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = FormData(req)
        var numbers = TypedNumbers()
        let typed = Dictionary(uniqueKeysWithValues: ["heightCm", "heightFt", "heightIn", "weightKg", "weightLb"].map { ($0, numbers.read(form[$0], field: $0)) })
        guard let birth = form["birthDate"].flatMap(CalendarDate.init(iso:)) else {
            return try await renderGoals(req: req, errors: ValidationError(numbers.problems + [.init(field: "birthDate", message: "Enter your date of birth.")]),
                                         message: nil, status: .unprocessableEntity)
        }
        // The metric fields show the stored profile, so imperial ones the person filled in are what they meant.
        let input = SaveBodyProfile.Input(sex: form["sex"] ?? "", birthDate: birth,
                                     heightCm: typed["heightFt"]! != nil ? nil : typed["heightCm"]!,
                                     heightFt: typed["heightFt"]!, heightIn: typed["heightIn"]!,
                                     weightKg: typed["weightLb"]! != nil ? nil : typed["weightKg"]!, weightLb: typed["weightLb"]!,
                                     activityLevel: form["activityLevel"] ?? "", aim: form["aim"] ?? "")
        do {
            try numbers.check()
            // Manual goals stay unless the person ticks "use computed goals" (the API and sync keep them too).
            let useComputed = form["useComputedGoals"] == "on"
            try await req.owner.saveBodyProfile(input, useComputedGoals: useComputed)
            req.flash(useComputed ? "Saved. Your goals are now computed from your body profile." : "Saved your body profile; your goals are unchanged.")
            return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
        } catch let errors as ValidationError {
            return try await renderGoals(req: req, errors: errors, message: nil, status: .unprocessableEntity)
        }
    }

    @Sendable func saveManual(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = FormData(req)
        var numbers = TypedNumbers()
        func number(_ key: String) -> Decimal? { numbers.read(form["manual.\(key)"], field: key) }
        let input = SetGoals.Input(source: "manual", energyKcal: number("energyKcal"), protein: number("protein"),
                               carbohydrates: number("carbohydrates"), fat: number("fat"))
        do {
            try numbers.check()
            try await req.owner.setGoals(input)
            req.flash("Saved your goals.")
            return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
        } catch let errors as ValidationError {
            return try await renderGoals(req: req, errors: errors, message: nil, status: .unprocessableEntity)
        }
    }

    /// Nutrient targets from the Goals page: a blank field puts the daily value back.
    @Sendable func saveTargets(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = FormData(req)
        var changes: [Nutrient: Decimal?] = [:]
        var problems: [ValidationError.Field] = []
        for n in Nutrient.targeted {
            guard let text = form["target.\(n.rawValue)"] else { continue }
            if text.trimmed.isEmpty { changes[n] = .some(nil) }
            else if let value = Decimal(typed: text) { changes[n] = .some(value) }
            else { problems.append(.init(field: "targets.\(n.rawValue)", message: "Enter a number for \(n.name), or leave it empty for the daily value.")) }
        }
        do {
            guard problems.isEmpty else { throw ValidationError(problems) }
            try await req.owner.setGoals.changeTargets(changes)
            req.flash("Saved your nutrient targets.")
            return req.redirect(to: SiteURL.goals.path(fragment: "targets-title"), redirectType: .normal)
        } catch let errors as ValidationError {
            return try await renderGoals(req: req, errors: errors, message: nil, status: .unprocessableEntity)
        }
    }

    /// The 7 days to `date` against the nutrient targets: days that are over, so yesterday at the
    /// latest (today, still being eaten, would be under on everything).
    @Sendable func nutrientsWeek(req: Request) async throws -> Response {
        let user = try req.webUser
        let today = user.today(now: req.now)
        let end = min(try req.queryParameters.date("date") ?? today, today.adding(days: -1))
        let start = end.adding(days: -6)
        let totals = try await req.owner.diary.entries.dailyTotals(from: start, to: end)
        let goals = try await req.owner.body.goals(today: today).goals
        let page = NutrientsWeekPage(start: start, end: end, today: today, days: totals.filter { $0.entries > 0 }.map { ($0.date, $0.nutrients, $0.missing) }, goals: goals)
        return page.render(layout: req.layout("Nutrients this week", .today)).response()
    }

    /// One nutrient on one day: where it came from, the entries that do not say, and when it is
    /// low, the foods (the person's and the catalogue's) richest in it.
    @Sendable func nutrient(req: Request) async throws -> Response {
        let user = try req.webUser
        guard let nutrient = req.parameters.get("nutrient").flatMap(Nutrient.init(rawValue:)), Nutrient.targeted.contains(nutrient) else {
            throw AppError.notFound("There is no such nutrient with a target.")
        }
        let today = user.today(now: req.now)
        let date = try req.queryParameters.date("date") ?? today
        let day = try await req.owner.diary.day(date)
        let standing = NutrientStanding.day(day.totals, missing: day.missing, goals: day.goals).first { $0.nutrient == nutrient }!
        var page = NutrientPage(nutrient: nutrient, date: date, today: today, standing: standing, entries: day.groups.flatMap(\.entries))
        if standing.verdict == .under || standing.verdict == .unknown {
            let foods = try await req.owner.foods.list(query: nil, page: try Paging(per: 500)).items
            page.yours = NutrientSources.richest(nutrient, foods: foods)
            page.catalogue = try await req.application.threadPool.runIfActive { NutrientPage.shippedRichest[nutrient] ?? [] }
        }
        return page.render(layout: req.layout(nutrient.name, .today)).response()
    }

    @Sendable func addWeight(req: Request) async throws -> Response {
        _ = try req.webUser
        let form = FormData(req)
        // Its range is ForkcastCore's (RecordWeight): a weight of 0 or less is refused there with the range.
        guard let value = form["weight"].flatMap({ Decimal(typed: $0) }) else {
            return try await renderGoals(req: req, errors: ValidationError(field: "weightKg", "Enter your weight as a number."), message: nil, status: .unprocessableEntity)
        }
        // The form offers kg and lb; anything else was not chosen on it, and is not guessed to be kg.
        let unit = form["weightUnit"]?.trimmed.nilIfEmptyString ?? "kg"
        guard ["kg", "lb"].contains(unit) else {
            return try await renderGoals(req: req, errors: ValidationError(field: "weightKg", "Choose kg or lb for the weight."), message: nil, status: .unprocessableEntity)
        }
        let pounds = unit == "lb"
        // "Put it back" sends the deleted weighing's time and source; the form itself sends neither (now, typed in).
        let measuredAt = form["measuredAt"]?.trimmed.nilIfEmptyString
        let at = measuredAt.flatMap(Instant.parse)
        if let measuredAt, at == nil {
            return try await renderGoals(req: req, errors: ValidationError(field: "weightKg", "The time \(measuredAt.prefix(40)) is not an instant."), message: nil, status: .unprocessableEntity)
        }
        let source = at == nil ? "manual" : RecordWeight.sourceRecordedAgain(form["source"])
        let saved: WeightEntry
        do {
            saved = try await req.owner.recordWeight(.init(measuredAt: at, weightKg: pounds ? nil : value, weightLb: pounds ? value : nil),
                                                     id: req.dependencies.uuid(), source: source)
        } catch let errors as ValidationError {
            return try await renderGoals(req: req, errors: ValidationError(errors.fields.map { .init(field: "weightKg", message: $0.message) }), message: nil, status: .unprocessableEntity)
        } catch Refusal.conflict(let detail) {
            return try await renderGoals(req: req, errors: ValidationError(field: "weightKg", detail), message: nil, status: .conflict)
        }
        req.flash(at == nil ? "Added \(saved.weightKg.display(1)) kg." : "Put back \(saved.weightKg.display(1)) kg.")
        return req.redirect(to: SiteURL.goals.path, redirectType: .normal)
    }

    /// A weighing typed wrong, or imported twice: the same ``DeleteWeight`` as the API and sync.
    @Sendable func deleteWeight(req: Request) async throws -> Response {
        _ = try req.webUser
        let id = try req.idParameter(what: "weight")
        guard let weight = try await req.owner.deleteWeight(id) else { throw AppError.notFound("That weight was already deleted.") }
        // The page says so once, with a button that records it again (a tap on the wrong row).
        GoalsPage.PutBack(weight).keep(in: req.session)
        return req.redirect(to: SiteURL.goals.path(fragment: "weights-title"), redirectType: .normal)
    }

    /// The same streamed import as the API (``HealthImportRunner``), answered with a page.
    @Sendable func importHealth(req: Request) async throws -> Response {
        let user = try req.webUser
        do {
            let result = try await HealthImportRunner.run(req, user: user)
            let skipped = result.skipped.filter { $0.key != "alreadyRecorded" }.values.reduce(0, +)
            req.flash("Imported from Apple Health: \(result.weightsAdded) new weight\(result.weightsAdded == 1 ? "" : "s")"
                      + (result.heightCm.map { ", height \($0.display(1)) cm" } ?? "") + (result.birthDate.map { ", born \($0.iso)" } ?? "")
                      + (skipped > 0 ? "; \(skipped) record\(skipped == 1 ? "" : "s") passed over (implausible, unreadable, unknown unit or a second weight the same day)" : "") + ".")
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
