import Foundation

/// schema.org Recipe as microdata (`itemscope itemtype=".../Recipe"` with `itemprop`s), for pages
/// without JSON-LD. A light reading: properties are taken from the tags after the recipe's own,
/// nested items (the author, a rating) are skipped, and the nutrition item is read.
enum RecipeMicrodata {
    static func recipes(in bytes: [UInt8]) -> [ImportedRecipe] {
        var recipes: [ImportedRecipe] = []
        var at = 0
        while let mark = RecipePage.find("schema.org/recipe", in: bytes, from: at) {
            let next = RecipePage.find("schema.org/recipe", in: bytes, from: mark + 17) ?? bytes.count
            if let recipe = recipe(bytes, from: mark, to: next) { recipes.append(recipe) }
            at = next
        }
        return recipes
    }

    private struct Tag {
        var name: String
        var attributes: String
        var end: Int
        func attribute(_ key: String) -> String? {
            guard let range = attributes.range(of: key + "=", options: .caseInsensitive) else { return nil }
            let rest = attributes[range.upperBound...]
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                return String(rest.prefix { $0 != " " && $0 != ">" })
            }
            return String(rest.dropFirst().prefix { $0 != quote })
        }
    }

    private static func tag(_ bytes: [UInt8], at open: Int) -> Tag? {
        guard let end = bytes[open...].prefix(4000).firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let text = String(decoding: bytes[(open + 1)..<end], as: UTF8.self)
        let name = text.prefix { $0.isLetter || $0.isNumber }.lowercased()
        return Tag(name: name, attributes: text, end: end)
    }

    /// Where the element whose start tag ends at `tag.end` closes (nested tags of its name counted).
    private static func close(_ bytes: [UInt8], _ tag: Tag, limit: Int) -> Int {
        if ["meta", "link", "img", "br", "input", "source"].contains(tag.name) || tag.attributes.hasSuffix("/") { return tag.end }
        var depth = 1, at = tag.end
        while depth > 0, let lt = bytes[at..<limit].firstIndex(of: UInt8(ascii: "<")) {
            if let t = self.tag(bytes, at: lt), t.name == tag.name { depth += 1; at = t.end; continue }
            if lt + 1 < limit, bytes[lt + 1] == UInt8(ascii: "/"),
               RecipePage.find("</" + tag.name, in: bytes, from: lt, before: lt + tag.name.count + 2) == lt {
                depth -= 1
                if depth == 0 { return lt }
            }
            at = lt + 1
        }
        return limit
    }

    private static func recipe(_ bytes: [UInt8], from mark: Int, to limit: Int) -> ImportedRecipe? {
        var props: [(String, String)] = []
        var nutrition: [String: Any] = [:]
        var at = mark
        var skipUntil = 0
        while let found = RecipePage.find("itemprop=", in: bytes, from: at, before: limit) {
            at = found + 9
            guard let open = bytes[..<found].lastIndex(of: UInt8(ascii: "<")), let tag = tag(bytes, at: open),
                  let prop = tag.attribute("itemprop")?.trimmed else { continue }
            let end = close(bytes, tag, limit: limit)
            if found < skipUntil { continue }
            let value = tag.attribute("content") ?? tag.attribute("datetime")
                ?? (tag.name == "img" ? tag.attribute("src") : nil)
                ?? String(decoding: bytes[min(tag.end + 1, end)..<end], as: UTF8.self)
            if tag.attributes.lowercased().contains("itemscope") {
                if prop == "nutrition" {
                    for (key, v) in properties(bytes, from: tag.end, to: end) { nutrition[key] = v }
                }
                skipUntil = end
                continue
            }
            props.append((prop, value))
        }
        func all(_ key: String...) -> [String] { props.filter { key.contains($0.0) }.flatMap { RecipeSchema.steps($0.1) } }
        func first(_ key: String) -> String? { props.first { $0.0 == key }.map { RecipePage.text($0.1) }?.nilIfEmptyString }
        guard let name = first("name") else { return nil }
        let (prep, cook, total) = ImportedRecipe.times(prep: first("prepTime"), cook: first("cookTime"), total: first("totalTime"))
        return ImportedRecipe(
            name: name, description: first("description"),
            ingredients: props.filter { $0.0 == "recipeIngredient" || $0.0 == "ingredients" }.map { RecipePage.text($0.1) }.filter { !$0.isEmpty },
            steps: all("recipeInstructions"), yield: first("recipeYield"),
            prepMinutes: prep, cookMinutes: cook, totalMinutes: total, url: first("url"), image: first("image"),
            nutritionPerServing: nutrition.isEmpty ? nil : RecipeSchema.nutrition(nutrition))
    }

    /// The plain properties between two offsets (a nested item's own).
    private static func properties(_ bytes: [UInt8], from: Int, to limit: Int) -> [(String, String)] {
        var props: [(String, String)] = []
        var at = from
        while let found = RecipePage.find("itemprop=", in: bytes, from: at, before: limit) {
            at = found + 9
            guard let open = bytes[..<found].lastIndex(of: UInt8(ascii: "<")), let tag = tag(bytes, at: open),
                  let prop = tag.attribute("itemprop") else { continue }
            let end = close(bytes, tag, limit: limit)
            props.append((prop, tag.attribute("content") ?? RecipePage.text(String(decoding: bytes[min(tag.end + 1, end)..<end], as: UTF8.self))))
        }
        return props
    }
}
