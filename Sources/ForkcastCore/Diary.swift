import Foundation

/// Something eaten. Name, nutrition and cost are copied in when logged, so later edits to a food or
/// meal do not rewrite history.
public struct DiaryEntry: Identifiable, Hashable, Sendable, Codable {
    public enum Kind: Hashable, Sendable, Codable {
        case food(foodId: UUID, quantity: Decimal, unit: QuantityUnit)
        case meal(mealId: UUID, servings: Decimal)
        case quickAdd
        /// A photo of what was eaten, not counted yet (no nutrition until it is completed from a
        /// food, a meal or a quick add).
        case photo
    }

    public let id: UUID
    public var loggedAt: Date
    /// The calendar day in the user's time zone when it was logged.
    public var date: CalendarDate
    public var mealType: String
    public var note: String?
    public var kind: Kind
    public var name: String
    public var nutrients: Nutrients
    public var cost: Decimal?
    /// The photo it shows (at most one; seed 004).
    public var photoId: UUID?

    public init(id: UUID = UUID.timeOrdered(), loggedAt: Date, date: CalendarDate, mealType: String, note: String? = nil, kind: Kind,
                name: String, nutrients: Nutrients, cost: Decimal? = nil, photoId: UUID? = nil) {
        self.id = id
        self.loggedAt = loggedAt
        self.date = date
        self.mealType = mealType
        self.note = note
        self.kind = kind
        self.name = name
        self.nutrients = nutrients
        self.cost = cost
        self.photoId = photoId
    }

    /// Whether its nutrition counts yet (a photo entry does not until it is completed).
    public var isCounted: Bool { kind != .photo }

    /// The occasion it belongs to.
    public func occasionId(owner: UUID) -> UUID { Occasion.id(owner: owner, date: date, mealType: mealType) }

    /// The default name of a photo entry.
    public static let photoName = "Photo"
    /// The default name of a quick add (the offline queue shows the same until the server answers).
    public static let quickAddName = "Quick add"
    /// Servings of a meal logged when none are given (a planned meal, a meal on the plate).
    public static let defaultServings: Decimal = 1
    /// The most of a typed name (a quick add's or a photo's) that is kept.
    public static let typedNameLength = 120

    /// An entry for an amount of a food, with the food's values copied in.
    public static func food(_ food: Food, quantity: Decimal, unit: QuantityUnit, id: UUID = UUID.timeOrdered(), loggedAt: Date, date: CalendarDate,
                            mealType: String, note: String? = nil) throws(FoodMath.ConversionError) -> DiaryEntry {
        DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note,
                   kind: .food(foodId: food.id, quantity: quantity, unit: unit), name: food.name,
                   nutrients: try FoodMath.nutrients(of: food, quantity: quantity, unit: unit),
                   cost: try FoodMath.cost(of: food, quantity: quantity, unit: unit))
    }

    /// An entry for servings of a meal, with the meal's per-serving values copied in.
    public static func meal(_ meal: Meal, totals: MealTotals, servings: Decimal, id: UUID = UUID.timeOrdered(), loggedAt: Date, date: CalendarDate,
                            mealType: String, note: String? = nil) -> DiaryEntry {
        DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, kind: .meal(mealId: meal.id, servings: servings),
                   name: meal.description, nutrients: totals.perServing.scaled(by: servings),
                   cost: totals.costPerServing.map { $0 * servings })
    }
}

/// Checks the values of an entry that the person typed.
extension DiaryEntry {
    /// The same food, amount and values eaten again at another time and meal type.
    public func copied(id: UUID, loggedAt: Date, date: CalendarDate, mealType: String) -> DiaryEntry {
        DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, kind: kind, name: name,
                   nutrients: nutrients, cost: cost)
    }

    /// Whether changing this entry to `edited` moves it to another occasion because its time or day
    /// changed (seed 004 §7: the person confirms such a move first). A change of meal type alone is
    /// the person's explicit choice and needs no confirmation.
    public func timeEditMovesOccasion(to edited: DiaryEntry) -> Bool {
        edited.loggedAt != loggedAt && (edited.date != date || edited.mealType != mealType)
    }
}

public enum DiaryValidation {
    /// A plate (seed 001's batch logging) holds at most this many items.
    public static let maximumPlateItems = 50
    /// The longest note an entry or a plate keeps.
    public static let maximumNoteLength = 500

    /// An entry is exactly one thing: an amount of a food, servings of a meal, or a quick add; or,
    /// with a photo, nothing yet (a photo entry, counted later).
    public static func kindProblem(food: Bool, meal: Bool, quickAdd: Bool, photo: Bool = false) -> ValidationError.Field? {
        let count = [food, meal, quickAdd].filter { $0 }.count
        return count == 1 || (count == 0 && photo) ? nil
            : .init(field: "foodId", message: "Give exactly one of: foodId with quantity and unit, mealId with servings, or quickAdd (or only a photoId, to count it later).")
    }

