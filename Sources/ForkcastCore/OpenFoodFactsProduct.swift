import Foundation

/// Reads Open Food Facts answers as they really come: numbers as strings, energy only in kJ, empty
/// nutriments, odd serving sizes, zero-padded codes, and "not found" as `status: 0`.
public enum OpenFoodFactsProduct {
    public enum Lookup: Sendable, Equatable {
        case found(FoodDraft)
        case notFound
    }

    public struct ParseError: Error, Equatable, Sendable {
        public let reason: String
    }

    /// Parses a product answer (API v0/v2 `product/<code>`).
    public static func parseProduct(_ data: Data, requestedCode: String? = nil) throws(ParseError) -> Lookup {
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ParseError(reason: "the answer is not a JSON object")
        }
        let status = number(root["status"])
        guard status == 1, let product = root["product"] as? [String: Any] else {
            if status == 0 || root["product"] == nil { return .notFound }
            throw ParseError(reason: "the answer has no product")
        }
        let code = string(root["code"]) ?? string(product["code"]) ?? requestedCode
        return .found(draft(from: product, code: code))
    }

    /// Parses a search answer (`cgi/search.pl` or API v2 `search`); products without a name are skipped.
    public static func parseSearch(_ data: Data) throws(ParseError) -> [FoodDraft] {
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ParseError(reason: "the answer is not a JSON object")
        }
        guard let products = root["products"] as? [[String: Any]] else { throw ParseError(reason: "the answer has no products") }
        return products.compactMap { product in
            let draft = draft(from: product, code: string(product["code"]) ?? string(product["_id"]))
            return draft.name.trimmed.isEmpty ? nil : draft
        }
    }

    /// A food draft from one product object.
    public static func draft(from product: [String: Any], code: String?) -> FoodDraft {
        let nutriments = product["nutriments"] as? [String: Any] ?? [:]
        let name = string(product["product_name"]) ?? string(product["generic_name"]) ?? string(product["product_name_en"]) ?? ""
        let brand = string(product["brands"])?.split(separator: ",").first.map { String($0).trimmed }
        let basis = basis(of: product)

        // `*_100g` values are always grams (or kJ for plain energy), whatever `*_unit` claims.
        func per100(_ key: String) -> Decimal? { decimal(nutriments["\(key)_100g"]) }
        var kcal = per100("energy-kcal")
        if kcal == nil, let kj = per100("energy-kj") ?? per100("energy") {
            kcal = Nutrients.kilocalories(fromKilojoules: kj).rounded(1)
        }
        var nutrients = Nutrients(energyKcal: kcal, protein: per100("proteins"), carbohydrates: per100("carbohydrates"),
                                  fat: per100("fat"), fiber: per100("fiber"), sugars: per100("sugars"),
                                  saturatedFat: per100("saturated-fat"), salt: per100("salt"))
        // Minerals and vitamins are in grams per 100 g too: in each nutrient's own unit here.
        for (nutrient, key) in Self.micronutrientKeys {
            if let grams = per100(key) { nutrients[nutrient] = grams * nutrient.unit.perGram }
        }
        return FoodDraft(name: name, brand: brand?.nilIfEmpty, barcode: code.flatMap { Barcode($0)?.digits }, basis: basis,
                         per100: nutrients, serving: serving(of: product, basis: basis),
                         portion: string(product["serving_size"]), icon: .generic, source: .openFoodFacts)
    }

    /// Open Food Facts' names of the nutrients beyond the eight above.
    public static let micronutrientKeys: [(Nutrient, String)] = [
        (.cholesterol, "cholesterol"), (.sodium, "sodium"), (.potassium, "potassium"), (.calcium, "calcium"), (.iron, "iron"),
        (.magnesium, "magnesium"), (.zinc, "zinc"), (.vitaminA, "vitamin-a"), (.vitaminC, "vitamin-c"), (.vitaminD, "vitamin-d"),
        (.vitaminE, "vitamin-e"), (.vitaminK, "vitamin-k"), (.vitaminB6, "vitamin-b6"), (.vitaminB12, "vitamin-b12"),
        (.thiamin, "vitamin-b1"), (.riboflavin, "vitamin-b2"), (.niacin, "vitamin-pp"), (.folate, "vitamin-b9"),
    ]

    /// "0.333 PACKAGE (52 g)" → 52 g labelled "0.333 PACKAGE"; "330 ml (une boîte)" → 330 ml labelled
    /// "une boîte"; "" → none (falling back to `serving_quantity`).
    public static func parseServing(_ text: String, basis: NutritionBasis) -> Serving? {
        let text = text.trimmed
        guard !text.isEmpty else { return nil }
        let pattern = /(\d+(?:[.,]\d+)?)\s*(g|gr|grams?|ml|cl|l|kg)\b/.ignoresCase()
        let matches = text.matches(of: pattern)
        // Prefer an amount in the food's own unit; otherwise the first one found.
        let chosen = matches.first { unitBasis(String($0.output.2)) == basis } ?? matches.first
        guard let match = chosen, let value = Decimal(string: String(match.output.1).replacingOccurrences(of: ",", with: ".")) else {
            return nil
        }
        let unit = String(match.output.2).lowercased()
        let size: Decimal = switch unit { case "cl": value * 10; case "l", "kg": value * 1000; default: value }
        guard size > 0, let servingBasis = unitBasis(unit) else { return nil }
        var label = text.replacingCharacters(in: match.range, with: "")
            .replacingOccurrences(of: "()", with: "").trimmingCharacters(in: CharacterSet(charactersIn: " ()\t"))
        if label.isEmpty { label = text }
        return Serving(size: size, unit: servingBasis, label: label)
    }

    static func unitBasis(_ unit: String) -> NutritionBasis? {
        switch unit.lowercased() {
        case "g", "gr", "gram", "grams", "kg": .gram
        case "ml", "cl", "l": .milliliter
        default: nil
        }
    }

    static func basis(of product: [String: Any]) -> NutritionBasis {
        if let per = string(product["nutrition_data_per"])?.lowercased(), per.contains("ml") { return .milliliter }
        for key in ["serving_size", "quantity"] {
            if let text = string(product[key])?.lowercased(),
               let match = text.firstMatch(of: /\d\s*(ml|cl|l)\b/) { _ = match; return .milliliter }
        }
        return .gram
    }

    static func serving(of product: [String: Any], basis: NutritionBasis) -> Serving? {
        if let text = string(product["serving_size"]), let serving = parseServing(text, basis: basis), serving.unit == basis {
            return serving
        }
        if let quantity = decimal(product["serving_quantity"]), quantity > 0 {
            return Serving(size: quantity, unit: basis, label: string(product["serving_size"]))
        }
        return nil
    }

    /// A number sent as a number or as a string ("6.5", "0", "1,5"); nil for "", null and junk.
    static func decimal(_ value: Any?) -> Decimal? {
        switch value {
        case let n as NSNumber:
            return Decimal(shortest: n.doubleValue)
        case let s as String:
            return Decimal(typed: s)
        default:
            return nil
        }
    }

    static func number(_ value: Any?) -> Int? {
        decimal(value).map { NSDecimalNumber(decimal: $0).intValue }
    }

    static func string(_ value: Any?) -> String? {
        switch value {
        case let s as String: s.trimmed.nilIfEmpty
        case let n as NSNumber: n.stringValue
        default: nil
        }
    }
}
