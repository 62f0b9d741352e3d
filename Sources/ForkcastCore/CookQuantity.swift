import Foundation

/// How much of something a recipe asks for: an amount, or a range ("2-3 heads") read as its
/// first number with the upper one kept for display.
public struct CookQuantity: Hashable, Sendable, Codable {
    public var amount: Decimal
    public var upTo: Decimal?

    public init(_ amount: Decimal, upTo: Decimal? = nil) {
        self.amount = amount
        self.upTo = upTo
    }

    public func scaled(by factor: Decimal) -> CookQuantity {
        CookQuantity(amount * factor, upTo: upTo.map { $0 * factor })
    }

    static let vulgarFractions: [Character: Decimal] = [
        "½": Decimal(1) / 2, "⅓": Decimal(1) / 3, "⅔": Decimal(2) / 3, "¼": Decimal(1) / 4, "¾": Decimal(3) / 4,
        "⅕": Decimal(1) / 5, "⅖": Decimal(2) / 5, "⅗": Decimal(3) / 5, "⅘": Decimal(4) / 5, "⅙": Decimal(1) / 6,
        "⅚": Decimal(5) / 6, "⅛": Decimal(1) / 8, "⅜": Decimal(3) / 8, "⅝": Decimal(5) / 8, "⅞": Decimal(7) / 8,
    ]

    private static let numberWords: [String: Decimal] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "half": Decimal(1) / 2, "dozen": 12,
    ]

    /// The quantity at the start of `text` and what follows it: "2 1/2 cups", "1½", "½", "2-3",
    /// "2 to 3", "1,5 kg", "400g", "two". nil when the text does not start with one.
    public static func leading(_ text: Substring) -> (CookQuantity, rest: Substring)? {
        guard let (first, afterFirst) = number(text) else { return nil }
        var rest = afterFirst
        let trimmed = rest.drop { $0 == " " }
        for separator in ["-", "–", "—", "to ", "or "] where trimmed.hasPrefix(separator) {
            if let (second, afterSecond) = number(trimmed.dropFirst(separator.count)), second > first {
                return (CookQuantity(first, upTo: second), afterSecond)
            }
        }
        if first == 1, trimmed.lowercased().hasPrefix("dozen") {
            rest = trimmed.dropFirst(5)
            return (CookQuantity(12), rest)
        }
        return (CookQuantity(first), rest)
    }

    /// One number: digits with a decimal point or comma, a fraction, a vulgar fraction, a mixed
    /// number, or a number word followed by a space.
    static func number(_ text: Substring) -> (Decimal, Substring)? {
        var s = text.drop { $0 == " " }
        if let value = vulgarFractions[s.first ?? " "] { return (value, s.dropFirst()) }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return word(s) }
        s = s.dropFirst(digits.count)
        var whole = Decimal(string: String(digits)) ?? 0
        // "1.5", "1,5" (decimal comma), but "1,500" is a thousands separator.
        if let mark = s.first, mark == "." || mark == "," {
            let decimals = s.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if !decimals.isEmpty, decimals.count <= 6, !(mark == "," && decimals.count == 3) {
                whole = Decimal(string: "\(digits).\(decimals)") ?? whole
                return (whole, s.dropFirst(1 + decimals.count))
            } else if mark == ",", decimals.count == 3 {
                whole = Decimal(string: "\(digits)\(decimals)") ?? whole
                return (whole, s.dropFirst(4))
            }
        }
        if let (fraction, rest) = fraction(s, numerator: whole) { return (fraction, rest) }
        if let value = vulgarFractions[s.first ?? " "] { return (whole + value, s.dropFirst()) }
        let spaced = s.drop { $0 == " " }
        if spaced.count < s.count {
            if let value = vulgarFractions[spaced.first ?? " "] { return (whole + value, spaced.dropFirst()) }
            let top = spaced.prefix { $0.isASCII && $0.isNumber }
            if !top.isEmpty, top.count <= 4, let n = Decimal(string: String(top)),
               let (part, rest) = fraction(spaced.dropFirst(top.count), numerator: n), part < 1 {
                return (whole + part, rest)
            }
        }
        return (whole, s)
    }

    /// "/3" after a numerator: the fraction and what follows.
    private static func fraction(_ s: Substring, numerator: Decimal) -> (Decimal, Substring)? {
        guard let slash = s.first, slash == "/" || slash == "⁄" else { return nil }
        let bottom = s.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard !bottom.isEmpty, bottom.count <= 4, let d = Decimal(string: String(bottom)), d > 0 else { return nil }
        return (numerator / d, s.dropFirst(1 + bottom.count))
    }

    private static func word(_ s: Substring) -> (Decimal, Substring)? {
        let letters = s.prefix { $0.isLetter }
        guard let value = numberWords[letters.lowercased()], s.dropFirst(letters.count).first == " " else { return nil }
        return (value, s.dropFirst(letters.count))
    }
}

