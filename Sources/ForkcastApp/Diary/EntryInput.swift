import ForkcastCore
import Foundation

/// What a person logs or changes, from any front door: exactly one of a food amount, servings of a
/// meal, a quick add, or a photo alone. ``EntryDraft`` checks it with ForkcastCore's rules.
public struct EntryInput: Sendable, Hashable {
    public var loggedAt: Date?
    /// The day it was eaten, when no `loggedAt` is given: now if that is today, else noon of that day.
    public var date: CalendarDate?
    public var mealType: String?
    public var note: String?
    public var foodId: UUID?
    public var quantity: Decimal?
    public var unit: String?
    public var mealId: UUID?
    public var servings: Decimal?
    /// A food's named portion chosen on a page ("1 cup, chopped (128 g)"): its grams, `quantity` of
    /// them (one when absent), instead of a unit.
    public var portionGrams: Decimal?
    public var quickAdd: Nutrients?
    /// Only for quick adds and photo entries: what to call it.
    public var name: String?
    public var photoId: UUID?

    public init(loggedAt: Date? = nil, date: CalendarDate? = nil, mealType: String? = nil, note: String? = nil, foodId: UUID? = nil,
                quantity: Decimal? = nil, unit: String? = nil, mealId: UUID? = nil, servings: Decimal? = nil, quickAdd: Nutrients? = nil,
                name: String? = nil, photoId: UUID? = nil) {
        (self.loggedAt, self.date, self.mealType, self.note) = (loggedAt, date, mealType, note)
        (self.foodId, self.quantity, self.unit, self.mealId, self.servings) = (foodId, quantity, unit, mealId, servings)
        (self.quickAdd, self.name, self.photoId) = (quickAdd, name, photoId)
    }

    /// Whether it says what was eaten (a food, a meal or a quick add), not only when or where.
    var counts: Bool { foodId != nil || mealId != nil || quickAdd != nil }
}

extension LogEntry {
    /// Several items logged at once to one meal type, at one time, with one note.
    public struct Plate: Sendable, Hashable {
        public var loggedAt: Date?
        public var mealType: String
        public var note: String?
        public var items: [EntryInput]

        public init(loggedAt: Date? = nil, mealType: String, note: String? = nil, items: [EntryInput]) {
            (self.loggedAt, self.mealType, self.note, self.items) = (loggedAt, mealType, note, items)
        }
    }
}
