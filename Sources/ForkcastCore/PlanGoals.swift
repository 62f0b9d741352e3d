import Foundation

extension PlanTotals {
    /// What is cooked: each planned meal's whole totals scaled by its portions (`servings / meal.servings`),
    /// for the cost of the plan and its shopping list.
    public static func cooked(_ parts: [(totals: MealTotals, scale: Decimal)]) -> PlanTotals {
        var result = PlanTotals.empty
        for (totals, scale) in parts {
            result = result + PlanTotals(nutrients: totals.total.scaled(by: scale), cost: totals.cost.map { $0 * scale })
        }
        return result
    }
}

/// Where a planned (or eaten) day stands against the person's energy and macro goals: under,
/// within ±10 %, or over — the one rule the planner's bars, the API and the suggestions share.
public struct GoalStanding: Hashable, Sendable {
    public enum Band: String, Sendable, Hashable, Codable, CaseIterable {
        case under, within, over
    }

    /// The four goals a day is planned against, in the order they are shown.
    public static let nutrients: [Nutrient] = [.energyKcal, .protein, .carbohydrates, .fat]
    /// How far from the goal still counts as meeting it.
    public static let tolerance: Decimal = Decimal(string: "0.1")!

    public struct Line: Hashable, Sendable {
        public let nutrient: Nutrient
        public let amount: Decimal
        public let goal: Decimal
        /// `amount - goal`.
        public var difference: Decimal { amount - goal }
        public var band: Band { GoalStanding.band(amount: amount, goal: goal) }
        /// The amount as a whole percentage of the goal (nil for a goal of 0).
        public var percent: Int? {
            guard goal > 0 else { return nil }
            return Int((amount * 100 / goal).rounded(0).doubleValue.clampedToInt)
        }
    }

    public let lines: [Line]

    public init(_ nutrients: Nutrients, goals: Goals) {
        lines = Self.nutrients.map { Line(nutrient: $0, amount: nutrients[$0] ?? 0, goal: goals.target($0) ?? 0) }
    }

    public func line(_ nutrient: Nutrient) -> Line? { lines.first { $0.nutrient == nutrient } }
    /// The energy line's band: the day's bar.
    public var band: Band { line(.energyKcal)?.band ?? .within }

    public static func band(amount: Decimal, goal: Decimal) -> Band {
        if amount < goal * (1 - tolerance) { return .under }
        if amount > goal * (1 + tolerance) { return .over }
        return .within
    }

    /// How far a day's totals are from the goals: the sum over energy and the macros of the
    /// distance as a share of each goal (goals of 0 count the amount itself). 0 is on target.
    public static func distance(_ nutrients: Nutrients, goals: Goals) -> Decimal {
        var sum: Decimal = 0
        for nutrient in Self.nutrients {
            let goal = goals.target(nutrient) ?? 0, amount = nutrients[nutrient] ?? 0
            let gap = amount > goal ? amount - goal : goal - amount
            sum += goal > 0 ? gap / goal : gap
        }
        return sum
    }
}

extension MealFilter {
    /// The library's filter rule for one meal, as the meal list applies it: the same protein and
    /// carb (ignoring case), every component asked for among the meal's, the text in any of its words.
    public func accepts(_ meal: Meal) -> Bool {
        if let key = proteinKey, meal.primaryProtein?.matchKey != key { return false }
        if let key = carbKey, meal.primaryCarb?.matchKey != key { return false }
        let keys = componentKeys
        if !keys.isEmpty, !keys.isSubset(of: Set(meal.otherComponents.map(\.matchKey))) { return false }
        if let text = text?.lowercased(), !text.isEmpty {
            let haystack = ([meal.description, meal.primaryProtein ?? "", meal.primaryCarb ?? ""] + meal.otherComponents)
                .joined(separator: " ").lowercased()
            if !haystack.contains(text) { return false }
        }
        return true
    }
}

