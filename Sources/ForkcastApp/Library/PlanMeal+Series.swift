import ForkcastCore
import Foundation

/// Repeating plan entries: a repeat is planned as its days, one entry each sharing a series id, in
/// one write; a change or a removal reaches one day, the following ones or all of them.
extension PlanMeal {
    /// Plans `request`'s meal on every day of `rule` from `request.date` on; the first day is entry
    /// `request.id`, the others get new ids. Throws ``ValidationError`` for a repeat that is wrong or
    /// makes no day; nil when the person has no such meal.
    public func repeating(_ request: Request, _ rule: PlanRepeat) async throws -> [PlanDay.Entry]? {
        try Self.check(request)
        let problems = rule.problems(from: request.date)
        if !problems.isEmpty { throw ValidationError(problems) }
        let now = now
        return try await library.write { tx in try await Self.plan(request, rule, seriesId: UUID.timeOrdered(), in: tx, now: now) }
    }

    /// Changes entry `id` and, as `scope` says, the other days of its repeat: each day reached takes
    /// the request's meal, slot, portions and eaters and moves by as many days as the entry moves.
    /// With a `rule`, the days reached are planned again by it from the request's day (keeping the
    /// series id). The entry changed (or the rule's first day); nil when there is no such entry or meal.
    public func change(_ id: UUID, to request: Request, scope: SeriesScope, repeating rule: PlanRepeat? = nil) async throws -> PlanDay.Entry? {
        guard scope != .one || rule != nil else { return try await change(id, to: request) }
        try Self.check(request)
        if let rule {
            let problems = rule.problems(from: request.date)
            if !problems.isEmpty { throw ValidationError(problems) }
        }
        let now = now
        return try await library.write { tx in
            guard let old = try await tx.plan.find(id), try await tx.meals.find(request.mealID) != nil else { return nil }
            let series = try await Self.series(of: old, in: tx)
            var reached = scope.reach(from: old, in: series)
            if let rule {
                // A new rule replaces the days reached: one day of a repeat cannot take a rule of its own.
                if old.seriesId != nil, scope == .one {
                    throw ValidationError(field: "scope", "A new repeat for a day of a repeat: change the following days or all of them (scope following or all).")
                }
                // Moved earlier, the rule's days start before this one: the repeat's days from there are replaced too.
                if scope == .following, request.date < old.date {
                    reached = series.filter { $0.date >= request.date }
                }
                for entry in reached { _ = try await tx.plan.delete(entry.id, now: now) }
                var first = request
                first.id = id
                return try await Self.plan(first, rule, seriesId: old.seriesId ?? UUID.timeOrdered(), in: tx, now: now)?.first
            }
            let shift = old.date.days(until: request.date)
            var changed: PlanDay.Entry?
            for entry in reached {
                var day = request
                (day.id, day.date, day.seriesId) = (entry.id, entry.date.adding(days: shift), entry.seriesId)
                if let problem = day.date.problem(field: "date") { throw ValidationError([problem]) }
                let planned = try await Self.plan(day, replacing: true, in: tx, now: now)
                if entry.id == id { changed = planned }
            }
            return changed
        }
    }

    /// The days of the entry's repeat (the entry alone when it stands alone).
    static func series(of entry: Assignment, in tx: any LibraryTransaction) async throws -> [Assignment] {
        guard let id = entry.seriesId else { return [entry] }
        return try await tx.plan.series(id)
    }

    private static func plan(_ request: Request, _ rule: PlanRepeat, seriesId: UUID, in tx: any LibraryTransaction, now: Date) async throws -> [PlanDay.Entry]? {
        var entries: [PlanDay.Entry] = []
        for (index, date) in rule.dates(from: request.date).enumerated() {
            var day = request
            (day.date, day.seriesId) = (date, seriesId)
            if index > 0 { day.id = UUID.timeOrdered() }
            guard let entry = try await plan(day, replacing: false, in: tx, now: now) else { return nil }
            entries.append(entry)
        }
        return entries
    }
}

extension PlanMeal {
    /// Sets who eats entry `id` and, as `scope` says, the other days of its repeat — each day keeping
    /// its own meal, slot and portions; nil when there is no such entry.
    public func setEaters(_ eaters: [Eater]?, of id: UUID, scope: SeriesScope) async throws -> PlanDay.Entry? {
        let problems = Assignment.problems(eaters: eaters, members: nil)
        if !problems.isEmpty { throw ValidationError(problems) }
        let now = now
        return try await library.write { tx in
            guard let old = try await tx.plan.find(id) else { return nil }
            var changed: PlanDay.Entry?
            for day in scope.reach(from: old, in: try await Self.series(of: old, in: tx)) {
                let request = Request(mealID: day.mealId, date: day.date, mealType: day.mealType, servings: day.servings, id: day.id, eaters: eaters)
                let entry = try await Self.plan(request, replacing: true, in: tx, now: now)
                if day.id == id { changed = entry }
            }
            return changed
        }
    }
}

extension UnplanMeal {
    /// Removes entry `id` and, as `scope` says, the other days of its repeat (`one` skips that day
    /// alone); the entries removed, the one asked for first; empty when there is no such entry.
    public func callAsFunction(_ id: UUID, scope: SeriesScope) async throws -> [Assignment] {
        let now = now
        return try await library.write { tx in
            guard let old = try await tx.plan.find(id) else { return [] }
            let reached = scope.reach(from: old, in: try await PlanMeal.series(of: old, in: tx))
            var removed: [Assignment] = []
            for entry in [old] + reached.filter({ $0.id != id }) {
                if let gone = try await tx.plan.delete(entry.id, now: now) { removed.append(gone) }
            }
            return removed
        }
    }
}
