import Foundation

extension OpenFoodFactsProduct {
    /// What one pack holds, in the food's own unit, from a product answer: the label's `quantity`
    /// ("155 g", "33 cl" → 330 ml, "6 x 125 g" → 750 g, "1,5 L"), else `product_quantity` (grams,
    /// or `product_quantity_unit`). Nil when it gives none, or only in the other unit (a drink
    /// labelled in grams): the person then says how much.
    public static func packSize(_ data: Data, basis: NutritionBasis) -> Decimal? {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let product = root["product"] as? [String: Any] else { return nil }
        let size: Decimal?
        if let text = string(product["quantity"]), let fromLabel = packSize(text, basis: basis) {
            size = fromLabel
        } else if let amount = decimal(product["product_quantity"]),
                  (string(product["product_quantity_unit"]).flatMap(unitBasis) ?? .gram) == basis {
            size = amount
        } else {
            size = nil
        }
        return size.flatMap { PantryItem.amountRange.contains($0) ? $0 : nil }
    }

    /// "6 x 125 g" → 750 in grams; nil for another unit or none.
    static func packSize(_ text: String, basis: NutritionBasis) -> Decimal? {
        let pattern = /(?:(\d{1,3})\s*[x×*]\s*)?(\d+(?:[.,]\d+)?)\s*(kg|g|gr|grams?|ml|cl|dl|l)\b/.ignoresCase()
        guard let match = text.firstMatch(of: pattern),
              let value = Decimal(string: String(match.output.2).replacingOccurrences(of: ",", with: ".")) else { return nil }
        let unit = String(match.output.3).lowercased()
        guard (unit == "dl" ? .milliliter : unitBasis(unit)) == basis else { return nil }
        let scale: Decimal = switch unit { case "kg", "l": 1000; case "dl": 100; case "cl": 10; default: 1 }
        let count = match.output.1.flatMap { Decimal(string: String($0)) } ?? 1
        return count * value * scale
    }
}