    /// A unit belongs to an amount of a food (or is "serving" beside a meal's servings, as entries
    /// are read back), and is one of ``QuantityUnit``'s: any other unit, or a unit sent without the
    /// food it measures, is refused rather than ignored.
    public static func unitProblem(_ unit: String?, food: Bool, meal: Bool = false) -> ValidationError.Field? {
        guard let unit else { return nil }
        guard let known = QuantityUnit(rawValue: unit) else {
            return .init(field: "unit", message: "unit must be \"g\", \"ml\" or \"serving\".")
        }
        if food || (meal && known == .serving) { return nil }
        return .init(field: "unit", message: meal ? "A meal is eaten in servings: leave unit out or send \"serving\"."
                                                   : "A unit measures a food: send the foodId with its quantity and unit.")
    }

    /// A plate needs 1 to ``maximumPlateItems`` items.
    public static func plateProblem(itemCount: Int) -> ValidationError.Field? {
        if itemCount == 0 { return .init(field: "items", message: "The plate is empty: add at least one food or meal.") }
        if itemCount > maximumPlateItems { return .init(field: "items", message: "A plate can hold at most \(maximumPlateItems) items.") }
        return nil
    }

    /// When something logged for `day` happened: now when it is today, else noon of that day in
    /// the person's zone (so it lands on that day whatever the zone). API and web alike.
    public static func loggedAt(for day: CalendarDate, today: CalendarDate, now: Date, in zone: TimeZone) -> Date {
        day == today ? now : day.instant(hour: 12, in: zone)
    }

    public static func check(mealType: String, in types: MealTypeCatalog, note: String?, quantity: Decimal? = nil, servings: Decimal? = nil,
                             quickAdd: Nutrients? = nil) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        if let p = types.problem(mealType) { problems.append(p) }
        if let note, note.count > maximumNoteLength { problems.append(.init(field: "note", message: "A note can be at most \(maximumNoteLength) characters.")) }
        if let p = Plausible.quantity.check(quantity, field: "quantity", label: "Quantity") { problems.append(p) }
        if let p = Plausible.servingsEaten.check(servings, field: "servings", label: "Servings") { problems.append(p) }
        if let q = quickAdd {
            if q.energyKcal == nil { problems.append(.init(field: "quickAdd.energyKcal", message: "A quick add needs its calories.")) }
            for field in q.fields {
                if let p = Plausible.quickAddValue.check(field.value, field: "quickAdd.\(field.name)", label: field.label) { problems.append(p) }
            }
        }
        return problems
    }
}

extension DiaryValidation {
    /// The most an entry's name can hold (a meal's description is the longest name it copies).
    public static let maximumNameLength = 200

    /// Problems of an entry read back from an export: the same limits as an entry logged now, and
    /// values a real entry can have (its values were copied from a food or meal when it was logged).
    public static func archived(_ entry: DiaryEntry, types: MealTypeCatalog) -> [ValidationError.Field] {
        var problems: [ValidationError.Field] = []
        switch entry.kind {
        case .food(_, let quantity, _): problems = check(mealType: entry.mealType, in: types, note: entry.note, quantity: quantity)
        case .meal(_, let servings): problems = check(mealType: entry.mealType, in: types, note: entry.note, servings: servings)
        case .quickAdd: problems = check(mealType: entry.mealType, in: types, note: entry.note, quickAdd: entry.nutrients)
        case .photo:
            problems = check(mealType: entry.mealType, in: types, note: entry.note)
            if entry.photoId == nil { problems.append(.init(field: "photoId", message: "A photo entry needs its photo.")) }
        }
        let name = entry.name.trimmed
        if name.isEmpty || name.count > maximumNameLength {
            problems.append(.init(field: "name", message: "An entry's name is 1 to \(maximumNameLength) characters."))
        }
        for (nutrient, value) in entry.nutrients.values.sorted(by: { $0.key < $1.key }) {
            if let p = Plausible.entryValue(of: nutrient).check(value, field: "nutrients.\(nutrient.rawValue)", label: nutrient.name) { problems.append(p) }
        }
        if let p = Plausible.entryCost.check(entry.cost, field: "cost", label: "Cost") { problems.append(p) }
        if let p = dateProblem(entry.date, loggedAt: entry.loggedAt) { problems.append(p) }
        return problems
    }

    /// An entry's day is its instant's day where it was logged. Time zones run from 12 hours behind
    /// UTC to 14 ahead, so whatever zone that was, the day is UTC's day of the instant or one beside it.
    public static func dateProblem(_ date: CalendarDate, loggedAt: Date) -> ValidationError.Field? {
        let utc = CalendarDate(loggedAt, in: TimeZone(identifier: "UTC")!)
        guard date < utc.adding(days: -1) || utc.adding(days: 1) < date else { return nil }
        return .init(field: "date", message: "The day \(date.iso) is not the day of loggedAt (\(utc.iso) in UTC) in any time zone.")
    }
}

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
