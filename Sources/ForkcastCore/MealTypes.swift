import Foundation

/// When a meal type is suggested: local minutes of the day, both ends included. A window whose
/// start is after its end wraps past midnight (22:00–01:59).
public struct SuggestionWindow: Hashable, Sendable {
    public let start: Int
    public let end: Int

    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end) else { return nil }
        self.start = start
        self.end = end
    }

    /// From "HH:MM" texts (24-hour clock).
    public init?(start: String, end: String) {
        guard let s = Self.minute(start), let e = Self.minute(end) else { return nil }
        self.init(start: s, end: e)
    }

    public static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }

    public static func text(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    public var startText: String { Self.text(start) }
    public var endText: String { Self.text(end) }

    public func contains(minute: Int) -> Bool {
        start <= end ? (start...end).contains(minute) : (minute >= start || minute <= end)
    }
}

/// Written as {"start": "HH:MM", "end": "HH:MM"}, read through the same check as a typed one.
extension SuggestionWindow: Codable {
    private enum CodingKeys: String, CodingKey { case start, end }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let start = try c.decode(String.self, forKey: .start), end = try c.decode(String.self, forKey: .end)
        guard let window = SuggestionWindow(start: start, end: end) else {
            throw DecodingError.dataCorruptedError(forKey: .start, in: c, debugDescription: "A window is two times of day such as \"07:00\" and \"10:59\".")
        }
        self = window
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(startText, forKey: .start)
        try c.encode(endText, forKey: .end)
    }
}

/// A person's meal type (seed 004 §5): Breakfast, Lunch… or their own. The id stays when it is
/// renamed. System types also have a `key` (breakfast, lunch…), which is what diary entries and
/// plan slots store for them (so entries from before meal types were editable keep their meaning);
/// entries of custom types store the type's id.
public struct MealType: Hashable, Sendable, Identifiable, Codable {
    public let id: UUID
    public let key: String?
    public var name: String
    public var window: SuggestionWindow?
    public var position: Int
    public var hidden: Bool
    public let createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, key: String?, name: String, window: SuggestionWindow?, position: Int, hidden: Bool = false,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.key = key
        self.name = name
        self.window = window
        self.position = position
        self.hidden = hidden
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isSystem: Bool { key != nil }
    /// What an entry or plan slot of this type stores.
    public var token: String { key ?? id.uuidString.lowercased() }

    /// The defaults every person starts with (seed 004 §5), in this order, with their suggestion windows.
    public static let systemDefaults: [(key: String, name: String, window: SuggestionWindow?)] = [
        ("breakfast", "Breakfast", SuggestionWindow(start: 0, end: 10 * 60 + 59)),
        ("lunch", "Lunch", SuggestionWindow(start: 11 * 60, end: 14 * 60 + 59)),
        ("dinner", "Dinner", SuggestionWindow(start: 18 * 60, end: 23 * 60 + 59)),
        ("afternoon-snack", "Afternoon Snack", SuggestionWindow(start: 15 * 60, end: 17 * 60 + 59)),
        ("snack", "Snack", nil),
        ("workout-fuel", "Workout Fuel", nil),
        ("protein-shake", "Protein Shake", nil),
    ]
    /// The catch-all that is always valid.
    public static let snackKey = "snack"
    public static let maximumCount = 40
    public static let maximumNameLength = 40

    /// A system type's id for a person: the same on every server and device.
    public static func systemID(owner: UUID, key: String) -> UUID {
        StableID.make("meal-type", owner.uuidString, key)
    }

    /// The checks for a name typed by a person; `others` are the names of the person's other types.
    public static func nameProblems(_ name: String, others: [String]) -> [ValidationError.Field] {
        let trimmed = name.trimmed
        if trimmed.isEmpty { return [.init(field: "displayName", message: "A meal type needs a name.")] }
        if trimmed.count > maximumNameLength {
            return [.init(field: "displayName", message: "A meal type's name can be at most \(maximumNameLength) characters.")]
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return [.init(field: "displayName", message: "A meal type's name cannot contain control characters.")]
        }
        let key = nameKey(trimmed)
        if others.contains(where: { nameKey($0) == key }) {
            return [.init(field: "displayName", message: "You already have a meal type called “\(trimmed)”.")]
        }
        return []
    }

    /// Names compare without case, width or accents differences that look the same ("LUNCH" = "lunch"),
    /// and without the invisible format characters (a byte-order mark, a zero-width space) that
    /// would make a second "Breakfast" look like the first.
    public static func nameKey(_ name: String) -> String {
        let visible = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .format }))
        return visible.trimmed.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}

/// One person's meal types, in their order: what pages offer, what entries may be saved under and
/// what the clock suggests.
public struct MealTypeCatalog: Sendable {
    public let all: [MealType]

    public init(_ types: [MealType]) {
        all = types.sorted { ($0.position, $0.createdAt, $0.id.uuidString) < ($1.position, $1.createdAt, $1.id.uuidString) }
    }

    /// The defaults for a person who has not changed anything yet.
    public static func defaults(owner: UUID, now: Date) -> MealTypeCatalog {
        MealTypeCatalog(MealType.systemDefaults.enumerated().map { index, d in
            MealType(id: MealType.systemID(owner: owner, key: d.key), key: d.key, name: d.name, window: d.window, position: index,
                     createdAt: now, updatedAt: now)
        })
    }

    /// The types a person picks from (hidden ones are not offered but keep their entries).
    public var offered: [MealType] { all.filter { !$0.hidden } }

