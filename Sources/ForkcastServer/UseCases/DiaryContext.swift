import Fluent
import ForkcastCore
import Foundation

/// The signed-in person's diary as its use cases see it: the meal types and foods an entry is drafted
/// from, and ``entry(from:id:defaults:prefix:types:photoId:pendingPhoto:)``, which turns what a person
/// logs (a food amount, servings of a meal, a quick add or a photo) into a diary entry with the
/// nutrition and cost copied in, validated by ForkcastCore's ``DiaryValidation`` and checked against
/// the person's own foods, meals and photos. It writes nothing: ``LogEntry``, ``EditEntry`` and
/// ``DeleteEntry`` do.
struct DiaryContext {
    let user: UserModel
    let db: any Database
    let now: Date
    let photoStore: any PhotoStore
    /// Where the person's meal types and foods may be kept between requests: the read cache and
    /// their versions, read when the request was signed in (nil: read them afresh).
    var kept: (cache: ReadCache, versions: KeptVersions)? = nil

    var ownerID: UUID { user.id! }
    var foods: FoodRepository { FoodRepository(db: db, ownerID: ownerID) }
    var meals: MealRepository { MealRepository(db: db, ownerID: ownerID) }
    var entries: DiaryRepository { DiaryRepository(db: db, ownerID: ownerID, photoStore: photoStore) }
    var photos: PhotoRepository { PhotoRepository(db: db, ownerID: ownerID, store: photoStore) }
    var mealTypes: MealTypeRepository { MealTypeRepository(db: db, ownerID: ownerID) }

    /// One of the person's foods: kept while none of their foods changes (logging reads one per
    /// entry), read afresh inside a write.
    func food(_ id: UUID) async throws -> Food? {
        guard let kept else { return try await foods.find(id) }
        return try await kept.cache.value("food \(id)", owner: ownerID, version: kept.versions.foods, now: now) { try await foods.find(id) }
    }

    /// The person's meal types: kept while none of them changes (logging reads them on every entry),
    /// read afresh inside a write.
    func types() async throws -> MealTypeCatalog {
        guard let kept else { return try await mealTypes.catalog(now: now) }
        return try await kept.cache.value("mealTypes", owner: ownerID, version: kept.versions.mealTypes, now: now) { try await mealTypes.catalog(now: now) }
    }

    /// Builds one entry; field names in errors are prefixed (e.g. "items[2].").
    func entry(from input: DiaryEntryInput, id: UUID, defaults: (loggedAt: Date?, mealType: String?, note: String?) = (nil, nil, nil),
               prefix: String = "", types given: MealTypeCatalog? = nil, photoId keptPhoto: UUID? = nil,
               pendingPhoto: UUID? = nil) async throws -> DiaryEntry {
        let types: MealTypeCatalog
        if let given { types = given } else { types = try await self.types() }
        let loggedAt = input.loggedAt ?? input.date.map { DiaryValidation.loggedAt(for: $0, today: user.today(now: now), now: now, in: user.zone) }
            ?? defaults.loggedAt ?? now
        let date = CalendarDate(loggedAt, in: user.zone)
        let asked = input.mealType ?? defaults.mealType ?? types.suggested(at: loggedAt, in: user.zone).token
        let mealType = types.normalized(asked) ?? asked
        let note = (input.note ?? defaults.note)?.trimmed.nilIfEmptyString
        let photoId = input.photoId ?? keptPhoto
        var problems = DiaryValidation.check(mealType: mealType, in: types, note: note, quantity: input.foodId != nil ? (input.quantity ?? 0) : nil,
                                             servings: input.servings,
                                             quickAdd: input.quickAdd.map { Nutrients(energyKcal: $0.energyKcal, protein: $0.protein, carbohydrates: $0.carbohydrates, fat: $0.fat) })
        if let problem = DiaryValidation.kindProblem(food: input.foodId != nil, meal: input.mealId != nil, quickAdd: input.quickAdd != nil,
                                                     photo: photoId != nil) {
            problems.append(problem)
        }
        if let problem = DiaryValidation.unitProblem(input.unit, food: input.foodId != nil, meal: input.mealId != nil) { problems.append(problem) }
        guard problems.isEmpty else { throw ValidationError(problems.map { .init(field: prefix + $0.field, message: $0.message) }) }
        // A pending photo is stored in the same write as this entry (``LogEntry/photo(_:date:mealType:)``).
        if let photoId, photoId != pendingPhoto { try await checkPhoto(photoId, for: id, field: prefix + "photoId") }
        var entry = try await counted(input, id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, prefix: prefix)
        entry.photoId = photoId
        return entry
    }

