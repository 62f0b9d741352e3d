import Foundation

/// An occasion (one meal type on one day) as a person reads it: "Lunch on Tue 2026-11-24".
public struct OccasionRef: Codable, Sendable, Equatable {
    public var id: UUID
    public var date: CalendarDate
    public var mealType: String
    public var name: String

    public init(id: UUID, date: CalendarDate, mealType: String, name: String) {
        self.id = id
        self.date = date
        self.mealType = mealType
        self.name = name
    }
}
