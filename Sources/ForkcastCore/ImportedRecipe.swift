import Foundation

/// What a page, a file or a pasted text says about one recipe, before anything is matched or
/// saved: the import's raw reading.
public struct ImportedRecipe: Hashable, Sendable {
    public var name: String
    public var description: String?
    public var ingredients: [String]
    public var steps: [String]
    /// The yield as the page says it ("4 servings", "12 cookies").
    public var yield: String?
    public var prepMinutes: Int?
    public var cookMinutes: Int?
    public var totalMinutes: Int?
    /// The page's address, when it gives one.
    public var url: String?
    public var image: String?
    /// The page's own nutrition of one serving, when it states it.
    public var nutritionPerServing: Nutrients?

    public init(name: String, description: String? = nil, ingredients: [String] = [], steps: [String] = [], yield: String? = nil,
                prepMinutes: Int? = nil, cookMinutes: Int? = nil, totalMinutes: Int? = nil, url: String? = nil, image: String? = nil,
                nutritionPerServing: Nutrients? = nil) {
        self.name = name
        self.description = description
        self.ingredients = ingredients
        self.steps = steps
        self.yield = yield
        self.prepMinutes = prepMinutes
        self.cookMinutes = cookMinutes
        self.totalMinutes = totalMinutes
        self.url = url
        self.image = image
        self.nutritionPerServing = nutritionPerServing
    }

    /// The servings the yield names: its first number, or a range's upper end ("Serves 4-6" → 6,
    /// as recipe-scrapers reads it); nil without one.
    public var servings: Int? {
        guard let yield, let (quantity, _) = CookQuantity.leading(Substring(yield.drop { !$0.isNumber })) else { return nil }
        let amount = quantity.upTo ?? quantity.amount
        guard amount < 1_000_000 else { return nil }
        let whole = NSDecimalNumber(decimal: amount.rounded(0)).intValue
        return whole > 0 ? whole : nil
    }

    /// Minutes in a duration as pages write it: ISO 8601 ("PT1H30M", "P0DT0H20M0.000S"), a number of
    /// minutes, or words ("1 hour 15 minutes", "20 mins"). A range counts its upper end. nil for none.
    public static func minutes(_ text: String) -> Int? {
        var t = text.trimmed.uppercased()
        let iso = t.hasPrefix("P")
        if !iso, let dash = t.firstIndex(where: { $0 == "-" || $0 == "–" }) { t = String(t[t.index(after: dash)...]) }
        if !iso, let to = t.range(of: " TO ") { t = String(t[to.upperBound...]) }
        let chars = Array(t.prefix(200))
        var seconds = 0.0, found = false, inTime = !iso, k = iso ? 1 : 0
        while k < chars.count {
            if iso, chars[k] == "T" { inTime = true; k += 1; continue }
            var number = ""
            while k < chars.count, chars[k].isASCII, chars[k].isNumber || chars[k] == "." || chars[k] == "," {
                number.append(chars[k] == "," ? "." : chars[k]); k += 1
            }
            guard let value = Double(number) else { k += 1; continue }
            while k < chars.count, chars[k] == " " { k += 1 }
            var word = ""
            while k < chars.count, chars[k].isLetter, !(iso && !word.isEmpty) { word.append(chars[k]); k += 1 }
            switch word.first {
            case "D": seconds += value * 86_400
            case "H": seconds += value * 3600
            case "M" where inTime: seconds += value * 60
            case "S" where inTime: seconds += value
            case nil: seconds += value * 60
            default: continue
            }
            found = true
        }
        guard found, seconds.isFinite, seconds < 1e9 else { return nil }
        let whole = Int((seconds / 60).rounded(.up))
        return whole > 0 ? whole : nil
    }

    /// Preparation, cooking and total minutes as a page gives them; without a total, the sum of the
    /// other two (as recipe-scrapers reads it).
    static func times(prep: String?, cook: String?, total: String?) -> (Int?, Int?, Int?) {
        let p = prep.flatMap(minutes), c = cook.flatMap(minutes)
        return (p, c, total.flatMap(minutes) ?? (p == nil && c == nil ? nil : (p ?? 0) + (c ?? 0)))
    }

    /// A number at the start of a nutrition value ("143 kcal", "12 g", "1,205"), nil without one.
    static func leadingNumber(_ text: String) -> Decimal? {
        let t = text.trimmed.replacingOccurrences(of: ",", with: ".")
        let digits = t.prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty, digits.count < 12 else { return nil }
        return Decimal(typed: String(digits))
    }
}