/// "Fill my week": meals from the person's library for the empty slots of a window, chosen to bring
/// each day closest to the goals. Nothing is planned; the person accepts what they want.
///
/// The rules: every suggestion passes the filter and fits its slot (a meal planned or eaten only
/// at dinner is no breakfast); a slot that already has a meal, or was eaten already, is left alone,
/// as are days gone by; a meal is not suggested twice in the window (nor when already planned there) while another meal
/// that passes the filter is unused; a suggestion is made only when it brings its day closer to the
/// goals, both from the day as planned and after the day's earlier suggestions (so accepting any one
/// of them, or all of a day's, never takes the day further from its goals); a meal that uses pantry
/// stock before its best-before goes first; ties go to the meal planned longest ago (never planned
/// first), then by description.
public enum PlanSuggester {
    public struct Candidate: Sendable, Hashable {
        public let meal: Meal
        /// One serving: what one person eats of it.
        public let perServing: Nutrients
        /// The last day it was planned on before the window, if ever.
        public let lastPlanned: CalendarDate?
        /// The meal types it has been planned in or eaten at (keys): where it fits. None known, it
        /// may go in any slot that no meal known to fit there takes.
        public let slots: Set<String>
        /// Pantry stock it uses that goes off soon: preferred on the days up to its best-before.
        public let soon: [SoonFood]
        public init(meal: Meal, perServing: Nutrients, lastPlanned: CalendarDate?, slots: Set<String> = [], soon: [SoonFood] = []) {
            self.meal = meal
            self.perServing = perServing
            self.lastPlanned = lastPlanned
            self.slots = slots
            self.soon = soon
        }

        /// The soon-to-go-off foods it would use up on `date`.
        func usesSoon(on date: CalendarDate) -> [SoonFood] { soon.filter { date <= $0.bestBefore } }

        /// 2: known to fit the slot; 1: nothing known about it; 0: known for other slots only
        /// (a dinner is not a breakfast).
        func fit(_ slot: String) -> Int { slots.contains(slot) ? 2 : slots.isEmpty ? 1 : 0 }
    }

    public struct Suggestion: Sendable, Hashable {
        public let date: CalendarDate
        public let mealType: String
        public let meal: Meal
        public let perServing: Nutrients
        /// Why it was chosen before others: it uses these before they go off.
        public var usesSoon: [SoonFood] = []
    }

    /// A food in the pantry that goes off soon, and when.
    public struct SoonFood: Sendable, Hashable {
        public let foodId: UUID
        public let name: String
        public let bestBefore: CalendarDate
        public init(foodId: UUID, name: String, bestBefore: CalendarDate) {
            self.foodId = foodId
            self.name = name
            self.bestBefore = bestBefore
        }
    }

    /// The slots filled when none are asked for.
    public static let defaultSlots = ["breakfast", "lunch", "dinner"]

    /// - Parameters:
    ///   - dates: the window's days, in order.
    ///   - slots: meal type keys to fill, in order.
    ///   - planned: what each day already has (one serving of each), with the slots taken.
    ///   - library: the person's meals with their nutrition.
    ///   - eaten: the slots of each day already in the diary (the meal was eaten: nothing to plan);
    ///     days before `today` are left alone.
    public static func suggest(dates: [CalendarDate], slots: [String], planned: [CalendarDate: (nutrients: Nutrients, slots: Set<String>, meals: Set<UUID>)],
                               library: [Candidate], filter: MealFilter, goals: Goals,
                               eaten: [CalendarDate: Set<String>] = [:], today: CalendarDate? = nil) -> [Suggestion] {
        let eligible = library.filter { filter.accepts($0.meal) }
            .sorted { order($0) < order($1) }
        guard !eligible.isEmpty else { return [] }
        // The four amounts of each meal, read once (the same sums and distance as GoalStanding's).
        let target = Macros(goals), amounts = eligible.map { Macros($0.perServing) }
        var used = Set(planned.values.flatMap(\.meals))
        var result: [Suggestion] = []
        for date in dates where today.map({ date >= $0 }) ?? true {
            let base = Macros(planned[date]?.nutrients ?? Nutrients())
            let taken = (planned[date]?.slots ?? []).union(eaten[date] ?? [])
            var current = base
            for slot in slots where !taken.contains(slot) {
                let before = current.distance(to: target), fromBase = base.distance(to: target)
                var best: (index: Int, distance: Decimal)?
                // Meals known to fit the slot first; those nothing is known about only when none of those will do.
                // Within each, meals that use stock before it goes off first.
                for (fit, soon) in [(2, true), (2, false), (1, true), (1, false)] where best == nil {
                    let fitting = eligible.indices.filter { eligible[$0].fit(slot) == fit }
                    let anyFresh = fitting.contains { !used.contains(eligible[$0].meal.id) }
                    for index in fitting where (!anyFresh || !used.contains(eligible[index].meal.id)) && eligible[index].usesSoon(on: date).isEmpty != soon {
                        let after = (current + amounts[index]).distance(to: target)
                        guard after < before, best.map({ after < $0.distance }) ?? true,
                              (base + amounts[index]).distance(to: target) <= fromBase else { continue }
                        best = (index, after)
                    }
                }
                guard let chosen = best?.index else { continue }
                used.insert(eligible[chosen].meal.id)
                current = current + amounts[chosen]
                result.append(Suggestion(date: date, mealType: slot, meal: eligible[chosen].meal, perServing: eligible[chosen].perServing,
                                         usesSoon: eligible[chosen].usesSoon(on: date)))
            }
        }
        return result
    }