    /// A type by what an entry stores, by a system key in any case, or by any type's id.
    public func resolve(_ token: String) -> MealType? {
        let t = token.trimmed
        if let id = UUID(uuidString: t) { return all.first { $0.id == id } }
        let key = t.lowercased()
        return all.first { $0.key == key }
    }

    /// What to store for a type given by key or id; nil when the person has no such type.
    public func normalized(_ token: String) -> String? { resolve(token)?.token }

    public func name(of token: String) -> String { resolve(token)?.name ?? token }

    /// Where a type sorts in a day; unknown ones last.
    public func position(of token: String) -> Int { resolve(token)?.position ?? Int.max }

    /// The one message for a meal type the person does not have.
    public func problem(_ token: String, field: String = "mealType") -> ValidationError.Field? {
        guard resolve(token) == nil else { return nil }
        let keys = all.compactMap(\.key).joined(separator: ", ")
        return .init(field: field, message: "\(field) must be one of your meal types: a key (\(keys)) or the id of one of your own meal types.")
    }

    /// The type the clock suggests at an instant in the person's zone: the first offered type, in
    /// their order, whose window holds that minute; else Snack, which is always valid. A
    /// suggestion is a default, never a constraint.
    public func suggested(at instant: Date, in zone: TimeZone) -> MealType {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: zone, from: instant)
        return suggested(minute: (parts.hour ?? 12) * 60 + (parts.minute ?? 0))
    }

    public func suggested(minute: Int) -> MealType {
        offered.first { $0.window?.contains(minute: minute) == true }
            ?? all.first { $0.key == MealType.snackKey } ?? offered.first ?? all[0]
    }

    /// The checks for a new or changed type (`id` nil for a new one).
    public func problems(id: UUID?, name: String, window: (start: String, end: String)??) -> [ValidationError.Field] {
        var problems = MealType.nameProblems(name, others: all.filter { $0.id != id }.map(\.name))
        if case let .some(.some(w)) = window, SuggestionWindow(start: w.start, end: w.end) == nil {
            problems.append(.init(field: "window", message: "A window is a start and an end time, each as HH:MM (00:00 to 23:59)."))
        }
        if id == nil, all.count >= MealType.maximumCount {
            problems.append(.init(field: "displayName", message: "You can have at most \(MealType.maximumCount) meal types."))
        }
        return problems
    }
}

/// What was eaten under one meal type on one local date ("Tuesday lunch", seed 004's `Meal`): it
/// exists while it has entries. Its id is derived from the person, the date and the type, so every
/// server and device gives the same occasion the same id without storing it separately.
public enum Occasion {
    public static func id(owner: UUID, date: CalendarDate, mealType: String) -> UUID {
        StableID.make("occasion", owner.uuidString, date.iso, mealType)
    }
}

/// Name-based ids: 128 bits of two FNV-1a hashes over the parts, shaped as an RFC 9562 version 8 UUID.
public enum StableID {
    public static func make(_ parts: String...) -> UUID {
        let bytes = Array(parts.joined(separator: "\u{1F}").utf8)
        func fnv(_ basis: UInt64) -> UInt64 {
            var h = basis
            for b in bytes { h ^= UInt64(b); h = h &* 0x0000_0100_0000_01B3 }
            return h
        }
        let a = fnv(0xCBF2_9CE4_8422_2325), b = fnv(0x6C62_272E_07BB_0142 ^ UInt64(bytes.count))
        var raw = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { raw[i] = UInt8((a >> (UInt64(i) * 8)) & 0xFF); raw[8 + i] = UInt8((b >> (UInt64(i) * 8)) & 0xFF) }
        raw[6] = (raw[6] & 0x0F) | 0x80
        raw[8] = (raw[8] & 0x3F) | 0x80
        return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                           raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
    }
}

/// One occasion as history shows it: its entries, time span and totals.
public struct OccasionSummary: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let date: CalendarDate
    public let mealType: String
    public let entries: [DiaryEntry]

    public var firstLoggedAt: Date { entries.map(\.loggedAt).min()! }
    public var lastLoggedAt: Date { entries.map(\.loggedAt).max()! }
    public var totals: Nutrients { DiaryDay.total(of: entries) }
    public var uncounted: Int { entries.filter { !$0.isCounted }.count }
    public var photoIds: [UUID] { entries.compactMap(\.photoId) }

    /// Entries grouped into occasions, newest first (by day, then by when each began); entries in
    /// each occasion in the order eaten.
    public static func group(_ entries: [DiaryEntry], owner: UUID) -> [OccasionSummary] {
        Dictionary(grouping: entries) { $0.occasionId(owner: owner) }.map { id, entries in
            let sorted = entries.sorted { ($0.loggedAt, $0.id.uuidString) < ($1.loggedAt, $1.id.uuidString) }
            return OccasionSummary(id: id, date: sorted[0].date, mealType: sorted[0].mealType, entries: sorted)
        }.sorted { ($0.date, $0.firstLoggedAt, $0.id.uuidString) > ($1.date, $1.firstLoggedAt, $1.id.uuidString) }
    }

    /// A page of `limit` occasions that ends at a day boundary (so `before` the last day continues
    /// without a gap; a page may hold a few more than `limit` to finish its last day).
    public static func page(_ occasions: [OccasionSummary], limit: Int) -> [OccasionSummary] {
        guard occasions.count > limit, limit > 0 else { return occasions }
        let lastDay = occasions[limit - 1].date
        return occasions.prefix { $0.date >= lastDay }.map { $0 }
    }
}
