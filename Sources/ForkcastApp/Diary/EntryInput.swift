import ForkcastCore
import Foundation

/// What a person logs or changes (`POST /api/v1/diary/entries`, each item of a plate, a synced
/// device's diary entry, the web's forms): exactly one of a food amount, servings of a meal, a quick
/// add, or a photo alone.
public struct DiaryEntryInput: Codable, Sendable, Equatable {
    public struct QuickAdd: Codable, Sendable, Equatable {
        public var energyKcal: Decimal?
        public var protein: Decimal?
        public var carbohydrates: Decimal?
        public var fat: Decimal?

        public init(energyKcal: Decimal? = nil, protein: Decimal? = nil, carbohydrates: Decimal? = nil, fat: Decimal? = nil) {
            self.energyKcal = energyKcal
            self.protein = protein
            self.carbohydrates = carbohydrates
            self.fat = fat
        }

        var nutrients: Nutrients { Nutrients(energyKcal: energyKcal, protein: protein, carbohydrates: carbohydrates, fat: fat) }
    }

    public var loggedAt: Date?
    /// The day it was eaten, when no `loggedAt` is given: now if that is today, else noon of that
    /// day in the person's time zone (what the pages do; offline clients send this).
    public var date: CalendarDate?
    public var mealType: String?
    public var note: String?
    public var foodId: UUID?
    public var quantity: Decimal?
    public var unit: String?
    public var mealId: UUID?
    public var servings: Decimal?
    public var quickAdd: QuickAdd?
    /// Only for quick adds and photo entries: what to call it.
    public var name: String?
    /// A photo uploaded with `POST /api/v1/photos` for this entry to show; alone (no food, meal or
    /// quick add), the entry is a photo not counted yet.
    public var photoId: UUID?
    /// An edit only: move the entry when its new time puts it in another occasion.
    public var confirmMove: Bool?

    public init(loggedAt: Date? = nil, date: CalendarDate? = nil, mealType: String? = nil, note: String? = nil, foodId: UUID? = nil,
                quantity: Decimal? = nil, unit: String? = nil, mealId: UUID? = nil, servings: Decimal? = nil, quickAdd: QuickAdd? = nil,
                name: String? = nil, photoId: UUID? = nil, confirmMove: Bool? = nil) {
        self.loggedAt = loggedAt
        self.date = date
        self.mealType = mealType
        self.note = note
        self.foodId = foodId
        self.quantity = quantity
        self.unit = unit
        self.mealId = mealId
        self.servings = servings
        self.quickAdd = quickAdd
        self.name = name
        self.photoId = photoId
        self.confirmMove = confirmMove
    }

    /// Whether it says what was eaten (a food, a meal or a quick add), not only when or where.
    var counts: Bool { foodId != nil || mealId != nil || quickAdd != nil }
}

/// Several items at once to one meal type (a plate): all or nothing.
public struct PlateInput: Codable, Sendable, Equatable {
    public var loggedAt: Date?
    public var mealType: String
    public var note: String?
    public var items: [DiaryEntryInput]

    public init(loggedAt: Date? = nil, mealType: String, note: String? = nil, items: [DiaryEntryInput]) {
        self.loggedAt = loggedAt
        self.mealType = mealType
        self.note = note
        self.items = items
    }
}
