/// What the meal list is narrowed to (seed 002 Req 3): every given criterion must match.
///
/// Matching ignores case and surrounding white space; component filters are a subset test.
public struct MealFilter: Hashable, Sendable {
    public var protein: String?
    public var carb: String?
    public var components: [String]
    /// Free text looked for in the description and every component.
    public var text: String?

    public init(protein: String? = nil, carb: String? = nil, components: [String] = [], text: String? = nil) {
        self.protein = protein?.trimmed.nilIfEmpty
        self.carb = carb?.trimmed.nilIfEmpty
        self.components = components.map(\.trimmed).filter { !$0.isEmpty }
        self.text = text?.trimmed.nilIfEmpty
    }

    /// True when at least one criterion is set (seed 000's `FilterCriteria.isActive`).
    public var isActive: Bool { protein != nil || carb != nil || !components.isEmpty || text != nil }

    public var proteinKey: String? { protein?.matchKey }
    public var carbKey: String? { carb?.matchKey }
    public var componentKeys: Set<String> { Set(components.map(\.matchKey)) }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
