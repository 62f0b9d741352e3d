import Foundation

extension IngredientLine {
    /// The names to look the line's food up by, most particular first (at most eight): the food
    /// without the words that say only how it is cut, warmed or sold ("chopped fresh parsley" →
    /// "parsley"); each side of "or", "and", "+", "&" and "/" ("dried or fresh parsley" gives
    /// "dried parsley" and "parsley"); the first of them without a last word that names a cut
    /// ("salmon fillet" → "salmon"), then with its leading words dropped one at a time ("English
    /// cucumber" → "cucumber": in English the food's own word comes last; a vague one, "powder", is
    /// not searched alone).
    public var searchNames: [String] {
        var names: [String] = []
        func add(_ words: some Collection<String>) {
            let name = words.joined(separator: " ")
            // A name of dashes alone ("--") has no word to search by.
            if name.count >= CatalogSearch.minimumQueryLength, !CatalogSearch.terms(name).isEmpty, !names.contains(name), names.count < 8 {
                names.append(name)
            }
        }
        var food = food
        // "For the glaze: salt": the heading is not the food.
        if let colon = food.firstIndex(of: ":") { food = String(food[food.index(after: colon)...]) }
        // "cream cheese with chives", "Parmesan cheese for topping": the food is before.
        for word in [" with ", " for "] {
            if let range = food.range(of: word, options: .caseInsensitive) { food = String(food[..<range.lowerBound]) }
        }
        var alternatives = food.lowercased()
            .replacingOccurrences(of: " or ", with: "|").replacingOccurrences(of: " and ", with: "|")
            .split { "|+&/".contains($0) }
            .map { $0.split { !$0.isLetter && $0 != "-" && $0 != "'" }.map(String.init).filter { $0.contains(where: \.isLetter) && !Self.mannerWords.contains($0) } }
            .filter { !$0.isEmpty }
        // "white or brown sugar": a lone describing word is of the last alternative's food.
        if let last = alternatives.last, let head = last.last, alternatives.count > 1 {
            for i in alternatives.indices.dropLast() where alternatives[i].count == 1 && Self.kindWords.contains(alternatives[i][0])
                && (last.count > 1 || Self.describingWords.contains(alternatives[i][0])) {
                alternatives[i].append(head)
            }
        }
        var tried: [[String]] = alternatives
        if let words = alternatives.first {
            let core = words.count > 1 && Self.cutWords.contains(words[words.count - 1]) ? Array(words.dropLast()) : words
            tried.append(core)
            for start in core.indices.dropFirst() where start < core.count - 1 || !Self.vagueWords.contains(core[start]) {
                tried.append(Array(core[start...]))
            }
        }
        for words in tried {
            // "linguine" → "pasta", "mint" → "spearmint": first what the catalogue calls it.
            if words == ["mince"] { add(["ground", "beef"]) }
            for (i, word) in words.enumerated() where words != ["mince"] {
                if let other = Self.otherNames[word] {
                    add(words.prefix(i) + (words.contains(other) ? [] : [other]) + words.dropFirst(i + 1))
                }
            }
            add(words)
        }
        return names
    }

    /// Whether a food named `name` is in the state the line means: cooked when it says cooked, canned
    /// when it is in cans, grains and meat dry or raw otherwise (a recipe weighs them before cooking).
    public func means(_ name: String) -> Bool {
        let line = Set(CatalogSearch.terms([food, note ?? "", preparation ?? ""].joined(separator: " "))), named = Set(CatalogSearch.terms(name))
        if line.contains("cooked") { return named.contains("cooked") }
        if unit == .can || !line.isDisjoint(with: ["can", "canned", "tin", "tinned"]) { return named.contains("canned") }
        guard !line.isDisjoint(with: Self.weighedRaw) || !named.isDisjoint(with: Self.weighedRaw) else { return true }
        return !named.contains("cooked") && !named.isDisjoint(with: ["dry", "uncooked", "raw"])
    }

    static let weighedRaw: Set<String> = [
        "pasta", "rice", "quinoa", "oat", "lentil", "spaghetti", "macaroni", "noodle", "couscous", "barley", "bulgur",
        "chicken", "beef", "pork", "lamb", "turkey", "steak",
    ]

    /// Words the catalogue has under another name.
    static let otherNames: [String: String] = [
        "linguine": "pasta", "penne": "pasta", "fusilli": "pasta", "rigatoni": "pasta", "fettuccine": "pasta",
        "farfalle": "pasta", "orzo": "pasta", "tagliatelle": "pasta", "jasmine": "rice", "basmati": "rice",
        "arborio": "rice", "scallions": "green onions", "scallion": "green onion", "breadcrumbs": "bread crumbs",
        "panko": "bread crumbs", "courgette": "zucchini", "courgettes": "zucchini", "aubergine": "eggplant",
        "aubergines": "eggplant", "prawns": "shrimp", "prawn": "shrimp", "mince": "ground", "caster": "granulated",
        "icing": "powdered", "double": "heavy", "chilli": "chili", "chillies": "chili peppers", "plain": "all-purpose",
        "mint": "spearmint", "oreos": "chocolate sandwich cookies", "butt": "shoulder",
    ]

