import ForkcastCore
import Foundation

// MARK: Types

/// When a meal type is suggested: local times of day, "HH:MM".
public struct MealTypeWindow: Codable, Sendable, Hashable, SchemaDocumented {
    public var start: String
    public var end: String

    public init(start: String, end: String) {
        self.start = start
        self.end = end
    }

    public static let schemaName = "MealTypeWindow"
    public static var schemaDescription: String? {
        "When a meal type is suggested: local times of day (24-hour HH:MM), both ends included; a start after the end wraps past midnight"
    }
    public static var fieldNotes: [String: FieldNote] {
        let time = FieldNote(pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", example: "07:00")
        return ["start": time, "end": time.with(example: "10:59")]
    }
}

/// A meal type as the API answers it.
public struct MealTypeAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var key: String?
    public var displayName: String
    public var isSystem: Bool
    public var window: MealTypeWindow?
    public var position: Int
    public var hidden: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public init(_ type: MealType) {
        id = type.id
        key = type.key
        displayName = type.name
        isSystem = type.isSystem
        window = type.window.map { MealTypeWindow(start: $0.startText, end: $0.endText) }
        position = type.position
        hidden = type.hidden
        createdAt = type.createdAt
        updatedAt = type.updatedAt
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(key, forKey: .key)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(isSystem, forKey: .isSystem)
        try c.encode(window, forKey: .window)
        try c.encode(position, forKey: .position)
        try c.encode(hidden, forKey: .hidden)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    public static let schemaName = "MealType"
    public static let writesNulls = true
    public static var schemaDescription: String? {
        "A meal type of yours: one of the defaults (isSystem, with a key) or your own. Its id stays when it is renamed."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["key": FieldNote("A default type's key (\(MealType.systemDefaults.map(\.key).joined(separator: ", "))), which entries and plan slots store for it; null for your own types, whose entries and plan slots store the id in lowercase (compare ignoring case; either case is accepted)"),
         "isSystem": FieldNote("One of the defaults (it can be renamed or hidden, not removed)"),
         "window": FieldNote("When it is suggested; null: never by the clock"),
         "position": FieldNote("Order in lists and in a day, 0 first", minimum: 0),
         "hidden": FieldNote("Not offered when logging; its entries keep it"),
         "displayName": FieldNote(example: "Breakfast")]
    }
}

/// `POST /api/v1/meal-types` and `PUT /api/v1/meal-types/{id}`: any of the fields; `"window": null`
/// removes the window.
public struct MealTypeInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var displayName: String?
    /// nil: unchanged; .some(nil): no window; .some(window): that window.
    public var window: MealTypeWindow??
    public var position: Int?
    public var hidden: Bool?

    public init(displayName: String? = nil, window: MealTypeWindow?? = nil, position: Int? = nil, hidden: Bool? = nil) {
        self.displayName = displayName
        self.window = window
        self.position = position
        self.hidden = hidden
    }

    enum CodingKeys: String, CodingKey { case displayName, window, position, hidden }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        if c.contains(.window) { window = .some(try c.decodeNil(forKey: .window) ? nil : try c.decode(MealTypeWindow.self, forKey: .window)) }
        position = try c.decodeIfPresent(Int.self, forKey: .position)
        hidden = try c.decodeIfPresent(Bool.self, forKey: .hidden)
    }

    /// `window` is written only when it is to change (null removes it).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(displayName, forKey: .displayName)
        if let window { try c.encode(window, forKey: .window) }
        try c.encodeIfPresent(position, forKey: .position)
        try c.encodeIfPresent(hidden, forKey: .hidden)
    }

    public static let schemaName = "MealTypeInput"
    public static var schemaDescription: String? {
        "Adding one (POST) needs a displayName; changing one (PUT) changes only the fields sent."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["displayName": FieldNote("1 to \(MealType.maximumNameLength) characters besides surrounding spaces, no control characters, unlike your other types' names (ignoring case)",
                                  minLength: 1, maxLength: MealType.maximumNameLength, pattern: "\\S", example: "Second breakfast"),
         "window": FieldNote("When it is suggested; null removes the window"),
         "position": FieldNote("Where to put it, 0 first (past the end: last); the others keep their order", minimum: 0, maximum: 1000),
         "hidden": FieldNote("Hide it from the choices when logging (Snack, the catch-all, cannot be hidden)")]
    }
}

/// `?at=`: the instant a suggestion is for.
public struct SuggestionQuery: Codable, Sendable, Hashable {
    public var at: Date?
    public init(at: Date? = nil) { self.at = at }
}

// MARK: Operations

/// `/api/v1/meal-types`: a person's meal types and what the clock suggests.
public enum MealTypes {
    public enum List: APIOperation {
        public typealias Answer = [MealTypeAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/meal-types", "listMealTypes", tag: "meal-types",
            summary: "Your meal types in your order, hidden ones included (the defaults until you change them)",
            success: Outcome(200, "Your meal types"), failures: Outcome.read)
    }

    public enum Create: APIOperation {
        public typealias Body = MealTypeInput
        public typealias Answer = MealTypeAnswer
        public static let spec = OperationSpec(.post, "/api/v1/meal-types", "createMealType", tag: "meal-types",
            summary: "Add a meal type of your own (at the end, or at position)", success: Outcome(201, "Added"),
            failures: Outcome.writeJSON.map {
                $0.status == 422 ? Outcome(422, "Invalid fields: no name, a name you already use, a bad window, or already \(MealType.maximumCount) meal types") : $0
            }, headerParameters: [.idempotencyKey])
    }

    public enum Suggestion: APIOperation {
        public typealias Parameters = SuggestionQuery
        public typealias Answer = MealTypeAnswer
        public static let spec = OperationSpec(.get, "/api/v1/meal-types/suggestion", "suggestMealType", tag: "meal-types",
            summary: "The meal type the clock suggests: the first offered type whose window holds the time in your time zone, else Snack",
            success: Outcome(200, "The suggested meal type"),
            failures: [Outcome(400, "Bad at (not an ISO 8601 instant with its offset)")] + Outcome.read,
            parameterNotes: ["at": FieldNote("The instant (default now)")])
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = MealTypeAnswer
        public static let spec = OperationSpec(.get, "/api/v1/meal-types/{id}", "getMealType", tag: "meal-types",
            summary: "One meal type", success: Outcome(200, "The meal type"),
            failures: [Outcome(404, "No such meal type in your account")] + Outcome.read,
            parameterNotes: ["id": FieldNote("The meal type's id")])
    }

    public enum Update: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = MealTypeInput
        public typealias Answer = MealTypeAnswer
        public static let spec = OperationSpec(.put, "/api/v1/meal-types/{id}", "updateMealType", tag: "meal-types",
            summary: "Rename, re-window, hide, show or move a meal type (only the fields sent change)",
            success: Outcome(200, "Updated"),
            failures: [Outcome(404, "No such meal type in your account")] + Outcome.writeJSON.map {
                $0.status == 422 ? Outcome(422, "Invalid fields: an empty name or one you already use, a bad window, or hiding Snack") : $0
            }, parameterNotes: ["id": FieldNote("The meal type's id")])
    }
}
