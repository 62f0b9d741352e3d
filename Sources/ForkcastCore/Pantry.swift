import Foundation

/// One lot of a food the household has: an amount in the food's own unit (grams or millilitres),
/// where it is, and when it goes off. Two packs with different dates are two lots.
public struct PantryItem: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public var foodId: UUID
    /// In `unit`, the food's basis (g or ml); never below zero.
    public var amount: Decimal
    public var unit: NutritionBasis
    public var location: String
    public var bestBefore: CalendarDate?
    public var opened: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, foodId: UUID, amount: Decimal, unit: NutritionBasis, location: String = PantryLocation.cupboard,
                bestBefore: CalendarDate? = nil, opened: Bool = false, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.foodId = foodId
        self.amount = amount
        self.unit = unit
        self.location = location
        self.bestBefore = bestBefore
        self.opened = opened
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Amounts a lot may hold (a tonne of flour is plenty; zero is an empty lot, which goes).
    public static let amountRange = PlausibleRange(0, 1_000_000, lowerExclusive: true)
    /// Best-before dates are taken up to this many years ahead (tins keep for years; 9999 is a typo).
    public static let bestBeforeYears = 30
    /// Lots in one household's pantry.
    public static let maximumItems = 5_000
    /// "Use soon": lots that go off within this many days (Today, the pantry page, Fill my week).
    public static let soonDays = 3

    /// Whether it goes off within ``soonDays`` of `today` (or went off already).
    public func useSoon(today: CalendarDate) -> Bool { expires(within: Self.soonDays, of: today) }

    /// Whether it goes off within `days` of `today` (or went off already).
    public func expires(within days: Int, of today: CalendarDate) -> Bool {
        guard let bestBefore else { return false }
        return today.days(until: bestBefore) <= days
    }
}

/// Where a lot is kept: the three everyone has, or a place the household names.
public enum PantryLocation {
    public static let fridge = "Fridge", freezer = "Freezer", cupboard = "Cupboard"
    public static let usual = [fridge, freezer, cupboard]
    public static let maximumLength = 40
}

/// Why an amount left the pantry by hand.
public enum PantryUseReason: String, Sendable, Codable, CaseIterable, Hashable {
    case eaten, discarded
}

/// An amount taken out of a lot by hand, kept so the pantry page can count a month's waste.
public struct PantryUse: Hashable, Sendable, Codable {
    public var foodId: UUID
    public var amount: Decimal
    public var unit: NutritionBasis
    public var reason: PantryUseReason
    /// What the amount cost, from the food's price when it has one.
    public var cost: Decimal?
    public var at: Date

    public init(foodId: UUID, amount: Decimal, unit: NutritionBasis, reason: PantryUseReason, cost: Decimal?, at: Date) {
        self.foodId = foodId
        self.amount = amount
        self.unit = unit
        self.reason = reason
        self.cost = cost
        self.at = at
    }
}

/// The rules of the pantry: what a lot may hold and how using a food takes from its lots.
public enum PantryRules {
    /// The units an amount may be given in: the food's basis, servings, or pieces (one serving each).
    public static func unit(named text: String?) -> QuantityUnit? {
        guard let word = text?.trimmed.lowercased(), !word.isEmpty else { return nil }
        switch word {
        case "piece", "pieces", "pc", "pcs", "servings": return .serving
        default: return QuantityUnit(rawValue: word)
        }
    }

    /// `quantity` of `unitText` of the food in its basis unit; throws naming `amount` or `unit`.
    /// No unit means the food's basis.
    public static func basisAmount(of food: Food, quantity: Decimal, unitText: String?) throws(ValidationError) -> Decimal {
        let unit: QuantityUnit
        if let text = unitText?.trimmed, !text.isEmpty {
            guard let named = Self.unit(named: text) else {
                throw ValidationError(field: "unit", "Give the amount in g, ml, servings or pieces; \"\(String(text.prefix(20)))\" is none of these.")
            }
            unit = named
        } else {
            unit = food.basis == .milliliter ? .milliliter : .gram
        }
        guard !quantity.isNaN, quantity > 0 else { throw ValidationError(field: "amount", "The amount must be above 0; got \(quantity).") }
        let amount: Decimal
        do { amount = try FoodMath.basisAmount(of: food, quantity: quantity, unit: unit) } catch {
            throw ValidationError(field: "unit", error.message)
        }
        guard PantryItem.amountRange.contains(amount) else {
            throw ValidationError(field: "amount", PantryItem.amountRange.message("An amount") + " (\(food.basis.rawValue); got \(amount)).")
        }
        return amount
    }

    /// The place and date as kept; throws naming `location` or `bestBefore`.
    public static func validated(location: String?, bestBefore: CalendarDate?, today: CalendarDate) throws(ValidationError) -> (location: String, bestBefore: CalendarDate?) {
        var problems: [ValidationError.Field] = []
        let place = location?.trimmed.nilIfEmptyString ?? PantryLocation.cupboard
        if place.count > PantryLocation.maximumLength {
            problems.append(.init(field: "location", message: "A place is at most \(PantryLocation.maximumLength) characters; this one has \(place.count)."))
        }
        if let bestBefore, today.days(until: bestBefore) > PantryItem.bestBeforeYears * 366 {
            problems.append(.init(field: "bestBefore", message: "A best-before date is at most \(PantryItem.bestBeforeYears) years ahead; \(bestBefore.iso) is not."))
        }
        if !problems.isEmpty { throw ValidationError(problems) }
        let usual = PantryLocation.usual.first { $0.matchKey == place.matchKey }
        return (usual ?? place, bestBefore)
    }

