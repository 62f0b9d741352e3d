import Foundation

/// One line of a recipe's ingredients as a cook wrote it, read into its parts:
/// "2 1/2 cups flour, sifted" is 2½ cup of "flour", prepared "sifted";
/// "1 (400 g) can chickpeas" is 1 can of "chickpeas", noted "400 g";
/// "salt to taste" has no amount: "salt", "to taste".
public struct IngredientLine: Hashable, Sendable, Codable {
    /// The line as written, white space tidied.
    public var text: String
    public var quantity: CookQuantity?
    public var unit: CookUnit?
    /// What the line is of, as a name to look a food up by.
    public var food: String
    /// How it is prepared or used: "sifted", "cut into florets", "to taste".
    public var preparation: String?
    /// Sizes and asides: "large", "400 g", "~1 1/2 lb."
    public var note: String?

    public static let maximumLength = 500

    public init(_ written: String) {
        let text = String(written.tidiedText.prefix(Self.maximumLength))
        self.text = text
        var notes: [String] = []
        var rest = Substring(Self.removingAsides(text, into: &notes))
        rest = rest.drop { "-•*▢□☐✓·–—".contains($0) || $0 == " " }
        // "Optional glaze: ½ cup powdered sugar": a heading before the amount is not the food.
        var heading: Substring?
        if let colon = rest.firstIndex(of: ":"), rest.distance(from: rest.startIndex, to: colon) <= 40,
           !rest[..<colon].contains(where: \.isNumber) {
            let after = rest[rest.index(after: colon)...].drop { $0 == " " }
            if CookQuantity.leading(after) != nil { heading = rest[..<colon]; rest = after }
        }
        var unit: CookUnit?
        var quantity: CookQuantity?
        if let (found, after) = CookQuantity.leading(rest), Self.countsAsAmount(rest, after: after) {
            quantity = found
            rest = after.drop { $0 == " " }
            // "1, 14 oz can of condensed milk"
            if rest.hasPrefix(","), CookQuantity.leading(rest.dropFirst().drop { $0 == " " }) != nil { rest = rest.dropFirst().drop { $0 == " " } }
            if rest.hasPrefix("x ") { rest = rest.dropFirst(2) }
            if let (size, after) = Self.packageSize(rest) { notes.append(size); rest = after }
            let sized = Self.sizes(rest)
            notes += sized.words
            rest = sized.rest
            if let (found, after) = Self.unitWord(rest) {
                unit = found
                rest = after
                if let (size, after) = Self.packageSize(rest) { notes.append(size); rest = after }
                if rest.lowercased().hasPrefix("of ") { rest = rest.dropFirst(3) }
            }
        }
        var food = String(rest).trimmed
        var preparation: String?
        if var comma = food.firstIndex(where: { $0 == "," || $0 == ";" }) {
            // "boneless, skinless chicken breasts, cubed": describing words before the first comma
            // are of the food after it.
            let lead = food[..<comma].lowercased().split(separator: " ")
            if !lead.isEmpty, lead.allSatisfy({ Self.leadingWords.contains(String($0)) }) {
                food.replaceSubrange(comma...comma, with: " ")
                comma = food.firstIndex(where: { $0 == "," || $0 == ";" }) ?? food.endIndex
            }
            preparation = comma < food.endIndex ? String(food[food.index(after: comma)...]).trimmed.nilIfEmptyString : nil
            food = String(food[..<comma]).replacingOccurrences(of: "  ", with: " ").trimmed
        }
        for phrase in Self.trailingUses {
            let lower = food.lowercased()
            if lower == phrase || lower.hasSuffix(" " + phrase) {
                preparation = [phrase, preparation].compactMap { $0 }.joined(separator: ", ")
                food = String(food.dropLast(phrase.count)).trimmed
                break
            }
        }
        // "Salt: 1 tsp": the heading was the food.
        if food.isEmpty, let heading { food = String(heading).trimmed }
        // "3 garlic cloves", "2 celery stalks": the unit after the food.
        if unit == nil, quantity != nil, let space = food.lastIndex(of: " "),
           let last = CookUnit.named(String(food[food.index(after: space)...])), [.clove, .slice, .sprig, .stalk, .leaf, .head].contains(last) {
            unit = last
            food = String(food[..<space]).trimmed
        }
        self.quantity = quantity
        self.unit = unit
        self.food = food
        self.preparation = preparation
        self.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// The line for `factor` times the recipe: its amount scaled, everything else as written.
    public func scaled(by factor: Decimal) -> IngredientLine {
        var line = self
        line.quantity = quantity?.scaled(by: factor)
        return line
    }

    /// "2½ cups", "1.5 kg", "2" — nil for a line without an amount.
    public var amountText: String? { quantity?.text(unit: unit) }

    private static let leadingWords: Set<String> = ["boneless", "skinless", "bone-in", "skin-on", "crisp", "firm", "ripe",
                                                       "fresh", "cooked", "lean", "thick", "thin", "cold", "peeled"]
    private static let trailingUses = ["to taste", "as needed", "as required", "for serving", "to serve", "for garnish", "optional", "(optional)"]
    private static let sizeWords: Set<String> = ["large", "medium", "small", "big", "heaped", "heaping", "level", "rounded", "generous",
                                                 "scant", "extra-large", "extra", "good", "whole", "medium-sized", "large-sized", "small-sized"]

    /// "a" and "an" are amounts only before a unit ("a pinch of salt", not "a few sprigs").
    private static func countsAsAmount(_ text: Substring, after: Substring) -> Bool {
        let word = text.prefix { $0.isLetter }.lowercased()
        guard word == "a" || word == "an" else { return true }
        let next = after.drop { $0 == " " }
        return unitWord(sizes(next).rest) != nil
    }

    /// "large", "heaped": size words before a unit or a food.
    private static func sizes(_ text: Substring) -> (words: [String], rest: Substring) {
        var rest = text, words: [String] = []
        while true {
            let word = rest.prefix { $0 != " " }
            guard sizeWords.contains(word.lowercased()), rest.count > word.count else { return (words, rest) }
            words.append(String(word))
            rest = rest.dropFirst(word.count).drop { $0 == " " }
        }
    }

    /// A unit word at the start: "cups", "Tbsp.", "fl oz", "g" glued to the number.
    private static func unitWord(_ text: Substring) -> (CookUnit, Substring)? {
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if words.count >= 2, let unit = CookUnit.named("\(words[0]) \(words[1])") {
            return (unit, text.dropFirst(words[0].count).drop { $0 == " " }.dropFirst(words[1].count).drop { $0 == " " })
        }
        guard let first = words.first else { return nil }
        let word = first.prefix { $0.isLetter || $0 == "." }
        guard let unit = CookUnit.named(String(word)), word.count == first.count || first.dropFirst(word.count).first == "," else { return nil }
        // "c" alone is cups only when followed by something ("1 c flour"), never a food's initial.
        if unit == .cup, word.lowercased().hasPrefix("c"), word.count <= 2, words.count < 2 { return nil }
        return (unit, text.dropFirst(word.count).drop { $0 == " " })
    }

    /// "14-ounce can", "400 g tin": the size of a container, then the container.
    private static func packageSize(_ text: Substring) -> (String, Substring)? {
        guard let (size, after) = CookQuantity.number(text) else { return nil }
        let dashless = after.hasPrefix("-") ? after.dropFirst() : after
        guard let (measure, rest) = unitWord(dashless.drop { $0 == " " }), measure.grams != nil || measure.milliliters != nil,
              let (container, _) = unitWord(sizes(rest).rest), [.can, .jar, .package, .stick].contains(container) else { return nil }
        return ("\(size) \(measure.rawValue)", rest)
    }

    /// The line without its parenthesised asides, which go to `notes`.
    private static func removingAsides(_ text: String, into notes: inout [String]) -> String {
        var kept = "", aside = "", depth = 0
        for c in text {
            if c == "(" || c == "[" { depth += 1; if depth == 1 { continue } }
            if c == ")" || c == "]", depth > 0 {
                depth -= 1
                if depth == 0 { if let note = aside.trimmed.nilIfEmptyString { notes.append(note) }; aside = ""; continue }
            }
            if depth > 0 { aside.append(c) } else { kept.append(c) }
        }
        if depth > 0 { kept += aside }
        return kept.replacingOccurrences(of: " ,", with: ",").replacingOccurrences(of: "  ", with: " ")
    }
}

extension String {
    /// Runs of white space (tabs, newlines, no-break and zero-width spaces) as one space, trimmed.
    public var tidiedText: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        var space = false
        for scalar in unicodeScalars {
            if scalar == "\u{200B}" || scalar == "\u{FEFF}" { continue }
            if scalar.properties.isWhitespace || scalar.value < 0x20 {
                space = !out.isEmpty
                continue
            }
            if space { out.append(" "); space = false }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
