import ForkcastCore
import Foundation

/// `POST /api/v1/diary-links`: what a coach's link covers and shows.
public struct DiaryLinkInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var from: CalendarDate
    public var to: CalendarDate
    public var expiresAt: Date?
    public var shows: [String]?

    public init(from: CalendarDate, to: CalendarDate, expiresAt: Date? = nil, shows: [String]? = nil) {
        self.from = from
        self.to = to
        self.expiresAt = expiresAt
        self.shows = shows
    }

    public static let schemaName = "DiaryLinkInput"
    public static var fieldNotes: [String: FieldNote] {
        ["to": FieldNote("The last day covered: at most \(DiaryLink.maximumDays) days are covered, from and to included"),
         "expiresAt": FieldNote("When the link stops working: within \(DiaryLink.maximumLifetimeDays) days (default \(DiaryLink.defaultLifetimeDays) days from now)"),
         "shows": FieldNote("What the link shows (default all)", schema: ["type": "array", "minItems": 1, "uniqueItems": true,
                            "items": ["type": "string", "enum": .array(DiaryLink.Part.allCases.map { .string($0.rawValue) })]])]
    }
}

/// A diary link as its person sees it. The link (with its token) is in the answer that made it only.
public struct DiaryLinkAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var from: CalendarDate
    public var to: CalendarDate
    public var expiresAt: Date
    public var shows: [String]
    public var createdAt: Date
    public var link: String?
    public var token: String?

    public init(_ link: DiaryLink, url: String? = nil, token: String? = nil) {
        id = link.id
        from = link.from
        to = link.to
        expiresAt = link.expiresAt
        shows = link.shows.sorted().map(\.rawValue)
        createdAt = link.createdAt
        self.link = url
        self.token = token
    }

    public static let schemaName = "DiaryLink"
    public static var fieldNotes: [String: FieldNote] {
        ["link": FieldNote("The page to give the coach; in the answer that made it only"),
         "token": FieldNote("The link's token, for GET /api/v1/shared/diary/{token}; in the answer that made it only")]
    }
}

/// An entry as a diary link shows it: no note, no photo, no ids.
public struct SharedEntryAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    /// The meal type's name.
    public var mealType: String
    public var name: String
    public var quantity: Decimal?
    public var unit: String?
    public var loggedAt: Date
    public var nutrients: MacrosAnswer

    public init(mealType: String, name: String, quantity: Decimal?, unit: String?, loggedAt: Date, nutrients: MacrosAnswer) {
        self.mealType = mealType
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.loggedAt = loggedAt
        self.nutrients = nutrients
    }

    public static let schemaName = "SharedEntry"
}

/// The goals a diary link shows: energy and the macronutrients, nothing they were computed from.
public struct SharedGoalsAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var energyKcal: Decimal
    public var protein: Decimal
    public var carbohydrates: Decimal
    public var fat: Decimal

    public init(_ goals: Goals) {
        energyKcal = goals.energyKcal
        protein = goals.protein
        carbohydrates = goals.carbohydrates
        fat = goals.fat
    }

    public static let schemaName = "SharedGoals"
}

/// A weight as a diary link shows it: when and how much, no id.
public struct SharedWeightAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var measuredAt: Date
    public var weightKg: Decimal

    public init(measuredAt: Date, weightKg: Decimal) {
        self.measuredAt = measuredAt
        self.weightKg = weightKg
    }

    public static let schemaName = "SharedWeight"
}