    /// The order lots are used in: the one that goes off first, opened before closed, then oldest.
    public static func usingOrder(_ lots: [PantryItem]) -> [PantryItem] {
        lots.sorted { a, b in
            switch (a.bestBefore, b.bestBefore) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: break
            }
            if a.opened != b.opened { return a.opened }
            return (a.createdAt, a.id.uuidString) < (b.createdAt, b.id.uuidString)
        }
    }

    /// Taking `needed` (basis units) of a food from its lots.
    public struct Taking: Hashable, Sendable {
        /// The lots changed, with what is left in each (zero: the lot is used up and goes).
        public var left: [PantryItem]
        public var taken: Decimal
        /// What the lots did not hold.
        public var short: Decimal
    }

    /// Takes from the lot that expires first, then the next; never below zero.
    public static func take(_ needed: Decimal, from lots: [PantryItem], now: Date) -> Taking {
        var remaining = max(0, needed)
        var left: [PantryItem] = []
        for var lot in usingOrder(lots) where remaining > 0 && lot.amount > 0 {
            let part = min(lot.amount, remaining)
            lot.amount -= part
            lot.opened = lot.opened || lot.amount > 0
            lot.updatedAt = now
            remaining -= part
            left.append(lot)
        }
        return Taking(left: left, taken: max(0, needed) - remaining, short: remaining)
    }
}

extension PantryRules {
    /// What was thrown away among `uses`: grams, millilitres and what it cost (priced foods only).
    public static func waste(_ uses: [PantryUse]) -> (grams: Decimal, milliliters: Decimal, cost: Decimal) {
        var result: (grams: Decimal, milliliters: Decimal, cost: Decimal) = (0, 0, 0)
        for use in uses where use.reason == .discarded {
            if use.unit == .gram { result.grams += use.amount } else { result.milliliters += use.amount }
            result.cost += use.cost ?? 0
        }
        return result
    }

    /// The first day of `today`'s month: the waste shown counts from there.
    public static func monthStart(of today: CalendarDate) -> CalendarDate {
        CalendarDate(year: today.year, month: today.month, day: 1) ?? today
    }
}

extension PantryRules {
    /// A meal the pantry can make as written, or all but one of its foods (`missing`, by name).
    public struct Cookable: Hashable, Sendable {
        public let meal: Meal
        public let missing: String?
    }

    /// "What can I cook now": meals with foods among their ingredients whose every food the pantry
    /// holds enough of for the recipe's own servings (missing at most one, named), the complete
    /// ones first, then by name. `stock`: each food's lots summed, in its g or ml. An amount that
    /// cannot be weighed (servings of a food without a serving size) counts as held when any is.
    /// Each meal's ingredients that the pantry holds in a lot to use soon (not gone off yet), with
    /// the earliest such best-before (Fill my week prefers these meals).
    public static func soonFoods(_ meals: [Meal], foods: [UUID: Food], lots: [PantryItem], today: CalendarDate) -> [UUID: [PlanSuggester.SoonFood]] {
        var earliest: [UUID: CalendarDate] = [:]
        for lot in lots where lot.amount > 0 && lot.useSoon(today: today) {
            guard let date = lot.bestBefore, date >= today else { continue }
            earliest[lot.foodId] = min(earliest[lot.foodId] ?? date, date)
        }
        guard !earliest.isEmpty else { return [:] }
        var result: [UUID: [PlanSuggester.SoonFood]] = [:]
        for meal in meals {
            let soon = Set(meal.ingredients.map(\.foodId)).compactMap { id in
                earliest[id].map { PlanSuggester.SoonFood(foodId: id, name: foods[id]?.name ?? "", bestBefore: $0) }
            }
            if !soon.isEmpty { result[meal.id] = soon.sorted { ($0.bestBefore, $0.name) < ($1.bestBefore, $1.name) } }
        }
        return result
    }

    public static func cookable(_ meals: [Meal], foods: [UUID: Food], stock: [UUID: Decimal]) -> [Cookable] {
        var found: [Cookable] = []
        for meal in meals where !meal.ingredients.isEmpty {
            var missing: [String] = [], counted = 0
            for ingredient in meal.ingredients {
                guard let food = foods[ingredient.foodId] else { continue }
                counted += 1
                let held = stock[food.id] ?? 0
                let needed = (try? FoodMath.basisAmount(of: food, quantity: ingredient.quantity, unit: ingredient.unit)) ?? (held > 0 ? 0 : 1)
                if held < needed || held == 0 { missing.append(food.name) }
            }
            if counted > 0, missing.count <= 1 { found.append(Cookable(meal: meal, missing: missing.first)) }
        }
        return found.sorted { ($0.missing == nil ? 0 : 1, $0.meal.description.matchKey) < ($1.missing == nil ? 0 : 1, $1.meal.description.matchKey) }
    }
}
