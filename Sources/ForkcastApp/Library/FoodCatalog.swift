import ForkcastCore
import Foundation

/// The shared food catalogue (USDA FoodData Central), the same for every person. The server's is
/// stored once in the database with its search index in memory; ``InMemoryFoodCatalog`` is the fake.
public protocol FoodCatalog: Sendable {
    /// One page of the foods matching `query`, best first (``CatalogSearch``'s ranking), and how many match.
    func search(_ query: String, page: Paging) async throws -> (items: [CatalogFood], total: Int)
    func find(_ catalogId: String) async throws -> CatalogFood?
}

/// Using a catalogue food: the person's own copy of it, made the first time (per 100 g, its usual
/// portion as the serving, linked to the catalogue entry) and the same food every time after, also
/// when two devices adopt it at once. Foods and meals then treat it like any food of theirs.
public struct AdoptCatalogFood: Sendable {
    let library: any Library
    let catalog: any FoodCatalog
    let now: Date

    public init(library: any Library, catalog: any FoodCatalog, now: Date) {
        self.library = library
        self.catalog = catalog
        self.now = now
    }

    /// The person's food and whether this call made it. A malformed id is a ``ValidationError``;
    /// an id the catalogue does not have is a ``Refusal/missingReference(field:detail:)``.
    public func adopt(_ catalogId: String, id: UUID = UUID.timeOrdered()) async throws -> (food: Food, created: Bool) {
        let catalogId = catalogId.trimmed
        guard FoodDataCentral.isCatalogId(catalogId) else {
            throw ValidationError(field: "catalogId", "“\(catalogId.prefix(40))” is not a catalogue id (like “sr-…”, as the food catalogue gives).")
        }
        guard let entry = try await catalog.find(catalogId) else {
            throw Refusal.missingReference(field: "catalogId", detail: "The catalogue has no food \(catalogId).")
        }
        let food = try entry.draft.validated(id: id, createdAt: now, now: now, asPublished: true)
        return try await library.write { tx in
            if let existing = try await tx.foods.adopted(catalogId) { return (existing, false) }
            try await tx.foods.insert(food)
            return (food, true)
        }
    }
}

/// A catalogue held in memory, for tests of the use cases.
public struct InMemoryFoodCatalog: FoodCatalog {
    let foods: [String: CatalogFood]
    let index: CatalogSearch

    public init(_ foods: [CatalogFood]) {
        self.foods = Dictionary(foods.map { ($0.catalogId, $0) }, uniquingKeysWith: { a, _ in a })
        index = CatalogSearch(foods.map { CatalogSearch.Entry(catalogId: $0.catalogId, name: $0.name, source: $0.source) })
    }

    public func search(_ query: String, page: Paging) async throws -> (items: [CatalogFood], total: Int) {
        let found = index.search(query, offset: page.offset, limit: page.per)
        return (found.ids.compactMap { foods[$0] }, found.total)
    }

    public func find(_ catalogId: String) async throws -> CatalogFood? { foods[catalogId] }
}
