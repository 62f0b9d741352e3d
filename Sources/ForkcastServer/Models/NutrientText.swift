import ForkcastCore
import Foundation

/// Nutrient values in one text column: `fiber=2.8 sodium=69 vitaminA=835`, each value the exact
/// decimal (no binary rounding), in ``Nutrient``'s order. A key this version does not know is
/// skipped on reading, so an older server reads a newer row.
enum NutrientText {
    static func encode(_ n: Nutrients, except columns: Set<Nutrient>) -> String? {
        var parts: [String] = []
        for nutrient in Nutrient.allCases where !columns.contains(nutrient) {
            if let value = n[nutrient] { parts.append("\(nutrient.rawValue)=\(value)") }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    static func decode(_ text: String?, into n: inout Nutrients, except columns: Set<Nutrient> = []) {
        guard let text, !text.isEmpty else { return }
        for part in text.split(separator: " ") {
            guard let eq = part.firstIndex(of: "="), let nutrient = Nutrient(rawValue: String(part[..<eq])), !columns.contains(nutrient),
                  let value = Decimal(string: String(part[part.index(after: eq)...])), !value.isNaN else { continue }
            n[nutrient] = value
        }
    }
}
