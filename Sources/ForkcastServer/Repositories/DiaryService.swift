import Fluent
import ForkcastCore
import Foundation

/// Turns what a person logs (a food amount, servings of a meal, or a quick add) into diary entries
/// with the nutrition and cost copied in.
struct DiaryService {
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
    var diary: DiaryRepository { DiaryRepository(db: db, ownerID: ownerID, photoStore: photoStore) }
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
        // A pending photo is stored in the same write as this entry (``CapturePhotoEntry``).
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
        if let other = try await diary.entry(showingPhoto: photoId), other != entryID {
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

    /// Changes an entry (the API's PUT and the sync push): new food/meal/quick add values are copied
    /// in again; otherwise only meal type, time and note change. nil when the owner has no such entry.
    /// A change of time that moves the entry to another occasion (another day, or another meal type
    /// changed with it) needs `confirmMove` (seed 004 §7); only the edited entry moves.
    func edit(_ id: UUID, with input: DiaryEntryInput, confirmMove: Bool = false) async throws -> DiaryEntry? {
        guard let existing = try await diary.find(id) else { return nil }
        let types = try await types()
        var entry: DiaryEntry
        if input.foodId != nil || input.mealId != nil || input.quickAdd != nil || (input.photoId != nil && input.photoId != existing.photoId) {
            do {
                // Completing a photo entry keeps its photo; a new photo replaces the shown one.
                let keep = existing.photoId
                entry = try await self.entry(from: input, id: id, defaults: (existing.loggedAt, existing.mealType, existing.note),
                                             types: types, photoId: keep)
                if input.foodId == nil, input.mealId == nil, input.quickAdd == nil, existing.kind != .photo {
                    entry.kind = existing.kind; entry.name = existing.name; entry.nutrients = existing.nutrients; entry.cost = existing.cost
                }
                if input.loggedAt == nil && input.date == nil { entry.loggedAt = existing.loggedAt; entry.date = existing.date }
            } catch let error as ValidationError { throw AppError.validation(error) }
        } else {
            entry = existing
            var problems: [ValidationError.Field] = []
            if let mealType = input.mealType { entry.mealType = types.normalized(mealType) ?? mealType }
            if let name = input.name?.trimmed.nilIfEmptyString, existing.kind == .photo || existing.kind == .quickAdd { entry.name = String(name.prefix(120)) }
            if let loggedAt = input.loggedAt ?? input.date.map({ DiaryValidation.loggedAt(for: $0, today: user.today(now: now), now: now, in: user.zone) }) {
                entry.loggedAt = loggedAt
                entry.date = CalendarDate(loggedAt, in: user.zone)
            }
            if let note = input.note { entry.note = note.trimmed.nilIfEmptyString }
            problems += DiaryValidation.check(mealType: entry.mealType, in: types, note: entry.note)
            if let problem = DiaryValidation.unitProblem(input.unit, food: false) { problems.append(problem) }
            if input.quantity != nil || input.servings != nil {
                problems.append(.init(field: "quantity", message: "To change the amount, send the foodId (or mealId) again with the new quantity."))
            }
            guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
        }
        if !confirmMove, existing.timeEditMovesOccasion(to: entry) {
            throw AppError.occasionChange(from: occasion(of: existing, types: types), to: occasion(of: entry, types: types))
        }
        let replacedPhoto = existing.photoId.flatMap { $0 == entry.photoId ? nil : $0 }
        guard try await diary.update(entry, now: now, deletingPhoto: replacedPhoto) else { return nil }
        return entry
    }

    /// How an occasion is named to a person: "Lunch on Tue 24 Nov".
    func occasion(of entry: DiaryEntry, types: MealTypeCatalog) -> ProblemDetails.OccasionRef {
        .init(id: entry.occasionId(owner: ownerID), date: entry.date, mealType: entry.mealType,
              name: "\(types.name(of: entry.mealType)) on \(entry.date.weekday.name) \(entry.date.iso)")
    }

    /// Logs several items at once to one meal type (seed 001's "plate"): all or nothing.
    func logPlate(_ plate: PlateInput, ids: () -> UUID) async throws -> [DiaryEntry] {
        if let problem = DiaryValidation.plateProblem(itemCount: plate.items.count) { throw ValidationError([problem]) }
        let types = try await types()
        var entries: [DiaryEntry] = []
        var problems: [ValidationError.Field] = []
        for (index, item) in plate.items.enumerated() {
            var item = item
            item.mealType = plate.mealType
            do { entries.append(try await entry(from: item, id: ids(), defaults: (plate.loggedAt, plate.mealType, plate.note), prefix: "items[\(index)].", types: types)) }
            catch let error as ValidationError { problems += error.fields }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        try await diary.create(entries, now: now)
        return entries
    }

    /// Logs a planned meal (API, Today and the planner alike): by default one serving, at the
    /// time ``DiaryValidation/loggedAt(for:today:now:in:)`` gives for its day, into the meal type
    /// asked for, else its plan slot (a dinner logged after midnight is still dinner), else the
    /// one the time suggests. nil when the owner has no such assignment.
    func logPlanned(_ assignmentID: UUID, loggedAt: Date? = nil, mealType: String? = nil, servings: Decimal? = nil, id: UUID) async throws -> DiaryEntry? {
        guard let assignment = try await PlanRepository(db: db, ownerID: ownerID).find(assignmentID) else { return nil }
        let at = loggedAt ?? DiaryValidation.loggedAt(for: assignment.date, today: user.today(now: now), now: now, in: user.zone)
        let entry = try await self.entry(from: DiaryEntryInput(loggedAt: at, mealType: mealType?.trimmed.nilIfEmptyString ?? assignment.mealType,
                                                               mealId: assignment.mealId, servings: servings ?? 1), id: id)
        try await diary.create([entry], now: now)
        return entry
    }

    /// Copies what was eaten at one meal of one day (say yesterday's breakfast) to another day and
    /// meal type, as it was logged (same foods, amounts and values), in one write.
    func copy(from source: CalendarDate, mealType: String, to target: CalendarDate, as targetType: String, ids: () -> UUID) async throws -> [DiaryEntry] {
        var problems: [ValidationError.Field] = []
        let types = try await types()
        if let p = types.problem(mealType, field: "fromMealType") { problems.append(p) }
        if let p = types.problem(targetType) { problems.append(p) }
        guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
        let mealType = types.normalized(mealType)!, targetType = types.normalized(targetType)!
        // Photos stay with the entries they show; the copies are the values eaten again.
        let originals = try await diary.entries(on: source).filter { $0.mealType == mealType && $0.isCounted }
        guard !originals.isEmpty else {
            throw AppError.validation(ValidationError(field: "from", "Nothing was logged for \(types.name(of: mealType)) on \(source.iso)."))
        }
        if let problem = DiaryValidation.plateProblem(itemCount: originals.count) { throw AppError.validation(ValidationError([problem])) }
        let at = DiaryValidation.loggedAt(for: target, today: user.today(now: now), now: now, in: user.zone)
        let copies = originals.map { $0.copied(id: ids(), loggedAt: at, date: target, mealType: targetType) }
        try await diary.create(copies, now: now)
        return copies
    }

    func goals() async throws -> (goals: Goals, calculation: GoalCalculation?) {
        try await BodyRepository(db: db, ownerID: ownerID).goals(today: user.today(now: now))
    }

    func day(_ date: CalendarDate) async throws -> DiaryDay {
        DiaryDay(date: date, entries: try await diary.entries(on: date), goals: try await goals().goals, types: try await types())
    }
}

extension String {
    var nilIfEmptyString: String? { isEmpty ? nil : self }
}
