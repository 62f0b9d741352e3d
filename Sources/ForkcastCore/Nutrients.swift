import Foundation

/// Energy, macronutrients and micronutrients of an amount of food, by ``Nutrient``. A nutrient
/// with no value is unknown (not zero): a food that does not say its sodium has no sodium.
///
/// Values are `Decimal` so that sums and scalings are exact; rounding happens only for display.
public struct Nutrients: Hashable, Sendable, Codable {
    /// The known values, in each nutrient's ``Nutrient/unit``.
    public private(set) var values: [Nutrient: Decimal]

    public init(_ values: [Nutrient: Decimal] = [:]) {
        self.values = values
    }

    public init(energyKcal: Decimal? = nil, protein: Decimal? = nil, carbohydrates: Decimal? = nil, fat: Decimal? = nil,
                fiber: Decimal? = nil, sugars: Decimal? = nil, saturatedFat: Decimal? = nil, salt: Decimal? = nil) {
        values = [:]
        values.reserveCapacity(8)
        self[.energyKcal] = energyKcal; self[.protein] = protein; self[.carbohydrates] = carbohydrates; self[.fat] = fat
        self[.fiber] = fiber; self[.sugars] = sugars; self[.saturatedFat] = saturatedFat; self[.salt] = salt
    }

    public subscript(_ nutrient: Nutrient) -> Decimal? {
        get { values[nutrient] }
        set { values[nutrient] = newValue }
    }

    public var energyKcal: Decimal? { get { self[.energyKcal] } set { self[.energyKcal] = newValue } }
    public var protein: Decimal? { get { self[.protein] } set { self[.protein] = newValue } }
    public var carbohydrates: Decimal? { get { self[.carbohydrates] } set { self[.carbohydrates] = newValue } }
    public var fat: Decimal? { get { self[.fat] } set { self[.fat] = newValue } }
    public var fiber: Decimal? { get { self[.fiber] } set { self[.fiber] = newValue } }
    public var sugars: Decimal? { get { self[.sugars] } set { self[.sugars] = newValue } }
    public var saturatedFat: Decimal? { get { self[.saturatedFat] } set { self[.saturatedFat] = newValue } }
    public var salt: Decimal? { get { self[.salt] } set { self[.salt] = newValue } }

    /// Whether nothing is known.
    public var isEmpty: Bool { values.isEmpty }

    public static let zero = Nutrients(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0)

    /// Kilojoules per kilocalorie (thermochemical calorie).
    public static let kilojoulesPerKilocalorie: Decimal = Decimal(string: "4.184")!

    public static func kilocalories(fromKilojoules kj: Decimal) -> Decimal { kj / kilojoulesPerKilocalorie }

    /// Milligrams of sodium in a gram of salt (sodium chloride is 40 % sodium; labels use × 2.5).
    public static let sodiumMilligramsPerGramOfSalt: Decimal = 400

    /// Salt and sodium are one fact in two units: the one not given follows from the other.
    public func withSaltAndSodium() -> Nutrients {
        var n = self
        if n[.sodium] == nil, let salt = n[.salt] { n[.sodium] = salt * Self.sodiumMilligramsPerGramOfSalt }
        if n[.salt] == nil, let sodium = n[.sodium] { n[.salt] = sodium / Self.sodiumMilligramsPerGramOfSalt }
        return n
    }

    /// Every value multiplied by `factor` (unknown stays unknown).
    public func scaled(by factor: Decimal) -> Nutrients {
        guard factor != 1 else { return self }
        var result = self
        for (key, value) in values { result.values[key] = value * factor }
        return result
    }

    /// The sum; a value is unknown in the sum only when it is unknown in both.
    public static func + (a: Nutrients, b: Nutrients) -> Nutrients {
        var result = a
        for (key, value) in b.values { result.values[key] = (a.values[key] ?? 0) + value }
        return result
    }

    /// Energy the macros account for: 4 kcal/g protein and carbohydrate, 9 kcal/g fat.
    public var energyFromMacros: Decimal? {
        guard let protein, let carbohydrates, let fat else { return nil }
        return 4 * protein + 4 * carbohydrates + 9 * fat
    }

    /// Named values, for validation messages and iteration: the eight a food form has always
    /// shown, then every other nutrient that has a value.
    public var fields: [(name: String, label: String, value: Decimal?)] {
        Nutrient.allCases.compactMap { n in
            let value = values[n]
            guard n.order < Nutrient.cholesterol.order || value != nil else { return nil }
            return (n.rawValue, n.name, value)
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ nutrient: Nutrient) { stringValue = nutrient.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// One object keyed by nutrient (`{"energyKcal": 41, "sodium": 69}`), unknown values left out;
    /// keys it does not know are ignored, so older and newer copies read each other.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        values = [:]
        for n in Nutrient.allCases {
            if let v = try c.decodeIfPresent(Decimal.self, forKey: Key(n)) { values[n] = v }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for n in Nutrient.allCases { if let v = values[n] { try c.encode(v, forKey: Key(n)) } }
    }
}

/// A sum over entries that also says, per nutrient, how many entries did not know it.
public struct NutrientTotals: Hashable, Sendable {
    public var total: Nutrients
    /// Entries with no value for the nutrient (absent when every entry has one).
    public var unknown: [Nutrient: Int]
    public var count: Int

    public init(total: Nutrients = Nutrients(), unknown: [Nutrient: Int] = [:], count: Int = 0) {
        self.total = total
        self.unknown = unknown
        self.count = count
    }

    public static func of<S: Sequence>(_ items: S) -> NutrientTotals where S.Element == Nutrients {
        var result = NutrientTotals()
        for n in items { result.add(n) }
        return result
    }

    public mutating func add(_ n: Nutrients) {
        total = total + n
        count += 1
        for key in Nutrient.allCases where n.values[key] == nil { unknown[key, default: 0] += 1 }
    }
}

extension Decimal {
    /// Rounded to `places` decimals for display (half away from zero).
    public func rounded(_ places: Int) -> Decimal {
        var value = self, result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return result
    }

    /// A short display string: at most `places` decimals, no trailing zeros.
    public func display(_ places: Int = 1) -> String {
        let r = rounded(places)
        return "\(r)"
    }

    /// The one rounding rule for pages: kcal as whole numbers; grams with one decimal below 10 g
    /// (0.4 g of fat is not "0 g") and whole above.
    public var kcalText: String { display(0) }
    public var gramsText: String { abs(self) < 10 ? display(1) : display(0) }

    /// The nearest Double, correctly rounded through the decimal text (NSDecimalNumber's own
    /// conversion is off in the last digits: 206.46 became 206.45999999999998, and a value read
    /// back and stored again drifted).
    public var doubleValue: Double { Double(description) ?? NSDecimalNumber(decimal: self).doubleValue }

    /// A number as a person types it: "12.5", "12,5", " 3 "; nil for empty text and anything else.
    public init?(typed text: String) {
        let t = text.trimmed.replacingOccurrences(of: ",", with: ".")
        // Decimal(string:) accepts a number followed by junk ("12abc" → 12); Double does not.
        guard !t.isEmpty, Double(t)?.isFinite == true, let value = Decimal(string: t) else { return nil }
        self = value
    }

    /// The decimal a Double stands for, as its shortest text (0.1 stays 0.1).
    public init(shortest double: Double) {
        self = Decimal(string: "\(double)") ?? Decimal(double)
    }
}
