import ForkcastCore
import Foundation

// MARK: Types

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

/// One day of a summary.
public struct DaySummary: Codable, Sendable, Hashable, SchemaDocumented {
    public var date: CalendarDate
    public var energyKcal: Decimal
    public var protein: Decimal
    public var carbohydrates: Decimal
    public var fat: Decimal
    public var cost: Decimal?
    public var entries: Int
    /// Every nutrient of the day (energy and macros as above).
    public var nutrients: MacrosAnswer
    /// Per nutrient, the counted entries that do not know it.
    public var missing: NutrientCountsAnswer
    public init(date: CalendarDate, energyKcal: Decimal, protein: Decimal, carbohydrates: Decimal, fat: Decimal, cost: Decimal?, entries: Int) {
        nutrients = MacrosAnswer(Nutrients(energyKcal: energyKcal, protein: protein, carbohydrates: carbohydrates, fat: fat))
        missing = NutrientCountsAnswer([:])
        self.date = date
        self.energyKcal = energyKcal
        self.protein = protein
        self.carbohydrates = carbohydrates
        self.fat = fat
        self.cost = cost
        self.entries = entries
    }
    public static let schemaName = "DaySummary"
    public static var fieldNotes: [String: FieldNote] { ["entries": FieldNote(minimum: 0)] }
}

/// `GET /api/v1/diary/summary`: daily totals over a range, with goals and weights.
public struct DiarySummary: Codable, Sendable, Hashable, SchemaDocumented {
    public var from: CalendarDate
    public var to: CalendarDate
    public var goals: GoalsAnswer
    public var days: [DaySummary]
    public var weights: [WeightEntry]
    public init(from: CalendarDate, to: CalendarDate, goals: GoalsAnswer, days: [DaySummary], weights: [WeightEntry]) {
        self.from = from
        self.to = to
        self.goals = goals
        self.days = days
        self.weights = weights
    }
    public static let schemaName = "DiarySummary"
}

/// `GET /api/v1/diary/export?format=json`.
public struct DiaryExportAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var from: CalendarDate
    public var to: CalendarDate
    public var entries: [DiaryEntryAnswer]
    public init(from: CalendarDate, to: CalendarDate, entries: [DiaryEntryAnswer]) {
        self.from = from
        self.to = to
        self.entries = entries
    }
    public static let schemaName = "DiaryExport"
}

/// What was eaten under one meal type on one day ("Tuesday lunch").
public struct OccasionAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public struct Thumbnail: Codable, Sendable, Hashable, SchemaDocumented {
        public var id: UUID
        public var thumbnailUrl: String
        public init(id: UUID) {
            self.id = id
            thumbnailUrl = PhotoRefAnswer(id: id).thumbnailUrl
        }
        public static let schemaName = "OccasionPhoto"
    }

    public var id: UUID
    public var date: CalendarDate
    public var mealType: String
    public var mealTypeId: UUID?
    public var mealTypeName: String
    public var firstLoggedAt: Date
    public var lastLoggedAt: Date
    public var entryCount: Int
    public var uncountedEntries: Int
    public var totals: MacrosAnswer
    public var photos: [Thumbnail]
    public var entries: [DiaryEntryAnswer]?

    public init(id: UUID, date: CalendarDate, mealType: String, mealTypeId: UUID?, mealTypeName: String, firstLoggedAt: Date,
                lastLoggedAt: Date, entryCount: Int, uncountedEntries: Int, totals: MacrosAnswer, photos: [Thumbnail],
                entries: [DiaryEntryAnswer]?) {
        self.id = id
        self.date = date
        self.mealType = mealType
        self.mealTypeId = mealTypeId
        self.mealTypeName = mealTypeName
        self.firstLoggedAt = firstLoggedAt
        self.lastLoggedAt = lastLoggedAt
        self.entryCount = entryCount
        self.uncountedEntries = uncountedEntries
        self.totals = totals
        self.photos = photos
        self.entries = entries
    }

    public static let schemaName = "Occasion"
    public static var schemaDescription: String? {
        "What was eaten under one meal type on one day (\"Tuesday lunch\"); it exists while it has entries. Its id is derived from you, the day and the meal type, so every device gives it the same id."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote(OccasionRef.fieldNotes["mealType"]?.description),
         "mealTypeId": FieldNote("The meal type's id; absent when the meal type is no longer yours"),
         "entryCount": FieldNote(minimum: 1),
         "uncountedEntries": FieldNote("Photos not counted yet; the totals leave them out", minimum: 0),
         "photos": FieldNote("The photos of its entries, in the order eaten"),
         "entries": FieldNote("In the order eaten; only in GET \(Occasions.Get.path) (absent in the list)")]
    }
}