/// `GET /api/v1/shared/diary/{token}`: one day of what the link shows, and the weights of its range.
public struct SharedDiaryAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    /// The person's display name, if they have one (never their email).
    public var displayName: String?
    public var from: CalendarDate
    public var to: CalendarDate
    public var expiresAt: Date
    public var shows: [String]
    public var date: CalendarDate
    /// With `diary`: the day's entries (energy and macronutrients; every nutrient with `nutrients`).
    public var entries: [SharedEntryAnswer]?
    /// With `diary` or `nutrients`: the day's totals.
    public var totals: MacrosAnswer?
    /// With `diary`: the person's current goals (energy and macronutrients).
    public var goals: SharedGoalsAnswer?
    /// With `weights`: the weights measured in the link's range, oldest first.
    public var weights: [SharedWeightAnswer]?

    public init(displayName: String?, link: DiaryLink, date: CalendarDate, entries: [SharedEntryAnswer]?, totals: MacrosAnswer?,
                goals: SharedGoalsAnswer?, weights: [SharedWeightAnswer]?) {
        self.displayName = displayName
        from = link.from
        to = link.to
        expiresAt = link.expiresAt
        shows = link.shows.sorted().map(\.rawValue)
        self.date = date
        self.entries = entries
        self.totals = totals
        self.goals = goals
        self.weights = weights
    }

    public static let schemaName = "SharedDiary"
}

/// `{token}` of a diary link and the `date` asked for.
public struct SharedDiaryQuery: Codable, Sendable, Hashable {
    public var token: String
    public var date: CalendarDate?
    public init(token: String, date: CalendarDate? = nil) {
        self.token = token
        self.date = date
    }
}

/// `/api/v1/diary-links`: read-only links to part of one's diary for a coach or dietitian, and
/// what they open (no account needed).
public enum DiaryLinks {
    static let tokenNote = FieldNote("The diary link's token", maxLength: 100)
    static let gone = Outcome(404, "No diary link with this token is open (never made, revoked or expired)")
    static let limited = Outcome(429, "Too many requests through diary links from this address; see Retry-After", headers: Outcome.retryAfter)

    public enum Create: APIOperation {
        public typealias Body = DiaryLinkInput
        public typealias Answer = DiaryLinkAnswer
        public static let spec = OperationSpec(.post, "/api/v1/diary-links", "createDiaryLink", tag: "diary links",
            summary: "Make a read-only link to part of your diary for a coach: the days it covers, what it shows, when it expires. Its link and token are in this answer only",
            success: Outcome(201, "Made"),
            failures: [Outcome(409, "\(DiaryLink.openLimit) links are open already")] + Outcome.writeJSON)
    }

    public enum List: APIOperation {
        public typealias Answer = [DiaryLinkAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/diary-links", "listDiaryLinks", tag: "diary links",
            summary: "Your diary links still open (not revoked, not expired), newest first", success: Outcome(200, "The links"),
            failures: Outcome.read)
    }

    public enum Revoke: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/diary-links/{id}", "revokeDiaryLink", tag: "diary links",
            summary: "Revoke a diary link: it stops working at once", success: Outcome(204, "Revoked"),
            failures: [Outcome(404, "No such link of yours")] + Outcome.write, parameterNotes: ["id": FieldNote("The link's id")])
    }

    public enum Shared: APIOperation {
        public typealias Parameters = SharedDiaryQuery
        public typealias Answer = SharedDiaryAnswer
        public static let spec = OperationSpec(.get, "/api/v1/shared/diary/{token}", "getSharedDiary", tag: "diary links",
            summary: "A day of what a diary link shows (no account needed)", success: Outcome(200, "The day"),
            failures: [Outcome(400, "Bad date"), Outcome(404, "No diary link with this token is open (never made, revoked or expired), or it does not cover that day"), limited, .unavailable],
            parameterNotes: ["token": tokenNote, "date": FieldNote("A day the link covers (default its last day that has begun)")],
            signedIn: false)
    }

    public enum SharedExport: APIOperation {
        public typealias Parameters = ShareTokenParameter
        public static let spec = OperationSpec(.get, "/api/v1/shared/diary/{token}/export.csv", "exportSharedDiary", tag: "diary links",
            summary: "The days a diary link covers as CSV: a row a day with what the link shows (no account needed)",
            success: Outcome(200, "The CSV"), failures: [gone, limited, .unavailable], parameterNotes: ["token": tokenNote],
            answerHeaders: ["Content-Disposition": "attachment; filename=…"], signedIn: false, rawAnswer: ["text/csv": ["type": "string"]])
    }
}
