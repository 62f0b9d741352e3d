import ForkcastCore
import Foundation
import PropertyBased
import Testing

extension ShoppingAndSuggestionTests {
    // MARK: Fill my week

    static let goals = Goals(energyKcal: 2000, protein: 100, carbohydrates: 250, fat: 70)

    /// Meals with nutrition per serving drawn from a small range, and components from the shared vocabulary.
    static let candidate = zip(Gens.meal, Gen.int(in: 0...1200), Gen.int(in: 0...80), Gen.int(in: 0...150), Gen.int(in: 0...60), Gen.int(in: 0...40).optional)
        .map { meal, kcal, protein, carbs, fat, ago in
            PlanSuggester.Candidate(meal: meal, perServing: Nutrients(energyKcal: Decimal(kcal), protein: Decimal(protein), carbohydrates: Decimal(carbs), fat: Decimal(fat)),
                                    lastPlanned: ago.map { CalendarDate(iso: "2026-11-01")!.adding(days: $0) })
        }

    static let planned = zip(Gen.int(in: 0...2500), Gen.bool).map { kcal, lunch in
        (nutrients: Nutrients(energyKcal: Decimal(kcal), protein: Decimal(kcal / 25), carbohydrates: Decimal(kcal / 8), fat: Decimal(kcal / 30)),
         slots: lunch ? Set(["lunch"]) : Set<String>(), meals: Set<UUID>())
    }

    static func suggest(_ library: [PlanSuggester.Candidate], _ filter: MealFilter, plannedDays: [(nutrients: Nutrients, slots: Set<String>, meals: Set<UUID>)])
        -> (dates: [CalendarDate], planned: [CalendarDate: (nutrients: Nutrients, slots: Set<String>, meals: Set<UUID>)], result: [PlanSuggester.Suggestion]) {
        let dates = WeekWindow(start: monday).dates
        var planned: [CalendarDate: (nutrients: Nutrients, slots: Set<String>, meals: Set<UUID>)] = [:]
        for (date, day) in zip(dates, plannedDays) { planned[date] = day }
        return (dates, planned, PlanSuggester.suggest(dates: dates, slots: PlanSuggester.defaultSlots, planned: planned, library: library, filter: filter, goals: goals))
    }

