import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/plan`: the weekly planner, as ForkcastContract's ``Plan`` operations.
enum PlanController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Plan.Get.self) { req, query, _ in
            let user = try req.requireUser()
            let today = user.today(now: req.now)
            // days is within the document's bounds (OperationRoutes.parameters).
            let window = WeekWindow(start: query.start ?? today, length: query.days ?? WeekWindow.defaultLength)
            let owner = try req.owner
            let plan = owner.plan
            return try await req.application.readCache.answer(req, owner: owner.id, today: today) {
                let days = try await plan.days(in: window)
                let presenter = try await MealPresenter.load(days.flatMap { $0.entries.map(\.meal) }, repository: owner.meals, currency: user.currency)
                let goals = try await owner.body.goals(today: today).goals
                return presenter.answer(days, window: window, today: today, goals: goals)
            }
        }
        routes.on(Plan.Assign.self) { req, _, input in
            let request = PlanMeal.Request(mealID: input.mealId, date: input.date, mealType: input.mealType, servings: input.servings,
                                           id: req.dependencies.uuid(), eaters: input.eaters?.map(\.eater))
            let planMeal = try req.owner.planMeal
            let planned = if let rule = input.repeat { try await planMeal.repeating(request, rule)?.first } else {
                try await planMeal(request.mealID, on: request.date, mealType: request.mealType, servings: request.servings, id: request.id, eaters: request.eaters)
            }
            guard let entry = planned else {
                throw AppError.notFound("No meal with id \(input.mealId) exists in your account, so it cannot be planned.")
            }
            return .value(try await answer([entry], req).first!,
                          headers: ["Location": Plan.GetAssignment.path.filled(["id": entry.assignment.id.uuidString])])
        }
        routes.on(Plan.AssignMany.self) { req, _, input in
            if let index = input.assignments.firstIndex(where: { $0.repeat != nil }) {
                throw AppError.validation(ValidationError([.init(field: "assignments[\(index)].repeat", message: "Plan a repeat on its own (POST \(Plan.Assign.path)).")]))
            }
            let entries = try await req.owner.planMeal.all(input.assignments.map {
                PlanMeal.Request(mealID: $0.mealId, date: $0.date, mealType: $0.mealType, servings: $0.servings, id: req.dependencies.uuid(),
                                 eaters: $0.eaters?.map(\.eater))
            })
            return .value(try await answer(entries, req))
        }
        routes.on(Plan.Suggest.self) { req, _, input in
            let owner = try req.owner
            let suggestions = try await PlanSuggestions.make(input, owner: owner)
            return suggestions.answer
        }
        routes.on(Plan.GetAssignment.self) { req, parameters, _ in
            let plan = try req.owner.plan
            guard let assignment = try await plan.find(parameters.id), let meal = try await req.owner.meals.find(assignment.mealId) else {
                throw AppError.notFound("No assignment with id \(parameters.id) exists in your plan.")
            }
            return try await answer([PlanDay.Entry(assignment: assignment, meal: meal)], req).first!
        }
        routes.on(Plan.UpdateAssignment.self) { req, parameters, input in
            let request = PlanMeal.Request(mealID: input.mealId, date: input.date, mealType: input.mealType, servings: input.servings, id: parameters.id,
                                           eaters: input.eaters?.map(\.eater))
            guard let entry = try await req.owner.planMeal.change(parameters.id, to: request, scope: parameters.scope ?? .one, repeating: input.repeat) else {
                throw AppError.notFound("No assignment with id \(parameters.id) in your plan, or no meal with id \(input.mealId) in your account.")
            }
            return try await answer([entry], req).first!
        }
        routes.on(Plan.Eaten.self) { req, parameters, _ in
            guard let (assignment, logged, pantry) = try await req.owner.logCooked(parameters.id) else {
                throw AppError.notFound("No assignment with id \(parameters.id) exists in your plan.")
            }
            return EatenAnswer(assignmentId: assignment.id, logged: logged.map { EaterEntry(userId: $0.eater, portions: $0.portions) },
                               pantry: pantry.map(CookedAnswer.init)?.lines ?? [])
        }
        routes.on(Plan.ListTemplates.self) { req, _, _ in try await req.owner.templates.all().map(PlanTemplateAnswer.init) }
        routes.on(Plan.CreateTemplate.self) { req, _, input in
            let template = try await req.owner.planTemplates.save(name: input.name, from: input.start, weeks: input.weeks ?? 1, id: req.dependencies.uuid())
            return .value(PlanTemplateAnswer(template))
        }
        routes.on(Plan.ApplyTemplate.self) { req, parameters, input in
            guard let applied = try await req.owner.planTemplates.apply(parameters.id, then: input.then ?? [], from: input.start, cycles: input.cycles ?? 1) else {
                throw AppError.notFound("No template with id \(parameters.id), or one of `then`, is your household's.")
            }
            return ApplyTemplateAnswer(planned: try await answer(applied.planned, req), skipped: applied.skipped)
        }
        routes.on(Plan.DeleteTemplate.self) { req, parameters, _ in
            guard try await req.owner.planTemplates.delete(parameters.id) else { throw AppError.notFound("No template with id \(parameters.id) is your household's.") }
            return Nothing()
        }
        routes.on(Plan.Unassign.self) { req, parameters, _ in
            guard try await !req.owner.unplanMeal(parameters.id, scope: parameters.scope ?? .one).isEmpty else {
                throw AppError.notFound("No assignment with id \(parameters.id) exists in your plan.")
            }
            return Nothing()
        }
    }

    private static func answer(_ entries: [PlanDay.Entry], _ req: Request) async throws -> [AssignmentAnswer] {
        let presenter = try await MealPresenter.load(entries.map(\.meal), repository: try req.owner.meals, currency: try req.requireUser().currency)
        return entries.map(presenter.answer)
    }
}

/// "Fill my week" for a person: what ``PlanSuggester`` needs, read from their library and plan.
struct PlanSuggestions {
    let suggestions: [PlanSuggester.Suggestion]
    let days: [PlanDay]
    let presenter: MealPresenter
    let goals: Goals
    let window: WeekWindow
    /// The meal types filled.
    let slots: [String]

    static func make(_ input: SuggestionsInput, owner: Owner) async throws -> PlanSuggestions {
        let types = try await owner.mealTypes.catalog(now: owner.now)
        let ask: PlanSuggester.Ask
        do {
            ask = try PlanSuggester.Ask(days: input.days, mealTypes: input.mealTypes, protein: input.protein, carb: input.carb,
                                        components: input.component, types: types)
        } catch { throw AppError.validation(error) }
        let slots = ask.slots, filter = ask.filter
        let window = WeekWindow(start: input.start, length: ask.length)
        let days = try await owner.plan.days(in: window)
        let library = try await owner.meals.all()
        let presenter = try await MealPresenter.load(library + days.flatMap { $0.entries.map(\.meal) }, repository: owner.meals, currency: owner.user.currency)
        let goals = try await owner.body.goals(today: owner.user.today(now: owner.now)).goals
        let lastPlanned = try await owner.plan.lastPlanned(before: window.start)
        let history = try await owner.plan.slotHistory()
        let today = owner.user.today(now: owner.now)
        // Slots of today and later already eaten (the diary's meal types of those days).
        var eaten: [CalendarDate: Set<String>] = [:]
        if window.end >= today {
            for entry in try await owner.diary.entries.entries(from: max(window.start, today), to: window.end) { eaten[entry.date, default: []].insert(entry.mealType) }
        }
        var planned: [CalendarDate: (nutrients: Nutrients, slots: Set<String>, meals: Set<UUID>)] = [:]
        for day in days {
            planned[day.date] = (presenter.dayTotals(day).nutrients, Set(day.entries.compactMap(\.assignment.mealType)), Set(day.entries.map(\.meal.id)))
        }
        let lots = try await owner.pantry.items()
        let soon = lots.contains { $0.useSoon(today: today) }
            ? PantryRules.soonFoods(library, foods: try await owner.meals.foods(for: library), lots: lots, today: today) : [:]
        let candidates = library.map {
            PlanSuggester.Candidate(meal: $0, perServing: (presenter.totals[$0.id] ?? .unknown).perServing, lastPlanned: lastPlanned[$0.id],
                                    slots: history[$0.id] ?? [], soon: soon[$0.id] ?? [])
        }
        let suggestions = PlanSuggester.suggest(dates: window.dates, slots: slots, planned: planned, library: candidates, filter: filter, goals: goals,
                                                eaten: eaten, today: today)
        return PlanSuggestions(suggestions: suggestions, days: days, presenter: presenter, goals: goals, window: window, slots: slots)
    }

    var answer: SuggestionsAnswer {
        let items = suggestions.map {
            SuggestionAnswer(date: $0.date, mealType: $0.mealType, mealId: $0.meal.id, description: $0.meal.description,
                             perServing: presenter.perServing($0.meal),
                             usesSoon: $0.usesSoon.map { SoonFoodAnswer(foodId: $0.foodId, food: $0.name, bestBefore: $0.bestBefore) })
        }
        let byDate = Dictionary(grouping: suggestions, by: \.date)
        let dayAnswers = days.map { day in
            let planned = presenter.dayTotals(day).nutrients
            let suggested = (byDate[day.date] ?? []).reduce(planned) { $0 + $1.perServing }
            return SuggestionDayAnswer(date: day.date, planned: PlanGoalsAnswer(GoalStanding(planned, goals: goals)),
                                       suggested: PlanGoalsAnswer(GoalStanding(suggested, goals: goals)))
        }
        return SuggestionsAnswer(items: items, days: dayAnswers)
    }
}
