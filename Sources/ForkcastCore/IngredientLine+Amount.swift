import Foundation

extension IngredientLine {
    /// How the line's amount became the food's: exactly (grams of a food per 100 g), through a
    /// known portion ("1 cup = 128 g"), or estimated (a volume of a food measured by weight, taken
    /// as 1 g per ml, which the draft says).
    public enum Conversion: String, Sendable, Codable, Hashable {
        case exact, portion, estimated
    }

    /// The line's amount as an amount of a food with `basis`, its `serving` and the `portions`
    /// known for it; nil when the line has no amount or nothing relates its unit to the food.
    public func amount(basis: NutritionBasis, serving: Serving?, portions: [CatalogPortion] = [])
        -> (quantity: Decimal, unit: QuantityUnit, conversion: Conversion)? {
        guard let q = quantity?.amount, q > 0 else { return nil }
        let base: QuantityUnit = basis == .gram ? .gram : .milliliter
        if let grams = unit?.grams { return (q * grams, base, basis == .gram ? .exact : .estimated) }
        if let ml = unit?.milliliters {
            if basis == .milliliter { return (q * ml, .milliliter, .exact) }
            if let portion = portion(named: unit.map { [$0.rawValue, $0.label(plural: false)] } ?? [], in: portions) {
                return (q * portion.grams, .gram, .portion)
            }
            return (q * ml, .gram, .estimated)
        }
        // A count ("2 eggs", "1 can", "3 cloves"): servings, or a portion of that name.
        let names = (unit.map { [$0.rawValue, $0.label(plural: false)] } ?? []) + (note?.split(separator: ";").map { String($0).trimmed } ?? [])
        if let portion = portion(named: names, in: portions) { return (q * portion.grams, .gram, .portion) }
        if unit == nil || serving?.label.map({ label in names.contains { label.lowercased().contains($0.lowercased()) } }) == true,
           serving != nil {
            return (q, .serving, .portion)
        }
        if let first = portions.first, unit == nil { return (q * first.grams, .gram, .portion) }
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
