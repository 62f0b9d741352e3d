import Foundation

/// A day of the diary: entries by meal type, totals, goals and what remains (which may go negative).
public struct DiaryDay: Hashable, Sendable {
    public struct Group: Hashable, Sendable {
        public let mealType: MealType
        public let entries: [DiaryEntry]
        public var totals: Nutrients { entries.reduce(Nutrients.zero) { $0 + $1.nutrients } }
    }

    public let date: CalendarDate
    public let groups: [Group]
    public let totals: Nutrients
    public let cost: Decimal?
    public let goals: Goals
    public let remaining: Nutrients
    /// Entries whose nutrition is not counted yet (photos to complete).
    public let uncounted: Int
    /// Per nutrient, the counted entries that do not know it.
    public let missing: [Nutrient: Int]

    /// Groups for every offered type (in the person's order) and for hidden or unknown types that
    /// have entries that day.
    public init(date: CalendarDate, entries: [DiaryEntry], goals: Goals, types: MealTypeCatalog) {
        self.date = date
        let sorted = entries.sorted { ($0.loggedAt, $0.id.uuidString) < ($1.loggedAt, $1.id.uuidString) }
        let byType = Dictionary(grouping: sorted, by: { types.normalized($0.mealType) ?? $0.mealType })
        var groups = types.all.compactMap { type -> Group? in
            let entries = byType[type.token] ?? []
            return type.hidden && entries.isEmpty ? nil : Group(mealType: type, entries: entries)
        }
        for (token, entries) in byType where types.resolve(token) == nil {
            groups.append(Group(mealType: MealType(id: StableID.make("unknown-meal-type", token), key: token, name: token, window: nil,
                                                   position: Int.max, createdAt: .distantPast, updatedAt: .distantPast), entries: entries))
        }
        self.groups = groups
        uncounted = entries.filter { !$0.isCounted }.count
        totals = Self.total(of: entries)
        missing = NutrientTotals.of(entries.filter(\.isCounted).map(\.nutrients)).unknown
        cost = Self.cost(of: entries)
        self.goals = goals
        remaining = Nutrients(energyKcal: goals.energyKcal - (totals.energyKcal ?? 0), protein: goals.protein - (totals.protein ?? 0),
                              carbohydrates: goals.carbohydrates - (totals.carbohydrates ?? 0), fat: goals.fat - (totals.fat ?? 0))
    }

    /// Calories, protein, carbohydrates and fat of all entries (0 when nothing is logged).
    public static func total(of entries: [DiaryEntry]) -> Nutrients {
        entries.reduce(Nutrients.zero) { $0 + $1.nutrients }
    }

    /// What the entries cost, when any has a price.
    public static func cost(of entries: [DiaryEntry]) -> Decimal? {
        let costs = entries.compactMap(\.cost)
        return costs.isEmpty ? nil : costs.reduce(0, +)
    }
}

/// The foods a person logs usually, offered first on the plate: half of them the most recently
/// logged, the rest the most often logged over the last ``window`` (newest first among equals).
public enum UsualFoods {
    /// How far back logging counts.
    public static let window: TimeInterval = 90 * 24 * 3600

    /// How often a food was logged in the window, and when last (in one meal type, when known).
    public struct Use: Sendable, Hashable {
        public let foodID: UUID
        public let count: Int
        public let last: Date
        /// The meal type these loggings were in; nil when counted over all of them.
        public let mealType: String?

        public init(foodID: UUID, count: Int, last: Date, mealType: String? = nil) {
            self.foodID = foodID
            self.count = count
            self.last = last
            self.mealType = mealType
        }
    }

    /// The chips for one meal type: that meal type's own history first (most often,
    /// then most recent, always with the food logged there last), then the foods of every meal
    /// type by ``rank(_:limit:)``. `uses` are per food and meal type; Greek yogurt eaten at 20 of
    /// 21 breakfasts leads Breakfast's chips even when cheese was logged more often at other meals.
    public static func rank(_ uses: [Use], for mealType: String, limit: Int = 6) -> [UUID] {
        let limit = max(0, limit)
        let here = uses.filter { $0.mealType == mealType }
        let byCount = here.sorted { ($0.count, $0.last, $0.foodID.uuidString) > ($1.count, $1.last, $1.foodID.uuidString) }.map(\.foodID)
        var first = Array(byCount.prefix(limit))
        if let latest = here.max(by: { ($0.last, $0.foodID.uuidString) < ($1.last, $1.foodID.uuidString) })?.foodID,
           !first.contains(latest), !first.isEmpty {
            first[first.count - 1] = latest
        }
        let overall = Dictionary(grouping: uses, by: \.foodID).map { id, all in
            Use(foodID: id, count: all.reduce(0) { $0 + $1.count }, last: all.map(\.last).max() ?? .distantPast)
        }
        var seen = Set<UUID>()
        return Array((first + rank(overall, limit: limit + first.count)).filter { seen.insert($0).inserted }.prefix(limit))
    }

    /// Distinct food ids, at most `limit`: the `limit / 2` most recent, then the most frequent.
    public static func rank(_ uses: [Use], limit: Int = 6) -> [UUID] {
        let recent = uses.sorted { ($0.last, $0.foodID.uuidString) > ($1.last, $1.foodID.uuidString) }.prefix(limit / 2).map(\.foodID)
        let frequent = uses.sorted { ($0.count, $0.last, $0.foodID.uuidString) > ($1.count, $1.last, $1.foodID.uuidString) }.map(\.foodID)
        var seen = Set<UUID>()
        return Array((recent + frequent).filter { seen.insert($0).inserted }.prefix(max(0, limit)))
    }
}

/// The average of a range of days' calories (the Today chart): only days with entries count, and
/// today (still under way) only when it is the only one (a half-eaten day pulled the
/// week's average down).
public enum DailyAverage {
    public struct Day: Sendable, Equatable {
        public let date: CalendarDate
        public let energyKcal: Decimal
        public let entries: Int
        public init(date: CalendarDate, energyKcal: Decimal, entries: Int) {
            self.date = date
            self.energyKcal = energyKcal
            self.entries = entries
        }
    }

    /// The average and the days it is over; nil when no day has entries.
    public static func of(_ days: [Day], today: CalendarDate) -> (energyKcal: Decimal, days: [CalendarDate], leftOutToday: Bool)? {
        let logged = days.filter { $0.entries > 0 }
        guard !logged.isEmpty else { return nil }
        let full = logged.filter { $0.date != today }
        let counted = full.isEmpty ? logged : full
        let total = counted.reduce(Decimal(0)) { $0 + $1.energyKcal }
        return (total / Decimal(counted.count), counted.map(\.date), counted.count < logged.count)
    }
}