/// `POST /api/v1/diary/copy`.
public struct CopyMealInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var from: CalendarDate
    public var fromMealType: String
    /// The day to log the copy on (default today) and its meal type (default the same).
    public var to: CalendarDate?
    public var mealType: String?
    public init(from: CalendarDate, fromMealType: String, to: CalendarDate? = nil, mealType: String? = nil) {
        self.from = from
        self.fromMealType = fromMealType
        self.to = to
        self.mealType = mealType
    }
    public static let schemaName = "CopyMealInput"
    public static var fieldNotes: [String: FieldNote] {
        ["fromMealType": FieldNote("The meal type copied from. \(MealTypeKey.description); unknown ones get 422.", minLength: 1, pattern: "\\S"),
         "to": FieldNote("The day to log it on; default today"),
         "mealType": FieldNote("The meal type to log it as; default fromMealType. \(MealTypeKey.description); unknown ones get 422.")]
    }
}

/// `POST /api/v1/diary/log-planned`.
public struct LogPlannedInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var assignmentId: UUID
    public var loggedAt: Date?
    public var mealType: String?
    public var servings: Decimal?
    public init(assignmentId: UUID, loggedAt: Date? = nil, mealType: String? = nil, servings: Decimal? = nil) {
        self.assignmentId = assignmentId
        self.loggedAt = loggedAt
        self.mealType = mealType
        self.servings = servings
    }
    public static let schemaName = "LogPlannedInput"
    public static var fieldNotes: [String: FieldNote] {
        ["mealType": FieldNote("\(MealTypeKey.description); unknown ones get 422. Default the plan slot, else the one the time suggests."),
         "servings": FieldNote("Default 1", range: Plausible.servingsEaten)]
    }
}

/// `?date=`.
public struct DayQuery: Codable, Sendable, Hashable {
    public var date: CalendarDate?
    public init(date: CalendarDate? = nil) { self.date = date }
}

/// `?from=&to=`: a range of days (one end alone stands for the default span from or up to it).
public struct RangeQuery: Codable, Sendable, Hashable {
    public var from: CalendarDate?
    public var to: CalendarDate?
    public init(from: CalendarDate? = nil, to: CalendarDate? = nil) {
        self.from = from
        self.to = to
    }
    static var notes: [String: FieldNote] {
        ["from": FieldNote("First day"), "to": FieldNote("Last day (default today; not before from: 400 otherwise)")]
    }
}

/// `?from=&to=&format=`.
public struct ExportQuery: Codable, Sendable, Hashable {
    public enum Format: String, Codable, Sendable, CaseIterable, SchemaLeaf { case csv, json }
    public var from: CalendarDate?
    public var to: CalendarDate?
    public var format: Format?
    public init(from: CalendarDate? = nil, to: CalendarDate? = nil, format: Format? = nil) {
        self.from = from
        self.to = to
        self.format = format
    }
    public var range: RangeQuery { RangeQuery(from: from, to: to) }
}

/// `?before=&date=&limit=`.
public struct OccasionQuery: Codable, Sendable, Hashable {
    public var before: CalendarDate?
    public var date: CalendarDate?
    public var limit: Int?
    public init(before: CalendarDate? = nil, date: CalendarDate? = nil, limit: Int? = nil) {
        self.before = before
        self.date = date
        self.limit = limit
    }
    /// The most occasions a page holds.
    public static let maximumLimit = 100
}

/// `?capturedAt=`: when a photo sent as the body was taken.
public struct PhotoUploadQuery: Codable, Sendable, Hashable {
    public var capturedAt: Date?
    public init(capturedAt: Date? = nil) { self.capturedAt = capturedAt }
}

// MARK: Operations

/// `/api/v1/diary`: logging, the plate, the day, range summaries and exports.
public enum Diary {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The entry's id")]
    static let notYours = Outcome(404, "A referenced meal or food is not yours (or does not exist); the problem names the field")

    public enum Day: APIOperation {
        public typealias Parameters = DayQuery
        public typealias Answer = DiaryDayAnswer
        public static let id = "getDiaryDay"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary"
        public static let summary = "A day of the diary: entries by meal type, totals, goals, remaining (may be negative)"
        public static let tag = "diary"
        public static let success = Outcome(200, "The day")
        public static let failures = [Outcome(400, "Bad date")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { ["date": FieldNote("Day (default today in your time zone)")] }
    }

