import Foundation

/// Energy and macronutrients of an amount of food. `nil` means unknown (not zero).
///
/// Values are `Decimal` so that sums and scalings are exact; rounding happens only for display.
public struct Nutrients: Hashable, Sendable, Codable {
    public var energyKcal: Decimal?
    public var protein: Decimal?
    public var carbohydrates: Decimal?
    public var fat: Decimal?
    public var fiber: Decimal?
    public var sugars: Decimal?
    public var saturatedFat: Decimal?
    public var salt: Decimal?

    public init(energyKcal: Decimal? = nil, protein: Decimal? = nil, carbohydrates: Decimal? = nil, fat: Decimal? = nil,
                fiber: Decimal? = nil, sugars: Decimal? = nil, saturatedFat: Decimal? = nil, salt: Decimal? = nil) {
        self.energyKcal = energyKcal
        self.protein = protein
        self.carbohydrates = carbohydrates
        self.fat = fat
        self.fiber = fiber
        self.sugars = sugars
        self.saturatedFat = saturatedFat
        self.salt = salt
    }

    public static let zero = Nutrients(energyKcal: 0, protein: 0, carbohydrates: 0, fat: 0)

    /// Kilojoules per kilocalorie (thermochemical calorie).
    public static let kilojoulesPerKilocalorie: Decimal = Decimal(string: "4.184")!

    public static func kilocalories(fromKilojoules kj: Decimal) -> Decimal { kj / kilojoulesPerKilocalorie }

    /// Every value multiplied by `factor` (unknown stays unknown).
    public func scaled(by factor: Decimal) -> Nutrients {
        func s(_ v: Decimal?) -> Decimal? { v.map { $0 * factor } }
        return Nutrients(energyKcal: s(energyKcal), protein: s(protein), carbohydrates: s(carbohydrates), fat: s(fat),
                         fiber: s(fiber), sugars: s(sugars), saturatedFat: s(saturatedFat), salt: s(salt))
    }

    /// The sum; a value is unknown in the sum only when it is unknown in both.
    public static func + (a: Nutrients, b: Nutrients) -> Nutrients {
        func add(_ x: Decimal?, _ y: Decimal?) -> Decimal? {
            switch (x, y) {
            case (nil, nil): nil
            case let (x?, nil): x
            case let (nil, y?): y
            case let (x?, y?): x + y
            }
        }
        return Nutrients(energyKcal: add(a.energyKcal, b.energyKcal), protein: add(a.protein, b.protein),
                         carbohydrates: add(a.carbohydrates, b.carbohydrates), fat: add(a.fat, b.fat),
                         fiber: add(a.fiber, b.fiber), sugars: add(a.sugars, b.sugars),
                         saturatedFat: add(a.saturatedFat, b.saturatedFat), salt: add(a.salt, b.salt))
    }

    /// Energy the macros account for: 4 kcal/g protein and carbohydrate, 9 kcal/g fat.
    public var energyFromMacros: Decimal? {
        guard let protein, let carbohydrates, let fat else { return nil }
        return 4 * protein + 4 * carbohydrates + 9 * fat
    }

    /// Named values, for validation messages and iteration.
    public var fields: [(name: String, label: String, value: Decimal?)] {
        [("energyKcal", "Energy", energyKcal), ("protein", "Protein", protein), ("carbohydrates", "Carbohydrates", carbohydrates),
         ("fat", "Fat", fat), ("fiber", "Fibre", fiber), ("sugars", "Sugars", sugars),
         ("saturatedFat", "Saturated fat", saturatedFat), ("salt", "Salt", salt)]
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
