import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation

extension DiaryEntryAnswer {
    /// An entry as the API answers it, with its photo's size when `photos` holds it.
    init(_ e: DiaryEntry, owner: UUID, photos: [UUID: Photo] = [:]) {
        let kind: Kind, foodId: UUID?, mealId: UUID?, quantity: Decimal?, unit: QuantityUnit?
        switch e.kind {
        case let .food(food, q, u): (kind, foodId, mealId, quantity, unit) = (.food, food, nil, q, u)
        case let .meal(meal, servings): (kind, foodId, mealId, quantity, unit) = (.meal, nil, meal, servings, .serving)
        case .quickAdd: (kind, foodId, mealId, quantity, unit) = (.quickAdd, nil, nil, nil, nil)
        case .photo: (kind, foodId, mealId, quantity, unit) = (.photo, nil, nil, nil, nil)
        }
        self.init(id: e.id, loggedAt: e.loggedAt, date: e.date, mealType: e.mealType, note: e.note, kind: kind, foodId: foodId,
                  mealId: mealId, quantity: quantity, unit: unit, name: e.name, nutrients: MacrosAnswer(e.nutrients),
                  cost: e.cost?.rounded(2), occasionId: e.occasionId(owner: owner), counted: e.isCounted,
                  photo: e.photoId.map { PhotoRefAnswer(id: $0, width: photos[$0]?.width, height: photos[$0]?.height) })
    }
}

extension PhotoAnswer {
    init(_ p: Photo) {
        self.init(id: p.id, format: Format(rawValue: p.format.rawValue)!, contentType: ContentType(rawValue: p.format.mimeType)!,
                  width: p.width, height: p.height, byteSize: p.byteSize, capturedAt: p.capturedAt,
                  createdAt: p.createdAt, updatedAt: p.updatedAt)
    }
}

extension DiaryDayAnswer {
    init(_ day: DiaryDay, owner: UUID, photos: [UUID: Photo]) {
        self.init(
            date: day.date,
            entries: day.groups.map { g in
                DiaryMealGroup(mealType: g.mealType.token, mealTypeId: g.mealType.id, name: g.mealType.name,
                               entries: g.entries.map { DiaryEntryAnswer($0, owner: owner, photos: photos) }, totals: MacrosAnswer(g.totals))
            },
            totals: MacrosAnswer(day.totals), cost: day.cost?.rounded(2), goals: GoalsAnswer(day.goals),
            remaining: MacrosAnswer(day.remaining), uncountedEntries: day.uncounted,
            missing: NutrientCountsAnswer(day.missing))
    }
}
