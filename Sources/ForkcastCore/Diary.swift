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
