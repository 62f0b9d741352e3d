import ForkcastCore
import Foundation

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
    /// The longest range a summary and an export answer, in days.
    public static let summaryMaximumDays = 400, exportMaximumDays = 7320
    static func notes(maximumDays: Int) -> [String: FieldNote] {
        ["from": FieldNote("First day"),
         "to": FieldNote("Last day (default today): not before from, and at most \(maximumDays) days from it counted inclusively; 400 otherwise")]
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
