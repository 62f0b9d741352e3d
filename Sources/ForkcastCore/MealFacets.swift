/// The distinct proteins, carbs and components of a library, offered as filter choices.
///
/// Values that differ only in case count once; the first spelling met is shown. Lists are sorted
/// ignoring case.
public struct MealFacets: Equatable, Sendable, Codable {
    public var proteins: [String]
    public var carbs: [String]
    public var components: [String]

    public init(proteins: [String] = [], carbs: [String] = [], components: [String] = []) {
        self.proteins = proteins
        self.carbs = carbs
        self.components = components
    }

    public init(of meals: [Meal]) {
        self.init(
            proteins: Self.distinct(meals.compactMap(\.primaryProtein)),
            carbs: Self.distinct(meals.compactMap(\.primaryCarb)),
            components: Self.distinct(meals.flatMap(\.otherComponents)))
    }

    /// Distinct values ignoring case, sorted by their key.
    public static func distinct(_ values: [String]) -> [String] {
        var byKey: [String: String] = [:]
        for value in values {
            let name = value.trimmed
            guard !name.isEmpty else { continue }
            if byKey[name.matchKey] == nil { byKey[name.matchKey] = name }
        }
        return byKey.sorted { $0.key < $1.key }.map(\.value)
    }
}
