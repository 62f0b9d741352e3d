import ForkcastCore
import Foundation

/// What the signed-in person's pages show, read through their ``Owner``: the pages themselves take
/// these values and never a repository.
extension Owner {
    /// Today (or `date`): the day, a week or month of totals, 180 days of weights, the day's plan and
    /// the day before's entries. `hiding`: entries deleted on the page whose Undo is still offered,
    /// left out of every figure as they will be.
    func dashboard(date: CalendarDate, range: String, hiding: Set<UUID> = []) async throws -> DashboardPage.Model {
        let service = diary
        let today = user.today(now: now)
        let days = range == "month" ? 30 : 7
        let from = date.adding(days: -(days - 1))
        let recent = try await service.entries.entries(from: from, to: date).filter { !hiding.contains($0.id) }
        let chart = DiaryRepository.dailyTotals(of: recent)
        let weights = try await body.weights(from: now.addingTimeInterval(-180 * 24 * 3600), to: nil)
        let types = try await service.types()
        let day = DiaryDay(date: date, entries: recent.filter { $0.date == date }, goals: try await service.goals().goals, types: types)
        // The household's plan, as far as this person eats it.
        let whole = try await plan.days(in: WeekWindow(start: date, length: 1))[0], me = id
        let plan = PlanDay(date: whole.date, entries: whole.entries.filter { $0.assignment.isEaten(by: me) })
        var model = DashboardPage.Model(day: day, today: today, chartRange: range == "month" ? "month" : "week", chart: chart,
                                   chartFrom: from, chartTo: date, weights: weights, currency: user.currency,
                                   plan: plan, logged: plan.logged(by: day.groups.flatMap(\.entries)),
                                   dayBefore: recent.filter { $0.date == date.adding(days: -1) },
                                   suggestedType: types.suggested(at: now, in: user.zone).token, zone: user.zone, mealTypes: types)
        model.me = me
        if date == today {
            // Only the lots to use soon and their foods (not the month's waste the pantry page adds up).
            let soon = PantryRules.usingOrder(try await pantry.items()).filter { $0.useSoon(today: today) }
            let foods = soon.isEmpty ? [:] : try await self.foods.find(ids: Array(Set(soon.map(\.foodId))))
            model.useSoon = soon.map { ($0, foods[$0.foodId]?.name ?? "") }
        }
        return model
    }

    /// The planner's week from `start`, with the meals offered for drag and drop.
    func plannerWeek(start: CalendarDate, today: CalendarDate) async throws -> PlannerPage.Model {
        let window = WeekWindow(start: start)
        let library = try await meals.list(filter: MealFilter(), page: try Paging(per: 60), plannedIn: window)
        var model = PlannerPage.Model(window: window, today: today, days: [], library: library.items.map(\.meal))
        model.libraryTotal = library.total
        let days = try await plan.days(in: window)
        model.days = days
        model.totals = try await meals.totals(for: days.flatMap { $0.entries.map(\.meal) })
        model.mealTypes = try await mealTypes.catalog(now: Date.distantPast)
        model.currency = user.currency
        model.goals = try await body.goals(today: today).goals
        model.logged = try await logged(of: days, today: today)
        model.members = try await household()?.members ?? []
        model.me = id
        return model
    }

    /// The planned meals of `days` already logged, by the rule Today shows them with.
    func logged(of days: [PlanDay], today: CalendarDate) async throws -> Set<UUID> {
        let past = days.filter { $0.date <= today && !$0.entries.isEmpty }
        guard let first = past.first?.date, let last = past.last?.date else { return [] }
        let eaten = try await diary.entries.entries(from: first, to: last)
        return past.reduce(into: Set<UUID>()) { $0.formUnion($1.logged(by: eaten)) }
    }

    /// The Meals page: one page of the library under `filter`, planned meals in `window` last.
    @_optimize(none)  // see WebMealsController.index
    func mealList(filter: MealFilter, window: WeekWindow, paging: Paging? = nil) async throws -> MealListPage.Model {
        let meals = meals
        let paging = try paging ?? Paging(per: Pager.perPage)
        let page = try await meals.list(filter: filter, page: paging, plannedIn: window)
        var libraryCount = page.total
        if filter.isActive { libraryCount = try await meals.count() }
        var model = MealListPage.Model(filter: filter, facets: try await meals.facets(), items: page.items, libraryCount: libraryCount, window: window,
                                       totals: try await meals.totals(for: page.items.map(\.meal)), matching: page.total, page: paging.page)
        model.currency = user.currency
        model.today = user.today(now: now)
        return model
    }
}
