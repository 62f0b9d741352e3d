import Foundation

/// schema.org Recipe in JSON-LD, as pages write it: a node at the top, in an array, in `@graph` or
/// under another node; `@type` a string or an array; instructions as text, steps or sections.
enum RecipeSchema {
    /// Deeper JSON than this is refused before parsing: no recipe needs it, and a parser's
    /// recursion must not meet a hostile page's nesting.
    static let maximumDepth = 64

    static func recipes(inJSONLD text: String) -> [ImportedRecipe] {
        guard let json = parse(text) else { return [] }
        var nodes: [[String: Any]] = []
        collect(json, depth: 0, into: &nodes)
        return nodes.compactMap(recipe)
    }

    /// The block's JSON, tolerating what pages wrap it in (HTML comments, CDATA) and raw line
    /// breaks inside strings.
    static func parse(_ text: String) -> Any? {
        var t = text.trimmed
        for wrapper in ["<!--", "//<![CDATA[", "<![CDATA["] where t.hasPrefix(wrapper) { t.removeFirst(wrapper.count) }
        for wrapper in ["-->", "//]]>", "]]>"] where t.hasSuffix(wrapper) { t.removeLast(wrapper.count) }
        var bytes = Array(t.utf8)
        var depth = 0, deepest = 0, inString = false, escaped = false
        for k in bytes.indices {
            let b = bytes[k]
            if b < 0x20 { bytes[k] = 0x20; continue }
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        guard deepest <= maximumDepth else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    private static func collect(_ json: Any, depth: Int, into nodes: inout [[String: Any]]) {
        guard depth < maximumDepth else { return }
        if let array = json as? [Any] {
            for item in array { collect(item, depth: depth + 1, into: &nodes) }
        } else if let node = json as? [String: Any] {
            if isRecipe(node) { nodes.append(node); return }
            for (_, value) in node where value is [Any] || value is [String: Any] { collect(value, depth: depth + 1, into: &nodes) }
        }
    }

    static func isRecipe(_ node: [String: Any]) -> Bool {
        let types = (node["@type"] as? [Any] ?? [node["@type"] as Any]).compactMap { $0 as? String }
        return types.contains { $0 == "Recipe" || $0.hasSuffix("/Recipe") || $0.hasSuffix(":Recipe") }
    }

    static func recipe(_ node: [String: Any]) -> ImportedRecipe? {
        guard let name = texts(node["name"] ?? node["headline"]).first else { return nil }
        let (prep, cook, total) = ImportedRecipe.times(prep: texts(node["prepTime"]).first, cook: texts(node["cookTime"]).first,
                                                       total: texts(node["totalTime"]).first)
        return ImportedRecipe(
            name: name, description: texts(node["description"]).first,
            ingredients: texts(node["recipeIngredient"] ?? node["ingredients"]),
            steps: steps(node["recipeInstructions"] ?? node["RecipeInstructions"]),
            yield: yield(node["recipeYield"] ?? node["yield"]),
            prepMinutes: prep, cookMinutes: cook, totalMinutes: total,
            url: texts(node["url"]).first, image: image(node["image"]),
            nutritionPerServing: (node["nutrition"] as? [String: Any]).flatMap(nutrition))
    }

    /// Every string a value holds (a string, numbers, arrays of them, nodes with a name or text),
    /// as shown text, empty ones dropped.
    static func texts(_ value: Any?, depth: Int = 0) -> [String] {
        guard depth < 8, let value else { return [] }
        switch value {
        case let s as String: return RecipePage.text(s).nilIfEmptyString.map { [$0] } ?? []
        case let n as NSNumber: return ["\(n)"]
        case let array as [Any]: return array.flatMap { texts($0, depth: depth + 1) }
        case let node as [String: Any]: return texts(node["text"] ?? node["name"] ?? node["@value"], depth: depth + 1)
        default: return []
        }
    }

    /// Steps in order: a section's name leads its first step ("For the sauce: whisk…"); a text
    /// with list items or paragraphs is split at them, else at line breaks.
    static func steps(_ value: Any?, depth: Int = 0) -> [String] {
        guard depth < 8, let value else { return [] }
        switch value {
        case let s as String:
            let parts = splitting(s)
            return parts.map(RecipePage.text).filter { !$0.isEmpty }
        case let array as [Any]:
            // A string in a list is one step, line breaks and all.
            return array.flatMap { ($0 as? String).map { [RecipePage.text($0)].filter { !$0.isEmpty } } ?? steps($0, depth: depth + 1) }
        case let node as [String: Any]:
            let types = (node["@type"] as? [Any] ?? [node["@type"] as Any]).compactMap { $0 as? String }
            if let items = node["itemListElement"] {
                var inner = steps(items, depth: depth + 1)
                if types.contains("HowToSection"), let title = texts(node["name"]).first, !inner.isEmpty {
                    inner[0] = title.hasSuffix(":") ? "\(title) \(inner[0])" : "\(title): \(inner[0])"
                }
                return inner
            }
            return texts(node["text"] ?? node["name"] ?? node["description"]).prefix(1).map { $0 }
        default:
            return []
        }
    }

    private static func splitting(_ s: String) -> [String] {
        let lower = s.lowercased()
        for tag in ["<li", "<p"] where lower.contains(tag) {
            return s.replacingOccurrences(of: tag, with: "\u{1}" + tag, options: .caseInsensitive)
                .split(separator: "\u{1}").map(String.init)
        }
        let unescaped = s.replacingOccurrences(of: "\\n", with: "\n")
        return unescaped.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map(String.init)
    }

    /// The yield's words, preferring one that says what it counts ("4 servings" over "4").
    static func yield(_ value: Any?) -> String? {
        if let node = value as? [String: Any], let amount = texts(node["value"]).first {
            return ([amount] + texts(node["unitText"])).joined(separator: " ")
        }
        let all = texts(value)
        return all.first { $0.contains { $0.isLetter } && $0.contains { $0.isNumber } } ?? all.first
    }

    static func image(_ value: Any?) -> String? {
        switch value {
        case let s as String: s.trimmed.nilIfEmptyString
        case let array as [Any]: array.lazy.compactMap(image).first
        case let node as [String: Any]: image(node["url"] ?? node["contentUrl"])
        default: nil
        }
    }

    /// The page's nutrition block: energy in kcal (or kJ), grams of the macros, milligrams of sodium.
    static func nutrition(_ node: [String: Any]) -> Nutrients? {
        var n = Nutrients()
        func value(_ key: String) -> (Decimal, String)? {
            guard let text = texts(node[key]).first, let number = ImportedRecipe.leadingNumber(text) else { return nil }
            return (number, text.lowercased())
        }
        if let (energy, text) = value("calories") {
            n.energyKcal = text.contains("kj") && !text.contains("kcal") ? Nutrients.kilocalories(fromKilojoules: energy) : energy
        }
        let grams: [(String, Nutrient)] = [("proteinContent", .protein), ("carbohydrateContent", .carbohydrates), ("fatContent", .fat),
                                           ("fiberContent", .fiber), ("sugarContent", .sugars), ("saturatedFatContent", .saturatedFat)]
        for (key, nutrient) in grams { if let (v, text) = value(key) { n[nutrient] = text.contains("mg") ? v / 1000 : v } }
        for (key, nutrient) in [("sodiumContent", Nutrient.sodium), ("cholesterolContent", .cholesterol)] {
            if let (v, text) = value(key) { n[nutrient] = text.contains("mg") || !text.contains("g") ? v : v * 1000 }
        }
        return n.isEmpty ? nil : n
    }
}