    @Test("Property: a suggestion never breaks a filter (seed 000's rule, as the meal list applies it)")
    func suggestionsHonourFilters() async {
        await propertyCheck(count: 200, input: Self.candidate.array(of: 0...25), Gens.filter) { library, filter in
            let (_, _, result) = Self.suggest(library, filter, plannedDays: [])
            for suggestion in result { #expect(filter.accepts(suggestion.meal)) }
            if !library.contains(where: { filter.accepts($0.meal) }) { #expect(result.isEmpty) }
        }
    }

    @Test("Property: accepting a suggestion for a day never takes it further from its goals (one alone, or all of the day's)")
    func suggestionsNeverWorsenADay() async {
        await propertyCheck(count: 200, input: Self.candidate.array(of: 1...20), Self.planned.array(of: 0...7)) { library, plannedDays in
            let (_, planned, result) = Self.suggest(library, MealFilter(), plannedDays: plannedDays)
            for (date, suggestions) in Dictionary(grouping: result, by: \.date) {
                let base = planned[date]?.nutrients ?? Nutrients()
                let before = GoalStanding.distance(base, goals: Self.goals)
                for s in suggestions { #expect(GoalStanding.distance(base + s.perServing, goals: Self.goals) <= before) }
                let all = suggestions.reduce(base) { $0 + $1.perServing }
                #expect(GoalStanding.distance(all, goals: Self.goals) <= before)
                #expect(!suggestions.contains { planned[date]?.slots.contains($0.mealType) == true }, "a planned slot is left alone")
            }
        }
    }

    @Test("Property: no meal twice in the window while another that fits is unused")
    func suggestionsDoNotRepeat() async {
        await propertyCheck(count: 200, input: Self.candidate.array(of: 0...30)) { library in
            let (_, _, result) = Self.suggest(library, MealFilter(), plannedDays: [])
            let ids = result.map(\.meal.id)
            if Set(ids).count < ids.count {
                // A repeat only once every meal of the library is used.
                let firstRepeat = ids.indices.first { i in ids[..<i].contains(ids[i]) }!
                #expect(Set(ids[..<firstRepeat]).count == Set(library.map(\.meal.id)).count)
            }
        }
    }

    @Test("Ties go to the meal planned longest ago, a never-planned one first")
    func recentMealsLast() {
        func meal(_ name: String) -> Meal { Meal(description: name) }
        let n = Nutrients(energyKcal: 600, protein: 30, carbohydrates: 70, fat: 20)
        let recent = PlanSuggester.Candidate(meal: meal("A recent"), perServing: n, lastPlanned: CalendarDate(iso: "2026-11-28"))
        let old = PlanSuggester.Candidate(meal: meal("B old"), perServing: n, lastPlanned: CalendarDate(iso: "2026-10-01"))
        let never = PlanSuggester.Candidate(meal: meal("C never"), perServing: n, lastPlanned: nil)
        let result = PlanSuggester.suggest(dates: [Self.monday], slots: PlanSuggester.defaultSlots, planned: [:], library: [recent, old, never],
                                           filter: MealFilter(), goals: Self.goals)
        #expect(result.map(\.meal.description) == ["C never", "B old", "A recent"])
    }

    @Test("Meals that use pantry stock before it goes off come first, up to its best-before, and say so")
    func soonStockFirst() throws {
        let spinach = UUID(), oats = UUID()
        let tuesday = Self.monday.adding(days: 1)
        let curry = Meal(description: "Spinach curry", ingredients: [Ingredient(foodId: spinach, quantity: 200, unit: .gram)])
        let porridge = Meal(description: "Porridge", ingredients: [Ingredient(foodId: oats, quantity: 80, unit: .gram)])
        let lots = [
            PantryItem(id: UUID(), foodId: spinach, amount: 300, unit: .gram, bestBefore: tuesday, createdAt: Date(), updatedAt: Date()),
            PantryItem(id: UUID(), foodId: oats, amount: 500, unit: .gram, bestBefore: Self.monday.adding(days: 200), createdAt: Date(), updatedAt: Date()),
            PantryItem(id: UUID(), foodId: spinach, amount: 0.5, unit: .gram, bestBefore: Self.monday.adding(days: -1), createdAt: Date(), updatedAt: Date()),
        ]
        let foods = [spinach: Food(id: spinach, name: "Spinach", basis: .gram, per100: Nutrients()),
                     oats: Food(id: oats, name: "Oats", basis: .gram, per100: Nutrients())]
        let soon = PantryRules.soonFoods([curry, porridge], foods: foods, lots: lots, today: Self.monday)
        #expect(soon[curry.id]?.map(\.name) == ["Spinach"] && soon[curry.id]?.first?.bestBefore == tuesday, "the earliest date not gone by")
        #expect(soon[porridge.id] == nil, "oats keep for months")
        // The porridge is nearer the goals; the curry still goes first while the spinach keeps.
        let near = Nutrients(energyKcal: 650, protein: 33, carbohydrates: 80, fat: 23), far = Nutrients(energyKcal: 300, protein: 10, carbohydrates: 30, fat: 10)
        let library = [PlanSuggester.Candidate(meal: porridge, perServing: near, lastPlanned: nil, slots: ["dinner"]),
                       PlanSuggester.Candidate(meal: curry, perServing: far, lastPlanned: nil, slots: ["dinner"], soon: soon[curry.id] ?? [])]
        let first = PlanSuggester.suggest(dates: [Self.monday], slots: ["dinner"], planned: [:], library: library, filter: MealFilter(), goals: Self.goals)
        #expect(first.map(\.meal.description) == ["Spinach curry"])
        #expect(first.first?.usesSoon.map(\.name) == ["Spinach"])
        let later = PlanSuggester.suggest(dates: [Self.monday.adding(days: 2)], slots: ["dinner"], planned: [:], library: library, filter: MealFilter(), goals: Self.goals)
        #expect(later.map(\.meal.description) == ["Porridge"], "after its best-before the spinach is no reason")
        #expect(later.first?.usesSoon == [])
    }

    @Test("A suggestion fits its slot, skips slots already eaten and days gone by")
    func suggestionsFitTheirSlots() {
        let n = Nutrients(energyKcal: 600, protein: 30, carbohydrates: 70, fat: 20)
        let cod = PlanSuggester.Candidate(meal: Meal(description: "Cod skewers"), perServing: n, lastPlanned: nil, slots: ["dinner"])
        let gratin = PlanSuggester.Candidate(meal: Meal(description: "Lamb gratin"), perServing: n, lastPlanned: nil, slots: ["dinner", "lunch"])
        let porridge = PlanSuggester.Candidate(meal: Meal(description: "Porridge"), perServing: n, lastPlanned: nil, slots: ["breakfast"])
        let tuesday = Self.monday.adding(days: 1)
        let result = PlanSuggester.suggest(dates: [Self.monday, tuesday], slots: PlanSuggester.defaultSlots, planned: [:], library: [cod, gratin, porridge],
                                           filter: MealFilter(), goals: Self.goals)
        for s in result {
            #expect(s.mealType != "breakfast" || s.meal.description == "Porridge", "no dinner at breakfast: \(s.meal.description)")
            #expect(s.mealType != "lunch" || s.meal.description == "Lamb gratin", "only a meal known at lunch: \(s.meal.description)")
        }
        #expect(result.contains { $0.mealType == "breakfast" && $0.date == Self.monday })
        // Monday's breakfast already eaten, Monday itself gone by: neither is filled.
        let eaten = PlanSuggester.suggest(dates: [Self.monday, tuesday], slots: PlanSuggester.defaultSlots, planned: [:], library: [cod, gratin, porridge],
                                          filter: MealFilter(), goals: Self.goals, eaten: [tuesday: ["breakfast"]], today: tuesday)
        #expect(!eaten.contains { $0.date == Self.monday }, "a day gone by is left alone")
        #expect(!eaten.contains { $0.date == tuesday && $0.mealType == "breakfast" }, "breakfast eaten already")
        #expect(eaten.contains { $0.date == tuesday && $0.mealType == "dinner" })
        // A meal nothing is known about fills a slot no known meal fits.
        let stew = PlanSuggester.Candidate(meal: Meal(description: "New stew"), perServing: n, lastPlanned: nil)
        let unknown = PlanSuggester.suggest(dates: [Self.monday], slots: ["breakfast"], planned: [:], library: [cod, stew], filter: MealFilter(), goals: Self.goals)
        #expect(unknown.map(\.meal.description) == ["New stew"])
    }

    @Test("What is asked of Fill my week: days, slots (the person's, each once), filters; each bound named")
    func askingForSuggestions() throws {
        var catalog = MealTypeCatalog.defaults(owner: UUID(), now: Date(timeIntervalSince1970: 0))
        let plain = try PlanSuggester.Ask(days: nil, mealTypes: nil, protein: " Chicken ", carb: nil, components: [" ", "Garlic"], types: catalog)
        #expect(plain.length == WeekWindow.defaultLength && plain.slots == ["breakfast", "lunch", "dinner"])
        #expect(plain.filter == MealFilter(protein: "Chicken", components: ["Garlic"]))
        let asked = try PlanSuggester.Ask(days: 3, mealTypes: ["DINNER", "dinner", "snack"], protein: nil, carb: nil, components: nil, types: catalog)
        #expect(asked.slots == ["dinner", "snack"], "each slot once, in the order asked")
        let breakfast = try #require(catalog.all.first { $0.key == "breakfast" })
        var hidden = breakfast
        hidden.hidden = true
        catalog = MealTypeCatalog(catalog.all.map { $0.id == breakfast.id ? hidden : $0 })
        #expect(try PlanSuggester.Ask(days: 1, mealTypes: nil, protein: nil, carb: nil, components: nil, types: catalog).slots == ["lunch", "dinner"],
                "a hidden type is not filled unless asked for")
        func refusal(days: Int? = 7, types: [String]? = nil, protein: String? = nil, components: [String]? = nil) -> [String]? {
            do { _ = try PlanSuggester.Ask(days: days, mealTypes: types, protein: protein, carb: nil, components: components, types: catalog) }
            catch { return error.fields.map(\.field) }
            return nil  // accepted
        }
        #expect(refusal(days: 0) == ["days"] && refusal(days: Int.max) == ["days"] && refusal(days: -1) == ["days"])
        #expect(refusal(days: 31, types: ["breakfast", "lunch", "dinner", "snack"]) == ["days"], "124 slots is more than a month of three meals")
        #expect(refusal(types: ["Elevenses"]) == ["mealTypes"])
        #expect(refusal(types: Array(repeating: "lunch", count: 21)) == ["mealTypes"])
        #expect(refusal(protein: String(repeating: "é", count: 201)) == ["component"])
        #expect(refusal(components: (0...30).map { "c\($0)" }) == ["component"])
    }
}
