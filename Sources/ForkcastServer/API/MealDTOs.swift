import ForkcastCore
import Foundation
import Vapor

/// `POST/PUT /api/v1/meals` body.
struct MealInput: Content {
    var description: String
    var primaryProtein: String?
    var primaryCarb: String?
    var otherComponents: [String]?

    var draft: MealDraft {
        MealDraft(description: description, primaryProtein: primaryProtein, primaryCarb: primaryCarb,
                  otherComponents: otherComponents ?? [])
    }
}

/// A Meal as the API shows it (PRODUCT.md, API v1).
struct MealDTO: Content {
    var id: UUID
    var description: String
    var primaryProtein: String?
    var primaryCarb: String?
    var otherComponents: [String]
    var createdAt: Date
    var updatedAt: Date
    var isPlanned: Bool

    init(_ meal: Meal, isPlanned: Bool) {
        id = meal.id
        description = meal.description
        primaryProtein = meal.primaryProtein
        primaryCarb = meal.primaryCarb
        otherComponents = meal.otherComponents
        createdAt = meal.createdAt
        updatedAt = meal.updatedAt
        self.isPlanned = isPlanned
    }

    // Encode nulls explicitly so clients always see every key.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(description, forKey: .description)
        try c.encode(primaryProtein, forKey: .primaryProtein)
        try c.encode(primaryCarb, forKey: .primaryCarb)
        try c.encode(otherComponents, forKey: .otherComponents)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isPlanned, forKey: .isPlanned)
    }
}

struct PageMetadata: Content {
    var page: Int
    var per: Int
    var total: Int
}

struct MealPage: Content {
    var items: [MealDTO]
    var metadata: PageMetadata
}

/// `POST /api/v1/plan/assignments` body.
struct AssignmentInput: Content {
    var mealId: UUID
    var date: CalendarDate
}

struct AssignmentDTO: Content {
    var id: UUID
    var date: CalendarDate
    var mealId: UUID
    var meal: MealDTO
    var createdAt: Date

    init(_ entry: PlanDay.Entry) {
        id = entry.assignment.id
        date = entry.assignment.date
        mealId = entry.meal.id
        meal = MealDTO(entry.meal, isPlanned: true)
        createdAt = entry.assignment.createdAt
    }
}

struct PlanDayDTO: Content {
    var date: CalendarDate
    var weekday: String
    var assignments: [AssignmentDTO]

    init(_ day: PlanDay) {
        date = day.date
        weekday = day.weekday.name
        assignments = day.entries.map(AssignmentDTO.init)
    }
}

struct PlanDTO: Content {
    var start: CalendarDate
    var end: CalendarDate
    var today: CalendarDate
    var previousStart: CalendarDate
    var nextStart: CalendarDate
    var days: [PlanDayDTO]
}

extension MealFacets: Content {}
