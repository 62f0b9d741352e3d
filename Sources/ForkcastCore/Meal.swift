import Foundation

/// A dish in a user's library that can be planned (seed 002).
public struct Meal: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public var description: String
    public var primaryProtein: String?
    public var primaryCarb: String?
    public var otherComponents: [String]
    public var createdAt: Date
    public var updatedAt: Date
    /// How many servings the ingredients make.
    public var servings: Int
    public var ingredients: [Ingredient]
    /// Nutrition per serving typed in by hand, for a meal without ingredients.
    public var manualNutrition: Nutrients?
    /// Steps, times, source, notes and text lines: empty for a meal nobody cooks from.
    public var recipe: Recipe
    /// The recipe's photo, kept with the meal (not part of its content: an edit keeps it). An
    /// account's archive carries it apart (`recipePhotos`, docs/export-format.md).
    public var photoId: UUID?

    public init(
        id: UUID = UUID.timeOrdered(), description: String, primaryProtein: String? = nil, primaryCarb: String? = nil,
        otherComponents: [String] = [], createdAt: Date = Date(), updatedAt: Date? = nil,
        servings: Int = 1, ingredients: [Ingredient] = [], manualNutrition: Nutrients? = nil, recipe: Recipe = Recipe(),
        photoId: UUID? = nil
    ) {
        self.id = id
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.servings = servings
        self.ingredients = ingredients
        self.manualNutrition = manualNutrition
        self.recipe = recipe
        self.photoId = photoId
    }

    /// The meal's fields as a validated draft, e.g. to apply an edit.
    public var content: MealContent {
        MealContent(description: description, primaryProtein: primaryProtein,
                    primaryCarb: primaryCarb, otherComponents: otherComponents,
                    servings: servings, ingredients: ingredients, manualNutrition: manualNutrition, recipe: recipe)
    }

    /// The meal's fields with its ingredients' foods swapped by `foods` (old id → new): the meal as
    /// copied into another library along with its foods.
    public func content(swappingFoods foods: [UUID: UUID]) -> MealContent {
        MealContent(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb, otherComponents: otherComponents,
                    servings: servings, ingredients: ingredients.map { var i = $0; i.foodId = foods[i.foodId] ?? i.foodId; return i },
                    manualNutrition: manualNutrition, recipe: recipe)
    }

    /// One line naming everything the meal holds, for lists and the command line (seed 002 Req 2.2).
    public var displayText: String {
        var parts = [description]
        if let primaryProtein { parts.append("protein: \(primaryProtein)") }
        if let primaryCarb { parts.append("carb: \(primaryCarb)") }
        if !otherComponents.isEmpty { parts.append("with: " + otherComponents.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }
}

extension Meal {
    enum CodingKeys: String, CodingKey {
        case id, description, primaryProtein, primaryCarb, otherComponents, createdAt, updatedAt, servings, ingredients, manualNutrition, recipe
    }

    /// Archives written before recipes have no `recipe`: their meals have none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(UUID.self, forKey: .id), description: try c.decode(String.self, forKey: .description),
                  primaryProtein: try c.decodeIfPresent(String.self, forKey: .primaryProtein),
                  primaryCarb: try c.decodeIfPresent(String.self, forKey: .primaryCarb),
                  otherComponents: try c.decode([String].self, forKey: .otherComponents),
                  createdAt: try c.decode(Date.self, forKey: .createdAt), updatedAt: try c.decode(Date.self, forKey: .updatedAt),
                  servings: try c.decode(Int.self, forKey: .servings), ingredients: try c.decode([Ingredient].self, forKey: .ingredients),
                  manualNutrition: try c.decodeIfPresent(Nutrients.self, forKey: .manualNutrition),
                  recipe: try c.decodeIfPresent(Recipe.self, forKey: .recipe) ?? Recipe())
    }
}

/// What a person types to create or edit a meal, before validation.
public struct MealDraft: Sendable, Equatable {
    public var description: String
    public var primaryProtein: String?
    public var primaryCarb: String?
    public var otherComponents: [String]
    public var servings: Int
    public var ingredients: [Ingredient]
    public var manualNutrition: Nutrients?
    public var recipe: Recipe

    public init(description: String, primaryProtein: String? = nil, primaryCarb: String? = nil,
                otherComponents: [String] = [], servings: Int = 1, ingredients: [Ingredient] = [],
                manualNutrition: Nutrients? = nil, recipe: Recipe = Recipe()) {
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.servings = servings
        self.ingredients = ingredients
        self.manualNutrition = manualNutrition
        self.recipe = recipe
    }
}

/// The validated, normalised fields of a meal: only ``MealDraft/validated()`` makes one.
public struct MealContent: Sendable, Equatable {
    public let description: String
    public let primaryProtein: String?
    public let primaryCarb: String?
    public let otherComponents: [String]
    public let servings: Int
    public let ingredients: [Ingredient]
    public let manualNutrition: Nutrients?
    public let recipe: Recipe

