import ForkcastCore
import Foundation

/// What was eaten (an entry, a day, a meal's serving), rounded to 2 decimals.
public struct MacrosAnswer: NutrientObject {
    public var nutrients: Nutrients
    public init(nutrients: Nutrients) { self.nutrients = nutrients }
    /// `n`'s values rounded to 2 decimals.
    public init(_ n: Nutrients) { nutrients = n.rounded(2) }

    public static let schemaName = "Macros"
    public static var schemaDescription: String? { "Energy, macronutrients and micronutrients of what was eaten, " + unitsNote }
}

/// For each nutrient, how many counted entries do not know it (0 when all do): a total is then a
/// lower bound ("not known for 2 entries").
public struct NutrientCountsAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var counts: [Nutrient: Int]

    public init(_ counts: [Nutrient: Int]) { self.counts = counts }
    public subscript(_ nutrient: Nutrient) -> Int { counts[nutrient] ?? 0 }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NutrientKey.self)
        counts = [:]
        for n in Nutrient.allCases { counts[n] = try c.decodeIfPresent(Int.self, forKey: NutrientKey(n)) }
        counts = counts.filter { $0.value > 0 }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NutrientKey.self)
        for n in Nutrient.allCases where (counts[n] ?? 0) > 0 { try c.encode(counts[n]!, forKey: NutrientKey(n)) }
    }

    public static let schemaName = "NutrientCounts"
    public static var schemaDescription: String? { "Per nutrient, the entries that do not know it; a nutrient every entry knows is absent (0)" }
    public static var fieldNotes: [String: FieldNote] {
        Dictionary(uniqueKeysWithValues: Nutrient.allCases.map { ($0.rawValue, FieldNote(minimum: 0)) })
    }
}

/// A photo as entries show it: where its image and small thumbnail are.
public struct PhotoRefAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var url: String
    public var thumbnailUrl: String
    public var width: Int?
    public var height: Int?

    public init(id: UUID, width: Int? = nil, height: Int? = nil) {
        self.id = id
        url = Photos.Image.path.filled(["id": id.uuidString])
        thumbnailUrl = Photos.Thumbnail.path.filled(["id": id.uuidString])
        self.width = width
        self.height = height
    }

    public static let schemaName = "PhotoRef"
    public static var schemaDescription: String? { "A photo as entries show it: where its image and its small thumbnail are" }
    public static var fieldNotes: [String: FieldNote] {
        ["url": FieldNote("The image (GET, signed in)"),
         "thumbnailUrl": FieldNote("A small version (at most 640 px; the image itself when there is none)"),
         "width": FieldNote("Pixels; absent when not known"), "height": FieldNote("Pixels; absent when not known")]
    }
}

/// An uploaded photo's details.
public struct PhotoAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public enum Format: String, Codable, Sendable, CaseIterable, SchemaLeaf { case jpeg, png, webp, heic }
    public enum ContentType: String, Codable, Sendable, CaseIterable, SchemaLeaf {
        case jpeg = "image/jpeg", png = "image/png", webp = "image/webp", heic = "image/heic"
    }

    public var id: UUID
    public var format: Tolerant<Format>
    public var contentType: Tolerant<ContentType>
    public var width: Int
    public var height: Int
    public var byteSize: Int
    public var capturedAt: Date
    public var url: String
    public var thumbnailUrl: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, format: Format, contentType: ContentType, width: Int, height: Int, byteSize: Int, capturedAt: Date,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.format = .known(format)
        self.contentType = .known(contentType)
        self.width = width
        self.height = height
        self.byteSize = byteSize
        self.capturedAt = capturedAt
        let reference = PhotoRefAnswer(id: id)
        url = reference.url
        thumbnailUrl = reference.thumbnailUrl
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public static let schemaName = "Photo"
    public static var schemaDescription: String? {
        "An uploaded photo (stored without its metadata: no place, camera or comments). Show one on a diary entry with its photoId."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["format": FieldNote("Judged by the bytes, not the name or Content-Type"),
         "width": FieldNote("Pixels", minimum: 1), "height": FieldNote("Pixels", minimum: 1),
         "byteSize": FieldNote("Bytes stored (after the metadata is removed)", minimum: 1),
         "capturedAt": FieldNote("When it was taken (as sent with the upload), else when it was uploaded"),
         "url": FieldNote("The image: GET \(Photos.Image.path)"), "thumbnailUrl": FieldNote("A small version: GET \(Photos.Thumbnail.path)")]
    }
}