    /// A photo may be shown by one entry only, and only its owner's.
    private func checkPhoto(_ photoId: UUID, for entryID: UUID, field: String) async throws {
        guard try await photos.find(photoId) != nil else {
            throw AppError.missingReference(field: field, detail: "No photo with id \(photoId) exists in your account; upload it with POST /api/v1/photos first.")
        }
        if let other = try await entries.entry(showingPhoto: photoId), other != entryID {
            throw AppError.conflict("That photo already belongs to another diary entry (\(other)).")
        }
    }

    private func counted(_ input: DiaryEntryInput, id: UUID, loggedAt: Date, date: CalendarDate, mealType: String, note: String?,
                         prefix: String) async throws -> DiaryEntry {
        if input.foodId == nil, input.mealId == nil, input.quickAdd == nil {
            let name = input.name?.trimmed.nilIfEmptyString.map { String($0.prefix(120)) } ?? DiaryEntry.photoName
            return DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, kind: .photo, name: name, nutrients: Nutrients())
        }

        if let foodId = input.foodId {
            guard let food = try await food(foodId) else {
                throw AppError.missingReference(field: prefix + "foodId", detail: "No food with id \(foodId) exists in your account.")
            }
            guard let unit = QuantityUnit(rawValue: input.unit ?? food.basis.rawValue) else {
                throw ValidationError(field: prefix + "unit", "unit must be \"g\", \"ml\" or \"serving\".")
            }
            do {
                return try DiaryEntry.food(food, quantity: input.quantity!, unit: unit, id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note)
            } catch { throw ValidationError(field: prefix + "unit", error.message) }
        }
        if let mealId = input.mealId {
            guard let meal = try await meals.find(mealId) else {
                throw AppError.missingReference(field: prefix + "mealId", detail: "No meal with id \(mealId) exists in your account.")
            }
            let totals = try await meals.totals(for: [meal])[meal.id] ?? .unknown
            return DiaryEntry.meal(meal, totals: totals, servings: input.servings ?? 1, id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note)
        }
        let q = input.quickAdd!
        let name = input.name?.trimmed.nilIfEmptyString.map { String($0.prefix(120)) } ?? "Quick add"
        return DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, kind: .quickAdd, name: name,
                          nutrients: Nutrients(energyKcal: q.energyKcal, protein: q.protein, carbohydrates: q.carbohydrates, fat: q.fat))
    }

    /// How an occasion is named to a person: "Lunch on Tue 24 Nov".
    func occasion(of entry: DiaryEntry, types: MealTypeCatalog) -> ProblemDetails.OccasionRef {
        .init(id: entry.occasionId(owner: ownerID), date: entry.date, mealType: entry.mealType,
              name: "\(types.name(of: entry.mealType)) on \(entry.date.weekday.name) \(entry.date.iso)")
    }

    func goals() async throws -> (goals: Goals, calculation: GoalCalculation?) {
        try await BodyRepository(db: db, ownerID: ownerID).goals(today: user.today(now: now))
    }

    func day(_ date: CalendarDate) async throws -> DiaryDay {
        DiaryDay(date: date, entries: try await entries.entries(on: date), goals: try await goals().goals, types: try await types())
    }
}