    /// Whether the line is an extra the recipe does without: "Optional: …", "… (optional)".
    public var isOptional: Bool {
        text.lowercased().split { !$0.isLetter }.contains("optional")
    }

    /// Whether a catalogue food's `name` is of what `query` names: each of the query's words is a
    /// word of the name, singular or plural ("limes" is "Limes, raw"; "Tajin" is not "Tahini").
    public static func names(_ query: String, match name: String) -> Bool {
        let words = Set(CatalogSearch.terms(name)), lower = name.lowercased(), terms = CatalogSearch.terms(query)
        return !terms.isEmpty && terms.allSatisfy { term in
            // "Chicken, canned, no broth" is no chicken broth; "Butter, without salt" no salt.
            !lower.contains("no \(term)") && !lower.contains("without \(term)") && (
            words.contains(term) || words.contains(term + "e") || (term.hasSuffix("e") && words.contains(String(term.dropLast())))
                || (term.hasSuffix("ie") && words.contains(term.dropLast(2) + "y")) || (term.hasSuffix("y") && words.contains(term.dropLast() + "ie")))
        }
    }

    /// The weight or volume the line's asides give (grams or ml), and whether it is that of each
    /// one counted: a container's ("1 (400 g) can"), one said of each ("2 cans salmon (6 oz / 170
    /// grams each)") or written as a size ("2 (6-ounce) fillets"); else the whole line's ("4 thighs
    /// (2 lbs total)", "2 heads broccoli (~1 1/2 lb.)").
    var noteSize: (amount: Decimal, milliliters: Bool, each: Bool)? {
        for aside in (note ?? "").split(separator: ";") {
            var text = String(aside).trimmed.lowercased()[...]
            let words = Set(text.split { !$0.isLetter })
            var total = !words.isDisjoint(with: ["total", "combined", "altogether", "all"])
            for word in ["~", "about ", "approx. ", "approximately ", "around ", "roughly ", "total "] where text.hasPrefix(word) {
                text = text.dropFirst(word.count).drop { $0 == " " }
                total = true
            }
            guard let (size, after) = CookQuantity.number(text), size > 0 else { continue }
            let each = !total && (!words.isDisjoint(with: ["each", "per"]) || after.hasPrefix("-") || [.can, .jar, .package, .stick].contains(unit))
            let unitText = (after.hasPrefix("-") ? after.dropFirst() : after).drop { $0 == " " }
            let word = unitText.prefix { $0.isLetter || $0 == "." }
            guard let unit = CookUnit.named(String(word)) else { continue }
            if let grams = unit.grams { return (size * grams, false, each) }
            if let ml = unit.milliliters, ![CookUnit.pinch, .dash, .drop].contains(unit) { return (size * ml, true, each) }
        }
        return nil
    }

    /// Words that say which kind of a food: alone before "or", they describe the next ("dried or
    /// fresh parsley"); so do ``kindWords`` when the next is of two words ("olive or avocado oil",
    /// not "chicken or tofu").
    static let describingWords: Set<String> = [
        "dried", "fresh", "white", "brown", "red", "green", "yellow", "black", "light", "dark", "sweet", "salted",
        "unsalted", "plain", "greek", "smoked", "frozen", "canned", "whole", "skim", "low-fat", "full-fat", "raw",
    ]
    static let kindWords: Set<String> = describingWords.union([
        "swiss", "corn", "flour", "wheat", "milk", "olive", "avocado", "vegetable", "canola", "sesame", "peanut",
        "sunflower", "almond", "soy", "chicken", "beef", "pork", "turkey",
    ])

    /// Last words that name a cut or a form of a food, not the food: "fillet", "florets".
    static let cutWords: Set<String> = [
        "fillet", "fillets", "florets", "pieces", "chunks", "leaves", "sprigs", "wedges", "slices", "cubes", "strips",
        "pot", "pods", "stalks", "ribs", "cloves", "heads", "breasts", "thighs", "steaks", "hearts",
    ]

    /// Last words too vague to name a food alone: "vanilla bean powder" is no baobab powder.
    static let vagueWords: Set<String> = ["powder", "sauce", "mix", "seasoning", "extract", "paste", "spice", "spices", "flakes", "dressing"]

    /// Words that say how a food is prepared, kept or bought, not which food it is.
    static let mannerWords: Set<String> = [
        "chopped", "diced", "minced", "sliced", "grated", "shredded", "peeled", "fresh", "freshly", "ripe", "finely",
        "roughly", "coarsely", "thinly", "thickly", "cracked", "packed", "softened", "melted", "warm", "cold", "hot",
        "boiling", "lukewarm", "room-temperature", "pure", "organic", "crushed", "halved", "quartered", "trimmed",
        "rinsed", "drained", "pitted", "seeded", "cubed", "toasted", "beaten", "whisked", "sifted", "unbleached",
        "kosher", "good-quality", "quality", "store-bought", "homemade", "your", "favourite", "favorite", "of", "a",
        "large", "medium", "small", "jumbo", "extra-large", "bite-size", "bite-sized", "lightly", "loosely", "firmly",
        "optional", "baby", "heaped", "heaping", "level", "about", "approximately", "leftover", "can", "cans", "tin", "tins",
        "jarred",
    ]
}