extension CookQuantity {
    /// The amount as a cook writes it, with the unit it reads best in: 1,500 g → "1.5 kg",
    /// 0.333 cup → "⅓ cup", 2 eggs → "2", 2.5 → "2½". Ranges keep both ends ("2–3").
    public func text(unit: CookUnit?) -> String {
        var unit = unit
        var low = amount, high = upTo
        switch unit {
        case .gram? where low >= 1000, .milliliter? where low >= 1000:
            unit = unit == .gram ? .kilogram : .liter
            low /= 1000; high = high.map { $0 / 1000 }
        case .kilogram? where low < 1, .liter? where low < 1:
            unit = unit == .kilogram ? .gram : .milliliter
            low *= 1000; high = high.map { $0 * 1000 }
        default: break
        }
        let number = Self.number(low, unit: unit) + (high.map { "–" + Self.number($0, unit: unit) } ?? "")
        guard let unit else { return number }
        return "\(number) \(unit.label(plural: (high ?? low) > 1))"
    }

    /// One number in a cook's style: fractions for cups, spoons and counts; whole grams and
    /// millilitres (one decimal below 20, steps of 5 above 100); two decimals at most for kg and l.
    static func number(_ value: Decimal, unit: CookUnit?) -> String {
        switch unit {
        case .gram?, .milliliter?, .milligram?:
            if value < 20 { return value.display(1) }
            if value < 100 { return value.display(0) }
            return ((value / 5).rounded(0) * 5).display(0)
        case .kilogram?, .liter?, .deciliter?, .centiliter?:
            return value.display(2)
        default:
            return fractionText(value)
        }
    }

    private static let fractionGlyphs: [(Decimal, String)] = [
        (0, ""), (Decimal(1) / 8, "⅛"), (Decimal(1) / 4, "¼"), (Decimal(1) / 3, "⅓"), (Decimal(3) / 8, "⅜"),
        (Decimal(1) / 2, "½"), (Decimal(5) / 8, "⅝"), (Decimal(2) / 3, "⅔"), (Decimal(3) / 4, "¾"), (Decimal(7) / 8, "⅞"), (1, ""),
    ]

    /// "2½", "⅓", "12"; a value too small for an eighth keeps two decimals ("0.05").
    static func fractionText(_ value: Decimal) -> String {
        guard value > 0 else { return value.display(2) }
        if value < Decimal(1) / 16 { return value.display(2) }
        if value >= 10 { return value.display(value >= 100 ? 0 : 1) }
        var whole = value.rounded(0)
        if whole > value { whole -= 1 }
        let part = value - whole
        let nearest = fractionGlyphs.min { abs($0.0 - part) < abs($1.0 - part) } ?? (0, "")
        if nearest.0 == 1 { return (whole + 1).display(0) }
        if whole == 0 { return nearest.1.isEmpty ? "0" : nearest.1 }
        return whole.display(0) + nearest.1
    }
}
