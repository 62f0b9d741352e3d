import Foundation

/// The nutrients Forkcast tracks: one definition (key, name, unit, daily value) that the API's
/// `GET /api/v1/nutrients`, the food form, totals, goals and every page read.
///
/// Daily values are the U.S. FDA's for adults and children 4 years and older (21 CFR 101.9(c),
/// 2016 revision), the reference food labels and USDA FoodData Central use; energy and the three
/// macronutrients take their targets from the person's goals instead.
public enum Nutrient: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case energyKcal, protein, carbohydrates, fat
    case fiber, sugars, saturatedFat, salt, cholesterol, sodium
    case potassium, calcium, iron, magnesium, zinc
    case vitaminA, vitaminC, vitaminD, vitaminE, vitaminK, vitaminB6, vitaminB12
    case thiamin, riboflavin, niacin, folate

    public enum Unit: String, Sendable, Codable, CaseIterable {
        case kcal, g, mg, µg = "µg"
        /// How many of this unit make a gram.
        public var perGram: Decimal {
            switch self {
            case .kcal, .g: 1
            case .mg: 1000
            case .µg: 1_000_000
            }
        }
    }

    /// Whether a day should reach the daily value (fibre, vitamins, minerals) or stay below it
    /// (sodium, saturated fat, sugars, cholesterol).
    public enum Direction: String, Sendable, Codable, CaseIterable {
        case atLeast, atMost, goal
    }

    public enum Group: String, Sendable, Codable, CaseIterable {
        case energy, macronutrients, carbohydrates, fats, minerals, vitamins
    }

    public var name: String {
        switch self {
        case .energyKcal: "Energy"
        case .protein: "Protein"
        case .carbohydrates: "Carbohydrates"
        case .fat: "Fat"
        case .fiber: "Fibre"
        case .sugars: "Sugars"
        case .saturatedFat: "Saturated fat"
        case .salt: "Salt"
        case .cholesterol: "Cholesterol"
        case .sodium: "Sodium"
        case .potassium: "Potassium"
        case .calcium: "Calcium"
        case .iron: "Iron"
        case .magnesium: "Magnesium"
        case .zinc: "Zinc"
        case .vitaminA: "Vitamin A"
        case .vitaminC: "Vitamin C"
        case .vitaminD: "Vitamin D"
        case .vitaminE: "Vitamin E"
        case .vitaminK: "Vitamin K"
        case .vitaminB6: "Vitamin B6"
        case .vitaminB12: "Vitamin B12"
        case .thiamin: "Thiamin (B1)"
        case .riboflavin: "Riboflavin (B2)"
        case .niacin: "Niacin (B3)"
        case .folate: "Folate"
        }
    }

    public var unit: Unit {
        switch self {
        case .energyKcal: .kcal
        case .protein, .carbohydrates, .fat, .fiber, .sugars, .saturatedFat, .salt: .g
        case .cholesterol, .sodium, .potassium, .calcium, .iron, .magnesium, .zinc: .mg
        case .vitaminC, .vitaminE, .vitaminB6, .thiamin, .riboflavin, .niacin: .mg
        case .vitaminA, .vitaminD, .vitaminK, .vitaminB12, .folate: .µg
        }
    }

    public var group: Group {
        switch self {
        case .energyKcal: .energy
        case .protein, .carbohydrates, .fat: .macronutrients
        case .fiber, .sugars: .carbohydrates
        case .saturatedFat, .cholesterol: .fats
        case .salt, .sodium, .potassium, .calcium, .iron, .magnesium, .zinc: .minerals
        case .vitaminA, .vitaminC, .vitaminD, .vitaminE, .vitaminK, .vitaminB6, .vitaminB12, .thiamin, .riboflavin, .niacin, .folate: .vitamins
        }
    }

    /// What the name means where it is ambiguous.
    public var note: String? {
        switch self {
        case .vitaminA: "as retinol activity equivalents (RAE)"
        case .vitaminD: "D2 + D3"
        case .vitaminE: "as alpha-tocopherol"
        case .vitaminK: "phylloquinone (K1)"
        case .folate: "total folate"
        case .salt: "sodium × 2.5"
        case .sugars: "total sugars"
        default: nil
        }
    }

    /// The FDA daily value, in ``unit``; nil for energy and the macronutrients (the person's goals
    /// set those) and for salt (sodium carries it).
    public var dailyValue: Decimal? {
        switch self {
        case .energyKcal, .protein, .carbohydrates, .fat, .salt: nil
        case .fiber: 28
        case .sugars: 50
        case .saturatedFat: 20
        case .cholesterol: 300
        case .sodium: 2300
        case .potassium: 4700
        case .calcium: 1300
        case .iron: 18
        case .magnesium: 420
        case .zinc: 11
        case .vitaminA: 900
        case .vitaminC: 90
        case .vitaminD: 20
        case .vitaminE: 15
        case .vitaminK: 120
        case .vitaminB6: Decimal(string: "1.7")!
        case .vitaminB12: Decimal(string: "2.4")!
        case .thiamin: Decimal(string: "1.2")!
        case .riboflavin: Decimal(string: "1.3")!
        case .niacin: 16
        case .folate: 400
        }
    }

    public var direction: Direction {
        switch self {
        case .energyKcal, .protein, .carbohydrates, .fat: .goal
        case .sugars, .saturatedFat, .salt, .cholesterol, .sodium: .atMost
        default: .atLeast
        }
    }

    /// The most 100 g or 100 ml of anything can hold, in ``unit`` (all of it, for a nutrient
    /// weighed in grams; 900 kcal of energy, pure fat).
    public var maximumPer100: Decimal {
        switch self {
        case .energyKcal: 900
        default: 100 * unit.perGram
        }
    }

    /// The nutrients beyond energy and the three macronutrients, in display order.
    public static let micronutrients: [Nutrient] = allCases.filter { $0.group != .energy && $0.group != .macronutrients }

    /// Those a person sets a daily target for (everything with a daily value).
    public static let targeted: [Nutrient] = allCases.filter { $0.dailyValue != nil }

    public static func < (a: Nutrient, b: Nutrient) -> Bool { a.order < b.order }

    private static let orders: [Nutrient: Int] = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
    public var order: Int { Self.orders[self]! }

    /// "4.2 g", "1,252.5 µg": a value with its unit, at most one decimal (two below 1).
    public func text(_ value: Decimal) -> String {
        switch unit {
        case .kcal: "\(value.kcalText) kcal"
        default: "\(abs(value) < 1 ? value.display(2) : value.display(1)) \(unit.rawValue)"
        }
    }
}

