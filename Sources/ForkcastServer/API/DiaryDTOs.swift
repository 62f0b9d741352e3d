import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// `POST /api/v1/diary/entries` (and each item of a plate, and a synced diary entry): ForkcastApp's.
typealias DiaryEntryInput = ForkcastApp.DiaryEntryInput
typealias PlateInput = ForkcastApp.PlateInput

struct CopyMealInput: Content {
    var from: CalendarDate
    var fromMealType: String
    /// The day to log the copy on (default today) and its meal type (default the same).
    var to: CalendarDate?
    var mealType: String?
}

struct LogPlannedInput: Content {
    var assignmentId: UUID
    var loggedAt: Date?
    var mealType: String?
    var servings: Decimal?
}

struct MacrosDTO: Content {
    var energyKcal: Decimal?
    var protein: Decimal?
    var carbohydrates: Decimal?
    var fat: Decimal?

    init(_ n: Nutrients) {
        energyKcal = n.energyKcal?.rounded(2); protein = n.protein?.rounded(2)
        carbohydrates = n.carbohydrates?.rounded(2); fat = n.fat?.rounded(2)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(energyKcal, forKey: .energyKcal); try c.encode(protein, forKey: .protein)
        try c.encode(carbohydrates, forKey: .carbohydrates); try c.encode(fat, forKey: .fat)
    }
}

struct DiaryEntryDTO: Content {
    var id: UUID
    var loggedAt: Date
    var date: CalendarDate
    var mealType: String
    var note: String?
    var kind: String
    var foodId: UUID?
    var mealId: UUID?
    var quantity: Decimal?
    var unit: String?
    var name: String
    var nutrients: MacrosDTO
    var cost: Decimal?
    var occasionId: UUID
    var counted: Bool
    var photo: PhotoRefDTO?

    init(_ e: DiaryEntry, owner: UUID, photos: [UUID: Photo] = [:]) {
        id = e.id; loggedAt = e.loggedAt; date = e.date; mealType = e.mealType; note = e.note; name = e.name
        nutrients = MacrosDTO(e.nutrients); cost = e.cost?.rounded(2)
        occasionId = e.occasionId(owner: owner); counted = e.isCounted
        photo = e.photoId.map { PhotoRefDTO(id: $0, photo: photos[$0]) }
        switch e.kind {
        case let .food(foodId, q, u): kind = "food"; self.foodId = foodId; quantity = q; unit = u.rawValue
        case let .meal(mealId, servings): kind = "meal"; self.mealId = mealId; quantity = servings; unit = "serving"
        case .quickAdd: kind = "quickAdd"
        case .photo: kind = "photo"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(loggedAt, forKey: .loggedAt); try c.encode(date, forKey: .date)
        try c.encode(mealType, forKey: .mealType); try c.encode(note, forKey: .note); try c.encode(kind, forKey: .kind)
        try c.encode(foodId, forKey: .foodId); try c.encode(mealId, forKey: .mealId); try c.encode(quantity, forKey: .quantity)
        try c.encode(unit, forKey: .unit); try c.encode(name, forKey: .name); try c.encode(nutrients, forKey: .nutrients)
        try c.encode(cost, forKey: .cost); try c.encode(occasionId, forKey: .occasionId); try c.encode(counted, forKey: .counted)
        try c.encode(photo, forKey: .photo)
    }
}

/// A photo as lists show it: where its image and small thumbnail are.
struct PhotoRefDTO: Content {
    var id: UUID
    var url: String
    var thumbnailUrl: String
    var width: Int?
    var height: Int?

    init(id: UUID, photo: Photo? = nil) {
        self.id = id
        url = PhotoURL.image(id)
        thumbnailUrl = PhotoURL.thumbnail(id)
        width = photo?.width
        height = photo?.height
    }
}

struct PhotoDTO: Content {
    var id: UUID
    var format: String
    var contentType: String
    var width: Int
    var height: Int
    var byteSize: Int
    var capturedAt: Date
    var url: String
    var thumbnailUrl: String
    var createdAt: Date
    var updatedAt: Date

    init(_ p: Photo) {
        id = p.id; format = p.format.rawValue; contentType = p.format.mimeType; width = p.width; height = p.height; byteSize = p.byteSize
        capturedAt = p.capturedAt; createdAt = p.createdAt; updatedAt = p.updatedAt
        url = PhotoURL.image(p.id); thumbnailUrl = PhotoURL.thumbnail(p.id)
    }
}




struct DiaryGroupDTO: Content {
    var mealType: String
    var mealTypeId: UUID
    var name: String
    var entries: [DiaryEntryDTO]
    var totals: MacrosDTO
}

struct DiaryDayDTO: Content {
    var date: CalendarDate
    var entries: [DiaryGroupDTO]
    var totals: MacrosDTO
    var cost: Decimal?
    var goals: GoalsAnswer
    var remaining: MacrosDTO
    /// Entries not counted yet (photos to complete): the totals leave them out.
    var uncountedEntries: Int

    init(_ day: DiaryDay, owner: UUID, photos: [UUID: Photo]) {
        date = day.date
        uncountedEntries = day.uncounted
        entries = day.groups.map { g in
            DiaryGroupDTO(mealType: g.mealType.token, mealTypeId: g.mealType.id, name: g.mealType.name,
                          entries: g.entries.map { DiaryEntryDTO($0, owner: owner, photos: photos) }, totals: MacrosDTO(g.totals))
        }
        totals = MacrosDTO(day.totals)
        cost = day.cost?.rounded(2)
        goals = GoalsAnswer(day.goals)
        remaining = MacrosDTO(day.remaining)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date); try c.encode(entries, forKey: .entries); try c.encode(totals, forKey: .totals)
        try c.encode(cost, forKey: .cost); try c.encode(goals, forKey: .goals); try c.encode(remaining, forKey: .remaining)
        try c.encode(uncountedEntries, forKey: .uncountedEntries)
    }
}

struct DaySummaryDTO: Content {
    var date: CalendarDate
    var energyKcal: Decimal
    var protein: Decimal
    var carbohydrates: Decimal
    var fat: Decimal
    var cost: Decimal?
    var entries: Int
}

struct SummaryDTO: Content {
    var from: CalendarDate
    var to: CalendarDate
    var goals: GoalsAnswer
    var days: [DaySummaryDTO]
    var weights: [WeightEntry]
}



struct ImportResultDTO: Content {
    var weightsFound: Int
    var weightsAdded: Int
    var heightCm: Decimal?
    var birthDate: CalendarDate?
    var sex: String?
    var recordsRead: Int
    /// Body-mass records in the file; `weightsFound` is what is left at one a day.
    var weightRecords: Int
    /// Records not imported, by reason: implausible, unknownUnit, sameDay, alreadyRecorded.
    var skipped: [String: Int]
}
