import ForkcastCore
import Foundation

/// Adding, renaming, re-windowing, reordering and hiding a meal type: the one way a person's meal
/// types change, from the API, the Meal types page, a synced device and an account import. The
/// rules are ForkcastCore's ``MealTypeCatalog`` (names unique and not empty, windows "HH:MM"), plus
/// a position of 0 to 1000 and Snack always offered. Each change is one write under the person's
/// lock, so two changes at once cannot both take a name.
public struct SaveMealType: Sendable {
    let library: any Library
    let now: Date

    public init(library: any Library, now: Date) {
        self.library = library
        self.now = now
    }

    /// What to change; a nil field stays as it is.
    public struct Change: Sendable {
        public var name: String?
        /// nil: unchanged; .some(nil): no window; .some(window): that window ("HH:MM" texts).
        public var window: (start: String, end: String)??
        public var position: Int?
        public var hidden: Bool?

        public init(name: String? = nil, window: (start: String, end: String)?? = nil, position: Int? = nil, hidden: Bool? = nil) {
            self.name = name
            self.window = window
            self.position = position
            self.hidden = hidden
        }
    }

    /// A custom type, at the end or at `position`. Throws ``ValidationError`` naming each bad field.
    public func add(_ change: Change, id: UUID) async throws -> MealType {
        let now = now
        return try await library.write { tx in
            let types = tx.mealTypes
            let catalog = try await types.stored(now: now)
            let name = (change.name ?? "").trimmed
            let problems = catalog.problems(id: nil, name: name, window: change.window) + Self.positionProblems(change.position)
            guard problems.isEmpty else { throw ValidationError(problems) }
            let type = MealType(id: id, key: nil, name: name, window: Self.window(change.window) ?? nil, position: catalog.all.count,
                                hidden: change.hidden ?? false, createdAt: now, updatedAt: now)
            try await types.insert(type, now: now)
            if let position = change.position { try await types.move(id, to: position, in: MealTypeCatalog(catalog.all + [type]), now: now) }
            return try await types.find(id) ?? type
        }
    }

    /// Changes one of the person's types; nil when they have none with that id.
    public func change(_ id: UUID, _ change: Change) async throws -> MealType? {
        let now = now
        return try await library.write { tx in
            let types = tx.mealTypes
            let catalog = try await types.stored(now: now)
            guard var type = catalog.all.first(where: { $0.id == id }) else { return nil }
            let problems = catalog.problems(id: id, name: change.name ?? type.name, window: change.window) + Self.positionProblems(change.position)
            guard problems.isEmpty else { throw ValidationError(problems) }
            if let name = change.name { type.name = name.trimmed }
            if let window = Self.window(change.window) { type.window = window }
            if let hidden = change.hidden { type.hidden = hidden }
            if type.hidden, type.key == MealType.snackKey {
                throw ValidationError(field: "hidden", "Snack is the catch-all and is always offered; rename it instead of hiding it.")
            }
            type.updatedAt = now
            guard try await types.replace(type, now: now) else { return nil }
            if let position = change.position { try await types.move(id, to: position, in: catalog, now: now) }
            return try await types.find(id) ?? type
        }
    }

    /// A synced device's type: changed when the person has it, added when not.
    @discardableResult
    public func addOrChange(_ id: UUID, _ change: Change) async throws -> MealType {
        if let changed = try await self.change(id, change) { return changed }
        return try await add(change, id: id)
    }

    private static func positionProblems(_ position: Int?) -> [ValidationError.Field] {
        guard let position, !(0...1000).contains(position) else { return [] }
        return [.init(field: "position", message: "position is where the type goes in your list: 0 (first) to 1000.")]
    }

    private static func window(_ change: (start: String, end: String)??) -> SuggestionWindow?? {
        switch change {
        case .none: nil
        case .some(.none): .some(nil)
        case .some(.some(let w)): SuggestionWindow(start: w.start, end: w.end).map { .some($0) }
        }
    }
}
