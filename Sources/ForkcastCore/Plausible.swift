import Foundation

/// A range a number must fall in to be stored: what a person could really weigh, eat or pay.
///
/// One rule per quantity, used by the API, the web forms and every import, so nothing absurd
/// (1e38 kg, −5 servings) ever reaches the database, and arithmetic on stored values cannot trap.
public struct PlausibleRange: Sendable, Hashable {
    public let lower: Decimal
    public let upper: Decimal
    /// Whether the lower bound itself is refused (amounts must be *above* zero).
    public let lowerExclusive: Bool
    /// The unit shown in messages ("kg", "kcal"); empty for plain counts.
    public let unit: String

    public init(_ lower: Decimal, _ upper: Decimal, unit: String = "", lowerExclusive: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.unit = unit
        self.lowerExclusive = lowerExclusive
    }

    public func contains(_ value: Decimal) -> Bool {
        guard !value.isNaN else { return false }
        return (lowerExclusive ? value > lower : value >= lower) && value <= upper
    }

    /// A Double from a file or a client is checked the same way (NaN and infinities are refused).
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        return contains(Decimal(value))
    }

    private var unitSuffix: String { unit.isEmpty ? "" : " \(unit)" }

    /// "Weight must be between 20 and 635 kg." / "Servings must be above 0 and at most 100."
    public func message(_ label: String) -> String {
        lowerExclusive
            ? "\(label) must be above \(lower) and at most \(upper)\(unitSuffix)."
            : "\(label) must be between \(lower) and \(upper)\(unitSuffix)."
    }

    /// A problem for `field` when `value` is present and out of range.
    public func check(_ value: Decimal?, field: String, label: String) -> ValidationError.Field? {
        guard let value, !contains(value) else { return nil }
        return ValidationError.Field(field: field, message: message(label))
    }

    /// `value` pulled into the range, for showing whatever an older version may have stored.
    public func clamped(_ value: Decimal) -> Decimal {
        if value.isNaN { return lower }
        return min(max(value, lower), upper)
    }
}

/// The plausible ranges of every number Forkcast stores.
public enum Plausible {
    /// A person's body weight (the web form's 20–635 kg: the heaviest person recorded was 635 kg).
    public static let bodyWeightKg = PlausibleRange(20, 635, unit: "kg")
    /// A person's height.
    public static let heightCm = PlausibleRange(50, 272, unit: "cm")
    /// A height in feet and inches, each part alone (the whole is then checked in cm): neither
    /// below zero, feet up to 8, inches up to 107 (272 cm, for a height typed all in inches).
    public static let heightFeet = PlausibleRange(0, 8, unit: "ft")
    public static let heightInches = PlausibleRange(0, 107, unit: "in")
    /// An amount of a food in g, ml or servings (a diary entry, an ingredient).
    public static let quantity = PlausibleRange(Decimal(string: "0.001")!, 100_000)
    /// Servings of a meal eaten at once.
    public static let servingsEaten = PlausibleRange(Decimal(string: "0.01")!, 100)
    /// Grams of one nutrient in 100 g or 100 ml.
    public static let gramsPer100 = PlausibleRange(0, 100, unit: "g")
    /// Energy in 100 g or 100 ml (pure fat is 900 kcal).
    public static let kcalPer100 = PlausibleRange(0, 900, unit: "kcal")
    /// Energy in 100 g or 100 ml, typed in kilojoules.
    public static let kjPer100 = PlausibleRange(0, Decimal(string: "3765.6")!, unit: "kJ")  // 900 kcal × 4.184
    /// A serving or package size in g or ml.
    public static let servingSize = PlausibleRange(Decimal(string: "0.001")!, 100_000)
    /// A price (in the user's currency).
    public static let price = PlausibleRange(0, 1_000_000)
    /// One nutrient of a quick add or of a meal's hand-typed nutrition per serving.
    public static let quickAddValue = PlausibleRange(0, 20_000)
    /// One nutrient of a logged entry: up to 100 kg of the most energy-dense food.
    public static let entryValue = PlausibleRange(0, 1_000_000)
    /// One nutrient of a logged entry, in that nutrient's unit (a million grams' worth).
    public static func entryValue(of nutrient: Nutrient) -> PlausibleRange {
        nutrient.unit == .mg || nutrient.unit == .µg ? PlausibleRange(0, 1_000_000 * nutrient.unit.perGram, unit: nutrient.unit.rawValue) : entryValue
    }
    /// What a logged entry cost.
    public static let entryCost = PlausibleRange(0, 100_000_000)
    /// Daily calories goal.
    public static let goalEnergyKcal = PlausibleRange(500, 10_000, unit: "kcal")
    /// Daily grams goal of one macro.
    public static let goalMacroGrams = PlausibleRange(0, 1000, unit: "g")
}

extension Decimal {
    /// A Double for drawing, never NaN or infinite (0 instead), so charts cannot trap.
    public var finiteDouble: Double {
        let d = doubleValue
        return d.isFinite ? d : 0
    }
}

extension Double {
    /// Rounded to a whole number for display without trapping on huge, infinite or NaN values.
    public var safeInt: Int {
        guard isFinite else { return 0 }
        let r = rounded()
        if r >= Double(Int.max) { return Int.max }
        if r <= Double(Int.min) { return Int.min }
        return Int(r)
    }
}
