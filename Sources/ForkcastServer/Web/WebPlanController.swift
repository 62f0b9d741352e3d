import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// The weekly planner pages: the week, the meal picker, assigning and removing.
struct WebPlanController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.plan(start: nil), use: week)
        routes.get(SiteURL.planPicker(date: CalendarDate(dayNumber: 0), query: nil), use: picker)
        routes.post(SiteURL.assign, use: assign)
        routes.post(SiteURL.removeAssignment(SiteURL.anyID), use: remove)
        routes.post(SiteURL.updateAssignment(SiteURL.anyID), use: changeServings)
        routes.post(SiteURL.assignmentEaters(SiteURL.anyID), use: changeEaters)
        routes.get(SiteURL.planSuggestions(start: nil), use: suggestions)
        routes.post(SiteURL.acceptSuggestions, use: acceptSuggestions)
    }

    @Sendable func week(req: Request) async throws -> Response {
        let user = try req.webUser
        let today = user.today(now: req.now)
        let start = try req.queryParameters.date("start") ?? today
        let whole = !req.fragment("week") && !req.fragment("week-totals")
        let cursor = whole ? try await req.changesCursor() : nil
        let model = try await req.owner.plannerWeek(start: start, today: today)
        let page = PlannerPage(model: model, csrf: CSRF.token(for: req))
        if req.fragment("week") { return page.week.response() }
        if req.fragment("week-totals") { return PlannerPage.weekLine(model).response() }
        var layout = req.layout("Planner", .plan, scripts: [SiteURL.script("planner").path], cursor: cursor)
        layout.days = (model.window.start, model.window.end, "the week of " + CalendarDate.rangeText(from: model.window.start, to: model.window.end))
        return page.render(layout: layout).response()
    }

    @Sendable func picker(req: Request) async throws -> Response {
        let user = try req.webUser
        let query = req.queryParameters
        let date = try query.date("date") ?? user.today(now: req.now)
        let text = query.string("q") ?? ""
        let result = try await req.owner.meals.list(filter: MealFilter(text: text), page: try Paging(per: 60),
                                                       plannedIn: WeekWindow(start: date))
        let found = result.items.map(\.meal)
        if req.fragment("panel") { return PlannerPage.panelItems(found, total: result.total).response() }
        let types = try await req.owner.mealTypes.catalog(now: req.now)
        let slot = query.string("mealType").flatMap(types.normalized)
        let page = PlanPickerPage(date: date, query: text, meals: found, csrf: CSRF.token(for: req), mealType: slot, total: result.total, mealTypes: types,
                                  rule: try Self.repeatRule(req))
        if req.fragment("picker") { return page.results.response() }
        return page.render(layout: req.layout("Add a meal", .plan)).response()
    }

    @Sendable func assign(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        guard let mealID = form["mealId"].flatMap(UUID.init(uuidString:)) else { throw AppError.badRequest("Choose a meal to add.") }
        guard let date = try WebDiaryController.day(form["date"]) else { throw ValidationError(field: "date", "Choose the day to plan it on.") }
        let plan = try req.owner.plan
        let slot = form["mealType"]?.trimmed.nilIfEmptyString
        let request = PlanMeal.Request(mealID: mealID, date: date, mealType: slot, servings: nil, id: req.dependencies.uuid())
        let planned = if let rule = try Self.repeatRule(req) { try await req.owner.planMeal.repeating(request, rule) } else {
            try await req.owner.planMeal(mealID, on: date, mealType: slot, id: request.id).map { [$0] }
        }
        guard let entries = planned, let entry = entries.first else { throw AppError.notFound("That meal does not exist (any more).") }
        let slotName = try await entry.assignment.mealType.asyncMap { " (\(try await req.owner.mealTypes.catalog(now: req.now).name(of: $0)))" } ?? ""
        let first = entry.assignment.date
        return try await answer(req: req, user: user, plan: plan, date: first, flash: entries.count > 1
            ? "Added “\(entry.meal.description)”\(slotName) on \(entries.count) days, from \(first.longText) to \(entries.last!.assignment.date.longText)."
            : "Added “\(entry.meal.description)” to \(first.weekday.name)\(slotName).")
    }

    @Sendable func remove(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "assignment")
        let plan = try req.owner.plan
        let scope = FormData(req)["scope"].flatMap(SeriesScope.init(rawValue:)) ?? .one
        let removed = try await req.owner.unplanMeal(id, scope: scope)
        guard let assignment = removed.first else { throw AppError.notFound("That meal was already removed from the plan.") }
        // The planner's Undo has said so already (and sends this when its seconds are up).
        if req.fragment("delete") { return Response(status: .noContent) }
        return try await answer(req: req, user: user, plan: plan, date: assignment.date, flash: removed.count > 1
            ? "Removed \(removed.count) days of the repeat." : assignment.seriesId != nil ? "Skipped \(assignment.date.weekday.name)." : "Removed from \(assignment.date.weekday.name).")
    }

    /// The planner's stepper: the portions a planned meal makes.
    @Sendable func changeServings(req: Request) async throws -> Response {
        let user = try req.webUser
        let id = try req.idParameter(what: "assignment")
        let owner = try req.owner
        guard let servings = FormData(req)["servings"].flatMap({ Int($0.trimmed) }) else {
            throw ValidationError(field: "servings", "Say how many portions: a whole number from \(Assignment.servingsRange.lowerBound) to \(Assignment.servingsRange.upperBound).")
        }
        guard let assignment = try await owner.plan.find(id) else { throw AppError.notFound("That meal is no longer on the plan.") }
        let request = PlanMeal.Request(mealID: assignment.mealId, date: assignment.date, mealType: assignment.mealType, servings: servings, id: id,
                                       eaters: assignment.eaters)
        guard let entry = try await owner.planMeal.change(id, to: request) else { throw AppError.notFound("That meal is no longer on the plan.") }
        return try await answer(req: req, user: user, plan: owner.plan, date: assignment.date,
                                flash: "“\(entry.meal.description)” on \(assignment.date.weekday.name): \(servings) portion\(servings == 1 ? "" : "s").")
    }

    /// Who eats a planned meal: the members ticked, each with their portions; everyone ticked
    /// with one portion each is stored as no list (everyone, as before anyone was named).
    @Sendable func changeEaters(req: Request) async throws -> Response {
        let user = try req.webUser, owner = try req.owner
        let id = try req.idParameter(what: "assignment"), form = FormData(req)
        guard let assignment = try await owner.plan.find(id) else { throw AppError.notFound("That meal is no longer on the plan.") }
        let members = try await owner.household()?.members ?? []
        // Named for the planned meal: each meal's boxes are a group of their own on the page.
        let ticked = Set((try? req.content.get([String].self, at: "eater-\(id.uuidString)")) ?? [])
        var eaters: [Eater] = []
        for (index, member) in members.enumerated() where ticked.contains(member.id.uuidString) {
            let typed = form["portions-\(member.id.uuidString)"] ?? "1"
            guard let portions = Decimal(string: typed.trimmed.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX")) else {
                throw ValidationError(field: "eaters[\(index)].portions", "Portions are a number, like 1 or 1.5; got “\(typed)”.")
            }
            eaters.append(Eater(userId: member.id, portions: portions))
        }
        let everyone = eaters.count == members.count && eaters.allSatisfy { $0.portions == 1 }
        // A repeat's later days follow when asked ("and the later days"), each keeping its own portions.
        let scope = form["later-\(id.uuidString)"].flatMap(SeriesScope.init(rawValue:)) ?? .one
        guard let entry = try await owner.planMeal.setEaters(everyone ? nil : eaters, of: id, scope: scope) else {
            throw AppError.notFound("That meal is no longer on the plan.")
        }
        return try await answer(req: req, user: user, plan: owner.plan, date: assignment.date,
                                flash: "Who eats “\(entry.meal.description)” on \(assignment.date.weekday.name) is saved.")
    }

    /// "Fill my week": the suggestions for the week's empty breakfast, lunch and dinner, all ticked.
    @Sendable func suggestions(req: Request) async throws -> Response {
        let user = try req.webUser
        let query = req.queryParameters
        let start = try query.date("start") ?? user.today(now: req.now)
        let filter = MealFilter(protein: query.string("protein")?.trimmed.nilIfEmptyString, carb: query.string("carb")?.trimmed.nilIfEmptyString,
                                components: (try? req.query.get([String].self, at: "component")) ?? [])
        // The slots to fill: those ticked (any can be left out), else breakfast, lunch and dinner.
        let slots = ((try? req.query.get([String].self, at: "mealType")) ?? []).filter { !$0.isEmpty }
        let input = SuggestionsInput(start: start, days: WeekWindow.defaultLength, mealTypes: slots.isEmpty ? nil : slots,
                                     protein: filter.protein, carb: filter.carb, component: filter.components)
        let owner = try req.owner
        let suggestions = try await PlanSuggestions.make(input, owner: owner)
        let page = SuggestionsPage(suggestions: suggestions, filter: filter, facets: try await owner.meals.facets(),
                                   types: try await owner.mealTypes.catalog(now: req.now), currency: user.currency, csrf: CSRF.token(for: req))
        return page.render(layout: req.layout("Fill my week", .plan)).response()
    }

    /// Plans the ticked suggestions, all or none.
    @Sendable func acceptSuggestions(req: Request) async throws -> Response {
        let form = FormData(req)
        let start = form["start"].flatMap(CalendarDate.init(iso:))
        // Each ticked box: "<mealId>|<date>|<mealType>".
        let ticked = form.all("pick")
        let requests = try ticked.map { value -> PlanMeal.Request in
            let parts = value.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let meal = UUID(uuidString: parts[0]), let date = CalendarDate(iso: parts[1]) else {
                throw AppError.badRequest("A suggestion was not understood; open Fill my week again.")
            }
            return PlanMeal.Request(mealID: meal, date: date, mealType: parts[2].nilIfEmptyString, servings: nil, id: req.dependencies.uuid())
        }
        guard !requests.isEmpty else {
            req.flash("Nothing was ticked, so nothing was planned.")
            return req.redirect(to: SiteURL.plan(start: start).path, redirectType: .normal)
        }
        let entries = try await req.owner.planMeal.all(requests)
        req.flash("Planned \(entries.count) meal\(entries.count == 1 ? "" : "s").")
        return req.redirect(to: SiteURL.plan(start: start).path, redirectType: .normal)
    }

    /// Scripts get the changed day back to swap in place; plain forms go back to the week.
    private func answer(req: Request, user: UserModel, plan: some PlanReads, date: CalendarDate, flash: String) async throws -> Response {
        let today = user.today(now: req.now)
        let form = FormData(req)
        let start = form["start"].flatMap(CalendarDate.init(iso:)) ?? date
        if req.fragment("day") {
            let day = try await plan.days(in: WeekWindow(start: date, length: 1))[0]
            let owner = try req.owner
            let figures = PlannerPage.DayFigures(totals: try await owner.meals.totals(for: day.entries.map(\.meal)),
                                                 goals: try await owner.body.goals(today: today).goals, currency: user.currency,
                                                 logged: try await owner.logged(of: [day], today: today), me: owner.id,
                                                 members: try await owner.household()?.members ?? [])
            return PlannerPage.day(day, today: today, start: start, csrf: CSRF.token(for: req), figures: figures,
                                   types: try await req.owner.mealTypes.catalog(now: req.now)).response()
        }
        req.flash(flash)
        let weekStart = WeekWindow(start: start).contains(date) ? start : date
        return req.redirect(to: SiteURL.plan(start: weekStart == today ? nil : weekStart).path + "#day-\(date.iso)", redirectType: .normal)
    }
}