/// Where a day (or a week) stands against a nutrient's target: the one rule the Today view, the
/// week view and the API's readers share.
public struct NutrientStanding: Hashable, Sendable {
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Below the target of a nutrient to reach (fibre, vitamins, minerals).
        case under
        /// At or above the target to reach, or at or below the limit.
        case met
        /// Above the limit of a nutrient to stay below (sodium, saturated fat, sugars, cholesterol).
        case over
        /// Nothing eaten says how much of it there is.
        case unknown
    }

    public let nutrient: Nutrient
    public let amount: Decimal?
    public let target: Decimal?
    /// Entries that do not know this nutrient (the amount is then at least what it says).
    public let missing: Int

    public init(nutrient: Nutrient, amount: Decimal?, target: Decimal?, missing: Int) {
        self.nutrient = nutrient
        self.amount = amount
        self.target = target
        self.missing = missing
    }

    /// The amount as a whole percentage of the target.
    public var percent: Int? {
        guard let amount, let target, target > 0 else { return nil }
        return Int((amount * 100 / target).rounded(0).doubleValue.clampedToInt)
    }

    public var verdict: Verdict {
        guard let amount else { return .unknown }
        guard let target else { return .met }
        switch nutrient.direction {
        case .atMost: return amount > target ? .over : .met
        // Short of the target only on what some entries say (others do not know it): not known to be under.
        case .atLeast: return amount >= target ? .met : missing > 0 ? .unknown : .under
        case .goal: return .met
        }
    }

    /// Each targeted nutrient of a day.
    public static func day(_ totals: Nutrients, missing: [Nutrient: Int], goals: Goals) -> [NutrientStanding] {
        Nutrient.targeted.map { NutrientStanding(nutrient: $0, amount: totals[$0], target: goals.target($0), missing: missing[$0] ?? 0) }
    }
}

/// A week of days against the targets: which nutrients are persistently under or over.
public struct NutrientWeek: Hashable, Sendable {
    public struct Row: Hashable, Sendable {
        public let nutrient: Nutrient
        public let target: Decimal?
        /// One standing per day with something logged, oldest first.
        public let days: [NutrientStanding]
        public var under: Int { days.filter { $0.verdict == .under }.count }
        public var over: Int { days.filter { $0.verdict == .over }.count }
        /// The mean percentage of the target over the days that know the nutrient.
        public var averagePercent: Int? {
            let known = days.compactMap(\.percent)
            return known.isEmpty ? nil : known.reduce(0, +) / known.count
        }
        /// Under (or over) on at least 70 % of the logged days, and on 3 days or more.
        public var persistent: NutrientStanding.Verdict? {
            let needed = max(3, Int((Double(days.count) * 0.7).rounded(.up)))
            if under >= needed { return .under }
            if over >= needed { return .over }
            return nil
        }
    }

    public let rows: [Row]
    /// Days with something logged.
    public let loggedDays: Int

    /// `days`: each logged day's totals and missing counts (days with nothing logged left out).
    public init(days: [(totals: Nutrients, missing: [Nutrient: Int])], goals: Goals) {
        loggedDays = days.count
        rows = Nutrient.targeted.map { n in
            Row(nutrient: n, target: goals.target(n),
                days: days.map { NutrientStanding(nutrient: n, amount: $0.totals[n], target: goals.target(n), missing: $0.missing[n] ?? 0) })
        }
    }
}

extension Double {
    /// The nearest Int, without trapping on huge or non-finite values.
    var clampedToInt: Int {
        guard isFinite else { return 0 }
        if self >= Double(Int.max) { return Int.max }
        if self <= Double(Int.min) { return Int.min }
        return Int(self)
    }
}
