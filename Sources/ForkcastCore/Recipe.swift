import Foundation

/// What makes a meal something to cook from: its steps, times, where it comes from, notes, and the
/// ingredient lines no food matches ("salt to taste"), kept as written among the others.
public struct Recipe: Hashable, Sendable, Codable {
    public var steps: [RecipeStep]
    public var prepMinutes: Int?
    public var cookMinutes: Int?
    /// Where the recipe comes from: an address or a book.
    public var source: String?
    public var notes: String?
    /// Lines kept as text, each at its place among the meal's ingredients.
    public var textIngredients: [TextIngredient]

    public init(steps: [RecipeStep] = [], prepMinutes: Int? = nil, cookMinutes: Int? = nil, source: String? = nil,
                notes: String? = nil, textIngredients: [TextIngredient] = []) {
        self.steps = steps
        self.prepMinutes = prepMinutes
        self.cookMinutes = cookMinutes
        self.source = source
        self.notes = notes
        self.textIngredients = textIngredients
    }

    public var isEmpty: Bool { self == Recipe() }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        steps = try c.decodeIfPresent([RecipeStep].self, forKey: .steps) ?? []
        prepMinutes = try c.decodeIfPresent(Int.self, forKey: .prepMinutes)
        cookMinutes = try c.decodeIfPresent(Int.self, forKey: .cookMinutes)
        source = try c.decodeIfPresent(String.self, forKey: .source)
        notes = try c.decodeIfPresent(String.self, forKey: .notes)
        textIngredients = try c.decodeIfPresent([TextIngredient].self, forKey: .textIngredients) ?? []
    }
}

/// One step of a recipe, with the timer it asks for.
public struct RecipeStep: Hashable, Sendable, Codable {
    public var text: String
    public var timerSeconds: Int?

    public init(text: String, timerSeconds: Int? = nil) {
        self.text = text
        self.timerSeconds = timerSeconds
    }
}

/// An ingredient line kept as written, at `position` in the meal's list of ingredients.
public struct TextIngredient: Hashable, Sendable, Codable {
    public var position: Int
    public var text: String

    public init(position: Int, text: String) {
        self.position = position
        self.text = text
    }
}

/// One line of a meal's ingredients in order: an amount of a food, or text.
public enum MealLine: Hashable, Sendable {
    case food(Ingredient)
    case text(String)
}

extension Meal {
    /// The ingredients and the text lines in the order the person gave them.
    public var lines: [MealLine] { MealLine.merging(ingredients, recipe.textIngredients) }
}

extension MealLine {
    public static func merging(_ foods: [Ingredient], _ texts: [TextIngredient]) -> [MealLine] {
        var lines = foods.map(MealLine.food)
        for text in texts.sorted(by: { $0.position < $1.position }) {
            lines.insert(.text(text.text), at: min(max(text.position, 0), lines.count))
        }
        return lines
    }

    /// The food lines and the text lines with their positions: how a meal stores `lines`.
    public static func split(_ lines: [MealLine]) -> (ingredients: [Ingredient], texts: [TextIngredient]) {
        var foods: [Ingredient] = [], texts: [TextIngredient] = []
        for (position, line) in lines.enumerated() {
            switch line {
            case .food(let ingredient): foods.append(ingredient)
            case .text(let text): texts.append(TextIngredient(position: position, text: text))
            }
        }
        return (foods, texts)
    }
}

extension Recipe {
    public static let maximumSteps = 100
    public static let maximumStepLength = 2000
    public static let maximumTimerSeconds = 48 * 3600
    public static let maximumMinutes = 7 * 24 * 60
    public static let maximumSourceLength = 500
    public static let maximumNotesLength = 10_000
    public static let maximumLineLength = IngredientLine.maximumLength

    /// Trimmed and checked: blank steps and lines dropped, lengths and numbers within bounds.
    public func validated(into problems: inout [ValidationError.Field]) -> Recipe {
        var steps: [RecipeStep] = []
        for (index, step) in self.steps.enumerated() {
            let text = step.text.trimmed
            if text.count > Self.maximumStepLength {
                problems.append(.init(field: "steps[\(index)].text", message: "Step \(index + 1) is \(text.count) characters long; keep it to \(Self.maximumStepLength) or fewer."))
            }
            if let timer = step.timerSeconds, !(1...Self.maximumTimerSeconds).contains(timer) {
                problems.append(.init(field: "steps[\(index)].timerSeconds", message: "A step's timer runs from 1 second to \(Self.maximumTimerSeconds / 3600) hours."))
            }
            if !text.isEmpty { steps.append(RecipeStep(text: text, timerSeconds: step.timerSeconds)) }
        }
        if steps.count > Self.maximumSteps {
            problems.append(.init(field: "steps", message: "A recipe can have at most \(Self.maximumSteps) steps; this one has \(steps.count)."))
        }
        for (field, minutes) in [("prepMinutes", prepMinutes), ("cookMinutes", cookMinutes)] {
            if let minutes, !(0...Self.maximumMinutes).contains(minutes) {
                problems.append(.init(field: field, message: "Minutes run from 0 to \(Self.maximumMinutes) (a week)."))
            }
        }
        let source = self.source?.trimmed.nilIfEmptyString, notes = self.notes?.trimmed.nilIfEmptyString
        if let source, source.count > Self.maximumSourceLength {
            problems.append(.init(field: "source", message: "The source is \(source.count) characters long; keep it to \(Self.maximumSourceLength) or fewer."))
        }
        if let notes, notes.count > Self.maximumNotesLength {
            problems.append(.init(field: "notes", message: "The notes are \(notes.count) characters long; keep them to \(Self.maximumNotesLength) or fewer."))
        }
        var texts: [TextIngredient] = []
        for line in textIngredients {
            let text = line.text.trimmed
            if text.count > Self.maximumLineLength {
                problems.append(.init(field: "ingredients[\(line.position)].text", message: "An ingredient line is at most \(Self.maximumLineLength) characters long."))
            }
            if !text.isEmpty { texts.append(TextIngredient(position: line.position, text: text)) }
        }
        return Recipe(steps: steps, prepMinutes: prepMinutes, cookMinutes: cookMinutes, source: source, notes: notes, textIngredients: texts)
    }
}

extension RecipeStep {
    /// Which of `names` (the recipe's ingredients) the step names, by index: whole words, any case,
    /// a plural "s" allowed ("the onions" names "onion"). Names shorter than 3 letters are skipped.
    public func mentions(_ names: [String]) -> [Int] {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        let joined = " " + words.joined(separator: " ") + " "
        return names.indices.filter { index in
            let name = names[index].lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
            guard name.count >= 3 else { return false }
            return joined.contains(" \(name) ") || joined.contains(" \(name)s ") || joined.contains(" \(name)es ")
        }
    }
}