    public enum Log: APIOperation {
        public typealias Body = DiaryEntryInput
        public typealias Answer = DiaryEntryAnswer
        public static let id = "createDiaryEntry"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/entries"
        public static let summary = "Log a food amount, servings of a meal, a quick add, or a photo to count later"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static let answerHeaders = ["Location": "The new entry"]
        public static let failures = [Outcome(404, "A referenced meal, food or photo is not yours (or does not exist); the problem names the field"),
                                      Outcome(409, "The photo already belongs to another diary entry")] + Outcome.writeJSON
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = DiaryEntryAnswer
        public static let id = "getDiaryEntry"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary/entries/{id}"
        public static let summary = "One entry"
        public static let tag = "diary"
        public static let success = Outcome(200, "The entry")
        public static let failures = [Outcome(404, "No such entry")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Edit: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Body = DiaryEntryUpdate
        public typealias Answer = DiaryEntryAnswer
        public static let id = "updateDiaryEntry"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/diary/entries/{id}"
        public static let summary = "Move an entry to another meal type or time, change its note, or re-log it with a new amount"
        public static let tag = "diary"
        public static let success = Outcome(200, "Updated")
        public static let failures = [
            Outcome(404, "No such entry, or a referenced meal, food or photo that is not yours"),
            Outcome(409, "The new time would move the entry to another occasion (problem type …/occasion-change, with from and to; send the change again with \"confirmMove\": true to move it), or the photo already belongs to another entry"),
        ] + Outcome.writeJSON
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "deleteDiaryEntry"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/diary/entries/{id}"
        public static let summary = "Delete an entry"
        public static let tag = "diary"
        public static let success = Outcome.deleted
        public static let failures = [Outcome(404, "No such entry")] + Outcome.write
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Plate: APIOperation {
        public typealias Body = PlateInput
        public typealias Answer = [DiaryEntryAnswer]
        public static let id = "logPlate"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/plate"
        public static let summary = "Log several foods and meals at once to one meal type (all or nothing)"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static let failures = [notYours, Outcome(409, "An item's photo already belongs to another diary entry")] + Outcome.writeJSON
    }

    public enum Copy: APIOperation {
        public typealias Body = CopyMealInput
        public typealias Answer = [DiaryEntryAnswer]
        public static let id = "copyMeal"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/copy"
        public static let summary = "Log a meal of another day again (e.g. yesterday's breakfast), with the foods, amounts and values it was logged with"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static let failures = [notYours] + Outcome.writeJSON
    }

    public enum LogPlanned: APIOperation {
        public typealias Body = LogPlannedInput
        public typealias Answer = DiaryEntryAnswer
        public static let id = "logPlannedMeal"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/diary/log-planned"
        public static let summary = "Log a planned meal in one tap"
        public static let tag = "diary"
        public static let success = Outcome(201, "Logged")
        public static let answerHeaders = ["Location": "The new entry"]
        public static let failures = [Outcome(404, "No such assignment")] + Outcome.writeJSON
    }

    public enum Summary: APIOperation {
        public typealias Parameters = RangeQuery
        public typealias Answer = DiarySummary
        public static let id = "diarySummary"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary/summary"
        public static let summary = "Daily totals over a range (at most 400 days) with goals and weights, for charts"
        public static let tag = "diary"
        public static let success = Outcome(200, "Summary")
        public static let failures = [Outcome(400, "Bad date, from after to, or more than 400 days")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { RangeQuery.notes }
    }

    public enum Export: APIOperation {
        public typealias Parameters = ExportQuery
        public static let id = "exportDiary"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/diary/export"
        public static let summary = "The diary of a range as CSV or JSON"
        public static let tag = "diary"
        public static let success = Outcome(200, "The export")
        public static var rawAnswer: [String: JSONValue]? {
            ["text/csv": ["type": "string"], "application/json": ["$ref": .string("#/components/schemas/\(DiaryExportAnswer.schemaName)")]]
        }
        public static var rawAnswerTypes: [any Decodable.Type] { [DiaryExportAnswer.self] }
        public static let answerHeaders = ["Content-Disposition": "attachment; filename=…"]
        public static let failures = [Outcome(400, "Bad date or format, from after to, or more than 7320 days")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            RangeQuery.notes.merging(["format": FieldNote("File format", default: "csv")]) { $1 }
        }
    }
}

/// `/api/v1/occasions`: meal-first history (seed 004 §7).
public enum Occasions {
    public enum List: APIOperation {
        public typealias Parameters = OccasionQuery
        public typealias Answer = [OccasionAnswer]
        public static let id = "listOccasions"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/occasions"
        public static let summary = "Meal-first history: occasions newest first, a page ending at a day boundary (it may hold a few more than limit to finish its last day)"
        public static let tag = "history"
        public static let success = Outcome(200, "Occasions, newest first, without their entries")
        public static let failures = [Outcome(400, "Bad before, date or limit")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] {
            ["before": FieldNote("Only days before this one (the next page: the date of the last occasion)"),
             "date": FieldNote("Only days up to and including this one"),
             "limit": FieldNote("Occasions per page", minimum: 1, maximum: Decimal(OccasionQuery.maximumLimit), default: 20)]
        }
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = OccasionAnswer
        public static let id = "getOccasion"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/occasions/{id}"
        public static let summary = "One occasion with its entries"
        public static let tag = "history"
        public static let success = Outcome(200, "The occasion")
        public static let failures = [Outcome(404, "No such occasion in your account (an occasion ends with its last entry)")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { ["id": FieldNote("The occasion's id (a diary entry's occasionId)")] }
    }
}

/// `/api/v1/photos`: upload (checked by content, stored without metadata) and the private bytes.
public enum Photos {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The photo's id")]
    static let account = HeaderParameter("X-Forkcast-Account", "The account a web page's script acts for: not an account id is a 400, another than the signed-in one a 409",
                                         schema: ["type": "string", "format": "uuid"])
    static let cached = ["Cache-Control": "private, max-age=31536000, immutable (a photo never changes under its id)",
                         "ETag": "Send it back as If-None-Match to get a 304"]
    static let ifNoneMatch = HeaderParameter("If-None-Match", "The ETag of a copy you have")

    public enum Upload: APIOperation {
        public typealias Parameters = PhotoUploadQuery
        public typealias Answer = PhotoAnswer
        public static let id = "uploadPhoto"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/photos"
        public static let summary = "Upload a photo: the image as the body, or a form with photo, thumbnail and capturedAt. Checked by its bytes and stored without its metadata."
        public static let tag = "photos"
        public static let success = Outcome(201, "Stored (without its metadata)")
        public static let answerHeaders = ["Location": "The new resource"]
        public static var headerParameters: [HeaderParameter] { [account] }
        public static var rawBody: [String: JSONValue]? {
            RawMedia.each(RawMedia.imageTypes + ["application/octet-stream"], RawMedia.upload).merging([
                "multipart/form-data": ["type": "object", "required": ["photo"], "properties": [
                    "photo": ["type": "string", "format": "binary", "description": "The photo (a file part)"],
                    "thumbnail": ["type": "string", "format": "binary", "description": "Optional small version made by the client: a JPEG, PNG or WebP of at most 640 px per side and 256 KB (else the one embedded in a JPEG is used, else none)"],
                    "capturedAt": FieldNote("When it was taken (default now)").applied(to: Date.inputLeafSchema),
                ]]]) { $1 }
        }
        public static let failures = [
            Outcome(400, "A capturedAt that is not an ISO 8601 instant, or an X-Forkcast-Account that is not an account id"), .notSignedIn, .csrf,
            Outcome(409, "X-Forkcast-Account names another account than the signed-in one (a web page's outbox after the account changed); nothing was saved"),
            Outcome(413, "Photo over the size limit (15 MB by default, FORKCAST_PHOTO_MAX_MB)"),
            Outcome(415, "Not a JPEG, PNG, WebP or HEIC photo (judged by its bytes, not its name or Content-Type)"),
            Outcome(422, "An empty or corrupt photo, a bad thumbnail, or a bad capturedAt; the problem names the field"), .unavailable,
        ]
        public static var parameterNotes: [String: FieldNote] {
            ["capturedAt": FieldNote("When it was taken, for a photo sent as the body (a form sends it as a field); default now")]
        }
    }

    public enum Get: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = PhotoAnswer
        public static let id = "getPhoto"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/photos/{id}"
        public static let summary = "One photo's details"
        public static let tag = "photos"
        public static let success = Outcome(200, "The photo")
        public static let failures = [Outcome(404, "No such photo in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Image: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "getPhotoImage"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/photos/{id}/image"
        public static let summary = "A photo's image (private to you; cache it for good)"
        public static let tag = "photos"
        public static let success = Outcome(200, "The image, without its metadata")
        public static let otherAnswers = [Outcome(304, "Not modified (If-None-Match matched the ETag)")]
        public static var rawAnswer: [String: JSONValue]? { RawMedia.each(RawMedia.imageTypes, RawMedia.file) }
        public static var answerHeaders: [String: String] { cached }
        public static var headerParameters: [HeaderParameter] { [ifNoneMatch] }
        public static let failures = [Outcome(404, "No such photo in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }

    public enum Thumbnail: APIOperation {
        public typealias Parameters = IDParameter
        public static let id = "getPhotoThumbnail"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/photos/{id}/thumbnail"
        public static let summary = "A photo's small version (the image itself when it has none)"
        public static let tag = "photos"
        public static let success = Outcome(200, "The thumbnail")
        public static let otherAnswers = [Outcome(304, "Not modified (If-None-Match matched the ETag)")]
        public static var rawAnswer: [String: JSONValue]? { RawMedia.each(RawMedia.imageTypes, RawMedia.file) }
        public static var answerHeaders: [String: String] { cached }
        public static var headerParameters: [HeaderParameter] { [ifNoneMatch] }
        public static let failures = [Outcome(404, "No such photo in your account")] + Outcome.read
        public static var parameterNotes: [String: FieldNote] { idNote }
    }
}
