import Foundation

extension IngredientLine {
    /// How the line's amount became the food's: exactly (grams of a food per 100 g, or the weight
    /// a line gives in brackets), through a known portion ("1 cup = 128 g"), or estimated (a volume
    /// of a food measured by weight, at its usual density; a count at its unit's usual weight, a
    /// clove at 3 g), which the draft says.
    public enum Conversion: String, Sendable, Codable, Hashable {
        case exact, portion, estimated
    }

    /// The line's amount as an amount of a food with `basis`, its `serving` and the `portions`
    /// known for it; nil when the line has no amount or nothing relates its unit to the food.
    /// A volume of a food measured by weight is taken at `density` grams per ml, one of it counted
    /// without a unit at `each` grams when its portions do not say (``CookWeight``).
    public func amount(basis: NutritionBasis, serving: Serving?, portions: [CatalogPortion] = [], density: Decimal = 1, each: Decimal? = nil)
        -> (quantity: Decimal, unit: QuantityUnit, conversion: Conversion)? {
        guard let q = quantity?.amount, q > 0 else { return nil }
        let base: QuantityUnit = basis == .gram ? .gram : .milliliter
        if let grams = unit?.grams { return (q * grams, base, basis == .gram ? .exact : .estimated) }
        if let ml = unit?.milliliters {
            if basis == .milliliter { return (q * ml, .milliliter, .exact) }
            // "¼ cup bread crumbs (30 grams)": the page weighed it.
            if let size = noteSize, !size.milliliters { return (size.amount, .gram, .exact) }
            if let portion = portion(named: unit.map { [$0.rawValue, $0.label(plural: false)] } ?? [], in: portions) {
                return (q * portion.grams, .gram, .portion)
            }
            return (q * ml * density, .gram, .estimated)
        }
        // A count ("2 eggs", "1 can", "3 cloves"): servings, or a portion of that name.
        let names = (unit.map { [$0.rawValue, $0.label(plural: false)] } ?? []) + (note?.split(separator: ";").map { String($0).trimmed } ?? [])
        if let portion = portion(named: names, in: portions) { return (q * portion.grams, .gram, .portion) }
        if let size = noteSize {
            return (size.each ? q * size.amount : size.amount, base, size.milliliters == (basis == .milliliter) ? .exact : .estimated)
        }
        if unit == nil || serving?.label.map({ label in names.contains { label.lowercased().contains($0.lowercased()) } }) == true,
           serving != nil {
            return (q, .serving, .portion)
        }
        if let each, unit == nil, basis == .gram { return (q * each, .gram, .estimated) }
        // The catalogue names none of its portions: its first is often a cup, its middle one a
        // medium one (carrots: 128 g first, 61 g in the middle of nine).
        if unit == nil, !portions.isEmpty {
            let middle = portions.map(\.grams).sorted()[portions.count / 2]
            return (q * middle, .gram, .portion)
        }
        if let usual = unit?.usualGrams { return (q * usual, base, .estimated) }
        return nil
    }

    private func portion(named names: [String], in portions: [CatalogPortion]) -> CatalogPortion? {
        let keys = names.map { $0.lowercased() }.filter { !$0.isEmpty }
        return portions.first { portion in
            let words = portion.name.lowercased().split { !$0.isLetter }.map(String.init)
            return keys.contains { words.contains($0) }
        }
    }
}
