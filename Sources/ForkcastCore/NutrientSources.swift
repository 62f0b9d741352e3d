import Foundation

/// A food rich in a nutrient: how much of it one usual portion holds.
public struct NutrientSource: Hashable, Sendable {
    public let name: String
    /// In the nutrient's unit, per `portion`.
    public let amount: Decimal
    /// "1 cup (128 g)", "100 g".
    public let portion: String
}

/// Where a nutrient that is low can come from: the foods richest in it per usual portion (what a
/// person eats of it at once, so a spice's 100 g does not lead), and which of a day's entries say
/// nothing about it.
public enum NutrientSources {
    /// The person's foods richest in `nutrient` per usual portion, best first.
    public static func richest(_ nutrient: Nutrient, foods: [Food], limit: Int = 5) -> [NutrientSource] {
        rank(foods.compactMap { food in
            let grams = food.usualAmount.quantity
            return food.per100[nutrient].map { (food.name, $0 * grams / 100, food.serving?.displayLabel ?? "\(grams.display(0)) \(food.basis.rawValue)") }
        }, limit: limit)
    }

    /// The catalogue's plain foods (not survey dishes or branded products) richest in `nutrient` per usual portion.
    public static func richest(_ nutrient: Nutrient, catalog: [CatalogFood], limit: Int = 5) -> [NutrientSource] {
        rank(catalog.filter { $0.source == .srLegacy || $0.source == .foundation }.compactMap { food in
            let portion = food.portions.first
            let grams = portion?.grams ?? 100
            return food.per100[nutrient].map { (food.name, $0 * grams / 100, portion?.name ?? "100 g") }
        }, limit: limit)
    }

    private static func rank(_ amounts: [(String, Decimal, String)], limit: Int) -> [NutrientSource] {
        var seen = Set<String>()
        return amounts.filter { $0.1 > 0 }.sorted { ($0.1, $1.0) > ($1.1, $0.0) }
            .filter { seen.insert($0.0.matchKey).inserted }.prefix(max(0, limit))
            .map { NutrientSource(name: $0.0, amount: $0.1, portion: $0.2) }
    }

    /// The counted entries that do not say how much of `nutrient` they hold.
    public static func silent(on nutrient: Nutrient, in entries: [DiaryEntry]) -> [DiaryEntry] {
        entries.filter { $0.isCounted && $0.nutrients[nutrient] == nil }
    }
}