    fileprivate init(description: String, primaryProtein: String?, primaryCarb: String?, otherComponents: [String],
                     servings: Int, ingredients: [Ingredient], manualNutrition: Nutrients?, recipe: Recipe) {
        self.description = description
        self.primaryProtein = primaryProtein
        self.primaryCarb = primaryCarb
        self.otherComponents = otherComponents
        self.servings = servings
        self.ingredients = ingredients
        self.manualNutrition = manualNutrition
        self.recipe = recipe
    }
}

extension Meal {
    /// A meal made from validated content.
    public init(id: UUID = UUID.timeOrdered(), content: MealContent, createdAt: Date = Date(), updatedAt: Date? = nil) {
        self.init(id: id, description: content.description, primaryProtein: content.primaryProtein,
                  primaryCarb: content.primaryCarb, otherComponents: content.otherComponents,
                  createdAt: createdAt, updatedAt: updatedAt, servings: content.servings,
                  ingredients: content.ingredients, manualNutrition: content.manualNutrition, recipe: content.recipe)
    }
}

extension MealDraft {
    public static let maximumDescriptionLength = 200
    public static let maximumNameLength = 60
    public static let maximumComponents = 30
    public static let maximumServings = 100
    public static let maximumIngredients = 100

    /// Trims and checks every field (seed 002 Req 1.4, 1.5; seed 000's "Validation Rules").
    ///
    /// The description must hold something besides white space; any Unicode is accepted. Protein and
    /// carb are optional (blank means none). Components are trimmed, blank ones dropped and repeats
    /// removed ignoring case, keeping the first spelling.
    public func validated() throws(ValidationError) -> MealContent {
        var problems: [ValidationError.Field] = []
        let description = self.description.trimmed
        if description.isEmpty {
            problems.append(.init(field: "description", message: "Description is required: say what the meal is, e.g. \"Chicken curry\"."))
        } else if description.count > Self.maximumDescriptionLength {
            problems.append(.init(field: "description", message: "Description is \(description.count) characters long; keep it to \(Self.maximumDescriptionLength) or fewer."))
        }
        let protein = Self.optionalName(primaryProtein, field: "primaryProtein", label: "Primary protein", into: &problems)
        let carb = Self.optionalName(primaryCarb, field: "primaryCarb", label: "Primary carb", into: &problems)

        var seen = Set<String>()
        var components: [String] = []
        for raw in otherComponents {
            let name = raw.trimmed
            guard !name.isEmpty, seen.insert(name.matchKey).inserted else { continue }
            if name.count > Self.maximumNameLength {
                problems.append(.init(field: "otherComponents", message: "Component \"\(name.prefix(20))…\" is \(name.count) characters long; keep each to \(Self.maximumNameLength) or fewer."))
            }
            components.append(name)
        }
        if components.count > Self.maximumComponents {
            problems.append(.init(field: "otherComponents", message: "A meal can list at most \(Self.maximumComponents) other components; this one has \(components.count)."))
        }
        if !(1...Self.maximumServings).contains(servings) {
            problems.append(.init(field: "servings", message: "Servings must be a whole number from 1 to \(Self.maximumServings)."))
        }
        if ingredients.count + recipe.textIngredients.count > Self.maximumIngredients {
            problems.append(.init(field: "ingredients", message: "A meal can have at most \(Self.maximumIngredients) ingredients."))
        }
        let recipe = self.recipe.validated(into: &problems)
        for (index, ingredient) in ingredients.enumerated() {
            if let p = Plausible.quantity.check(ingredient.quantity, field: "ingredients[\(index)].quantity", label: "Each ingredient's quantity") { problems.append(p) }
        }
        var manual = manualNutrition
        if let m = manual {
            for field in m.fields {
                if let p = Plausible.quickAddValue.check(field.value, field: "nutrition.\(field.name)", label: field.label) { problems.append(p) }
            }
            if m.fields.allSatisfy({ $0.value == nil }) { manual = nil }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return MealContent(description: description, primaryProtein: protein, primaryCarb: carb, otherComponents: components,
                           servings: servings, ingredients: ingredients, manualNutrition: ingredients.isEmpty ? manual : nil, recipe: recipe)
    }

    private static func optionalName(_ raw: String?, field: String, label: String,
                                     into problems: inout [ValidationError.Field]) -> String? {
        guard let name = raw?.trimmed, !name.isEmpty else { return nil }
        if name.count > maximumNameLength {
            problems.append(.init(field: field, message: "\(label) is \(name.count) characters long; keep it to \(maximumNameLength) or fewer."))
        }
        return name
    }
}

extension MealDraft {
    /// Stored content as a draft again, to check it as if it were typed in (an import).
    public init(_ content: MealContent) {
        self.init(description: content.description, primaryProtein: content.primaryProtein, primaryCarb: content.primaryCarb,
                  otherComponents: content.otherComponents, servings: content.servings, ingredients: content.ingredients,
                  manualNutrition: content.manualNutrition, recipe: content.recipe)
    }
}
