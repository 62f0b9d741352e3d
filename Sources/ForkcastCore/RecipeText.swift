import Foundation

/// A recipe pasted as plain text: the first line is its title; "Ingredients" and "Method" (or
/// "Instructions", "Directions", "Steps") headings split the rest. Without headings, lines that
/// start with an amount or a bullet are ingredients and the lines after them are steps. "Serves 4",
/// "Prep time: 10 min" and "Cook time: 1 hour" lines set the yield and times.
public enum RecipeText {
    private enum Section { case preamble, ingredients, steps }

    public static func recipe(in text: String) -> ImportedRecipe? {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0).tidiedText }.filter { !$0.isEmpty }
        guard let title = lines.first else { return nil }
        var recipe = ImportedRecipe(name: String(title.prefix(MealDraft.maximumDescriptionLength)))
        let headed = lines.contains { heading($0) != nil }
        var section = Section.preamble
        var notes: [String] = []
        for line in lines.dropFirst() {
            if let next = heading(line) { section = next; continue }
            if metadata(line, into: &recipe) { continue }
            let bare = withoutMarker(line)
            switch section {
            case .ingredients:
                recipe.ingredients.append(bare)
            case .steps:
                recipe.steps.append(bare)
            case .preamble where !headed:
                if startsLikeIngredient(line), recipe.steps.isEmpty { recipe.ingredients.append(bare) }
                else if !recipe.ingredients.isEmpty { recipe.steps.append(bare) }
                else { notes.append(line) }
            case .preamble:
                notes.append(line)
            }
        }
        recipe.description = notes.isEmpty ? nil : notes.joined(separator: "\n")
        return recipe
    }

    private static func heading(_ line: String) -> Section? {
        let key = line.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":# *").union(.whitespaces))
        if ["ingredients", "ingredient", "you will need", "you'll need", "zutaten", "ingrédients", "ingredientes"].contains(key) { return .ingredients }
        if ["method", "instructions", "directions", "steps", "preparation", "how to make it", "zubereitung", "préparation", "preparación"].contains(key) { return .steps }
        return nil
    }

    private static func metadata(_ line: String, into recipe: inout ImportedRecipe) -> Bool {
        let lower = line.lowercased()
        guard line.count < 80 else { return false }
        if lower.hasPrefix("serves") || lower.hasPrefix("servings") || lower.hasPrefix("yield") || lower.hasPrefix("makes") {
            recipe.yield = line.drop { $0 != " " && $0 != ":" }.trimmingCharacters(in: CharacterSet(charactersIn: ": ")).nilIfEmptyString ?? line
            return true
        }
        for (prefix, path) in [("prep", \ImportedRecipe.prepMinutes), ("cook", \ImportedRecipe.cookMinutes), ("total", \ImportedRecipe.totalMinutes)]
        where lower.hasPrefix(prefix) && lower.contains("time") {
            recipe[keyPath: path] = ImportedRecipe.minutes(String(line.drop { $0 != ":" && !$0.isNumber }.drop { $0 == ":" }))
            return true
        }
        return false
    }

    private static func startsLikeIngredient(_ line: String) -> Bool {
        if let first = line.first, "-•*▢□☐".contains(first) { return true }
        return CookQuantity.leading(Substring(line)) != nil && line.count < 120
    }

    /// The line without its list marker: "- ", "• ", "1. ", "2) ", "Step 3: ".
    private static func withoutMarker(_ line: String) -> String {
        var s = Substring(line)
        if s.lowercased().hasPrefix("step ") { s = s.dropFirst(5) }
        if let first = s.first, "-•*▢□☐".contains(first) { return String(s.dropFirst()).trimmed }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 3, let mark = s.dropFirst(digits.count).first, ".):".contains(mark),
           s.dropFirst(digits.count + 1).first == " " {
            return String(s.dropFirst(digits.count + 1)).trimmed
        }
        return line
    }
}