    /// Energy and the three macros as plain numbers (unknown is 0), for the search above.
    struct Macros {
        var values: (Decimal, Decimal, Decimal, Decimal)
        init(_ n: Nutrients) { values = (n.energyKcal ?? 0, n.protein ?? 0, n.carbohydrates ?? 0, n.fat ?? 0) }
        init(_ g: Goals) { values = (g.energyKcal, g.protein, g.carbohydrates, g.fat) }
        init(_ v: (Decimal, Decimal, Decimal, Decimal)) { values = v }
        static func + (a: Macros, b: Macros) -> Macros {
            Macros((a.values.0 + b.values.0, a.values.1 + b.values.1, a.values.2 + b.values.2, a.values.3 + b.values.3))
        }
        /// ``GoalStanding/distance(_:goals:)`` of these amounts against `goal`'s.
        func distance(to goal: Macros) -> Decimal {
            func part(_ amount: Decimal, _ target: Decimal) -> Decimal {
                let gap = amount > target ? amount - target : target - amount
                return target > 0 ? gap / target : gap
            }
            return part(values.0, goal.values.0) + part(values.1, goal.values.1) + part(values.2, goal.values.2) + part(values.3, goal.values.3)
        }
    }

    /// Longest ago first (never planned before all), then by description and id.
    private static func order(_ c: Candidate) -> (String, String, String) {
        (c.lastPlanned?.iso ?? "", MealOrdering.sortKey(description: c.meal.description), c.meal.id.uuidString)
    }
}

extension PlanSuggester {
    /// What a person asks "Fill my week" for, checked: how many days, which slots, which meals.
    public struct Ask: Hashable, Sendable {
        /// Days × meal slots filled in one request: a month of three meals a day.
        public static let maximumSlots = 31 * 3
        /// At most this many meal types asked for, and this many components in the filter.
        public static let maximumMealTypes = 20, maximumComponents = 30
        /// A filter's protein, carb or component is at most this long.
        public static let maximumFilterLength = 200

        public let length: Int
        /// Meal type keys to fill, in the order asked, each once.
        public let slots: [String]
        public let filter: MealFilter

        /// - Parameters:
        ///   - days: the window's length; the planner's week when not given.
        ///   - mealTypes: keys or ids of the person's types; none asked is breakfast, lunch and dinner
        ///     (those of them the person has not hidden).
        public init(days: Int?, mealTypes: [String]?, protein: String?, carb: String?, components: [String]?,
                    types: MealTypeCatalog) throws(ValidationError) {
            let length = days ?? WeekWindow.defaultLength
            guard (1...WeekWindow.maximumLength).contains(length) else {
                throw ValidationError(field: "days", "days must be between 1 and \(WeekWindow.maximumLength); got \(length).")
            }
            var slots: [String] = []
            if let asked = mealTypes, !asked.isEmpty {
                guard asked.count <= Self.maximumMealTypes else {
                    throw ValidationError(field: "mealTypes", "Give at most \(Self.maximumMealTypes) meal types.")
                }
                for token in asked {
                    if let problem = types.problem(token, field: "mealTypes") { throw ValidationError([problem]) }
                    if let key = types.normalized(token), !slots.contains(key) { slots.append(key) }
                }
            } else {
                slots = PlanSuggester.defaultSlots.compactMap { types.resolve($0).flatMap { $0.hidden ? nil : types.normalized($0.token) } }
            }
            guard length * max(slots.count, 1) <= Self.maximumSlots else {
                throw ValidationError(field: "days", "Ask for at most \(Self.maximumSlots) slots at once (days × meal types); got \(length * slots.count).")
            }
            let filter = MealFilter(protein: protein, carb: carb, components: components ?? [])
            guard filter.components.count <= Self.maximumComponents,
                  ([filter.protein, filter.carb].compactMap { $0 } + filter.components).allSatisfy({ $0.count <= Self.maximumFilterLength }) else {
                throw ValidationError(field: "component", "Filters are at most \(Self.maximumFilterLength) characters, and at most \(Self.maximumComponents) components.")
            }
            self.length = length
            self.slots = slots
            self.filter = filter
        }
    }
}