/// Something eaten, as the diary keeps it.
public struct DiaryEntryAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public enum Kind: String, Codable, Sendable, CaseIterable, SchemaLeaf { case food, meal, quickAdd, photo }

    public var id: UUID
    public var loggedAt: Date
    public var date: CalendarDate
    /// A system type's key (breakfast…) or a custom meal type's id.
    public var mealType: String
    public var note: String?
    public var kind: Tolerant<Kind>
    public var foodId: UUID?
    public var mealId: UUID?
    public var quantity: Decimal?
    public var unit: Tolerant<QuantityUnit>?
    public var name: String
    public var nutrients: MacrosAnswer
    public var cost: Decimal?
    public var occasionId: UUID
    /// False for a photo not counted yet.
    public var counted: Bool
    public var photo: PhotoRefAnswer?

    public init(id: UUID, loggedAt: Date, date: CalendarDate, mealType: String, note: String?, kind: Kind, foodId: UUID? = nil,
                mealId: UUID? = nil, quantity: Decimal? = nil, unit: QuantityUnit? = nil, name: String, nutrients: MacrosAnswer,
                cost: Decimal?, occasionId: UUID, counted: Bool, photo: PhotoRefAnswer?) {
        self.id = id
        self.loggedAt = loggedAt
        self.date = date
        self.mealType = mealType
        self.note = note
        self.kind = .known(kind)
        self.foodId = foodId
        self.mealId = mealId
        self.quantity = quantity
        self.unit = unit.map(Tolerant.known)
        self.name = name
        self.nutrients = nutrients
        self.cost = cost
        self.occasionId = occasionId
        self.counted = counted
        self.photo = photo
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(loggedAt, forKey: .loggedAt); try c.encode(date, forKey: .date)
        try c.encode(mealType, forKey: .mealType); try c.encode(note, forKey: .note); try c.encode(kind, forKey: .kind)
        try c.encode(foodId, forKey: .foodId); try c.encode(mealId, forKey: .mealId); try c.encode(quantity, forKey: .quantity)
        try c.encode(unit, forKey: .unit); try c.encode(name, forKey: .name); try c.encode(nutrients, forKey: .nutrients)
        try c.encode(cost, forKey: .cost); try c.encode(occasionId, forKey: .occasionId); try c.encode(counted, forKey: .counted)
        try c.encode(photo, forKey: .photo)
    }

    public static let schemaName = "DiaryEntry"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote(OccasionRef.fieldNotes["mealType"]?.description),
         "kind": FieldNote("photo: only a photo so far, not counted (counted is false, nutrients are null)"),
         "occasionId": FieldNote("The occasion it belongs to (GET \(Occasions.Get.path)): its day and meal type"),
         "counted": FieldNote("false for a photo not counted yet: totals leave it out"),
         "photo": FieldNote("The photo it shows, if any"),
         "name": FieldNote(example: "Greek yoghurt")]
    }
}

/// The entries of one meal type on a day.
public struct DiaryMealGroup: Codable, Sendable, Hashable, SchemaDocumented {
    public var mealType: String
    public var mealTypeId: UUID
    public var name: String
    public var entries: [DiaryEntryAnswer]
    public var totals: MacrosAnswer
    public init(mealType: String, mealTypeId: UUID, name: String, entries: [DiaryEntryAnswer], totals: MacrosAnswer) {
        self.mealType = mealType
        self.mealTypeId = mealTypeId
        self.name = name
        self.entries = entries
        self.totals = totals
    }
    public static let schemaName = "DiaryMealGroup"
    public static var fieldNotes: [String: FieldNote] { ["mealType": FieldNote(OccasionRef.fieldNotes["mealType"]?.description)] }
}

/// `GET /api/v1/diary`: a day.
public struct DiaryDayAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var date: CalendarDate
    public var entries: [DiaryMealGroup]
    public var totals: MacrosAnswer
    public var cost: Decimal?
    public var goals: GoalsAnswer
    public var remaining: MacrosAnswer
    /// Entries not counted yet (photos to complete): the totals leave them out.
    public var uncountedEntries: Int
    /// Per nutrient, the counted entries that do not know it (the total leaves them out).
    public var missing: NutrientCountsAnswer

    public init(date: CalendarDate, entries: [DiaryMealGroup], totals: MacrosAnswer, cost: Decimal?, goals: GoalsAnswer,
                remaining: MacrosAnswer, uncountedEntries: Int, missing: NutrientCountsAnswer = NutrientCountsAnswer([:])) {
        self.missing = missing
        self.date = date
        self.entries = entries
        self.totals = totals
        self.cost = cost
        self.goals = goals
        self.remaining = remaining
        self.uncountedEntries = uncountedEntries
    }

    /// Every key, null included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date); try c.encode(entries, forKey: .entries); try c.encode(totals, forKey: .totals)
        try c.encode(cost, forKey: .cost); try c.encode(goals, forKey: .goals); try c.encode(remaining, forKey: .remaining)
        try c.encode(uncountedEntries, forKey: .uncountedEntries); try c.encode(missing, forKey: .missing)
    }

    public static let schemaName = "DiaryDay"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["entries": FieldNote("The day's entries by meal type, in the order of your meal types"),
         "remaining": FieldNote("Goals minus totals (negative when over)"),
         "uncountedEntries": FieldNote("Entries not counted yet (photos to complete): the totals leave them out", minimum: 0),
         "missing": FieldNote("Per nutrient, the counted entries that do not know it: the total is then at least what it says")]
    }
}
