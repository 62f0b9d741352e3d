import Fluent
import ForkcastCore
import Foundation

/// A catalogue food (shared by every account).
final class CatalogFoodModel: Model, @unchecked Sendable {
    static let schema = "catalog_foods"

    @ID(custom: "id", generatedBy: .user) var id: String?
    @Field(key: "name") var name: String
    @OptionalField(key: "category") var category: String?
    @Field(key: "source") var source: String
    /// Every nutrient per 100 g (``NutrientText``).
    @Field(key: "nutrients") var nutrients: String
    /// `grams=name` per line, the usual portion first.
    @Field(key: "portions") var portions: String
    /// The fields above, listed by hand: FluentKit otherwise finds them by reflection on every row (docs/performance.md).
    var properties: [any AnyProperty] { [$id, $name, $category, $source, $nutrients, $portions] }

    init() {}

    init(_ food: CatalogFood) {
        id = food.catalogId
        name = food.name
        category = food.category
        source = food.source.rawValue
        nutrients = NutrientText.encode(food.per100, except: []) ?? ""
        portions = food.portions.map { "\($0.grams)=\($0.name.replacingOccurrences(of: "\n", with: " "))" }.joined(separator: "\n")
    }

    var domain: CatalogFood {
        var per100 = Nutrients()
        NutrientText.decode(nutrients, into: &per100)
        var list: [CatalogPortion] = []
        for line in portions.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let grams = Decimal(string: String(parts[0])) else { continue }
            list.append(CatalogPortion(name: String(parts[1]), grams: grams))
        }
        return CatalogFood(catalogId: id!, name: name, category: category, source: CatalogSource(rawValue: source) ?? .srLegacy,
                           per100: per100, portions: list)
    }
}

/// Which version of a catalogue part is loaded, and how far an import of it got.
final class CatalogPartModel: Model, @unchecked Sendable {
    static let schema = "catalog_parts"

    @ID(key: .id) var id: UUID?
    /// `generic` (shipped with Forkcast) or `branded` (`forkcast catalog import`).
    @Field(key: "part") var part: String
    @Field(key: "version") var version: String
    @Field(key: "rows") var rows: Int
    /// Bytes of the source file read so far (a branded import resumes from here).
    @Field(key: "position") var position: Int64
    @Field(key: "complete") var complete: Bool
    @Field(key: "updated_at") var updatedAt: Date
    var properties: [any AnyProperty] { [$id, $part, $version, $rows, $position, $complete, $updatedAt] }

    init() {}

    init(part: String, version: String, rows: Int, position: Int64, complete: Bool, now: Date) {
        id = UUID.timeOrdered()
        self.part = part
        self.version = version
        self.rows = rows
        self.position = position
        self.complete = complete
        updatedAt = now
    }
}
