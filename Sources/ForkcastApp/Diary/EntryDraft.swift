import ForkcastCore
import Foundation

/// Turns what a person logs (a food amount, servings of a meal, a quick add or a photo) into a diary
/// entry with the nutrition and cost copied in, validated by ForkcastCore's ``DiaryValidation`` and
/// checked against the person's own foods, meals and photos. It writes nothing: ``LogEntry`` and
/// ``EditEntry`` do.
struct EntryDraft: Sendable {
    let diary: any Diary
    let now: Date

    var today: CalendarDate { diary.today(now: now) }

    /// When an entry logged for `date` was eaten: now if that is today, else noon of that day.
    func loggedAt(for date: CalendarDate) -> Date {
        DiaryValidation.loggedAt(for: date, today: today, now: now, in: diary.zone)
    }

    func types() async throws -> MealTypeCatalog { try await diary.mealTypes(now: now) }

    /// Builds one entry; field names in errors are prefixed (e.g. "items[2].").
    func entry(from input: EntryInput, id: UUID, defaults: (loggedAt: Date?, mealType: String?, note: String?) = (nil, nil, nil),
               prefix: String = "", types given: MealTypeCatalog? = nil, photoId keptPhoto: UUID? = nil,
               pendingPhoto: UUID? = nil) async throws -> DiaryEntry {
        let types: MealTypeCatalog
        if let given { types = given } else { types = try await self.types() }
        let loggedAt = input.loggedAt ?? input.date.map(loggedAt(for:)) ?? defaults.loggedAt ?? now
        let date = CalendarDate(loggedAt, in: diary.zone)
        let asked = input.mealType ?? defaults.mealType ?? types.suggested(at: loggedAt, in: diary.zone).token
        let mealType = types.normalized(asked) ?? asked
        let note = (input.note ?? defaults.note)?.trimmed.nilIfEmptyString
        let photoId = input.photoId ?? keptPhoto
        // A food without an amount or a unit is its usual portion (``Food/platePortion(quantity:unit:)``);
        // a unit without an amount is no amount.
        let usualPortion = input.foodId != nil && input.quantity == nil && input.unit == nil
        var problems = DiaryValidation.check(mealType: mealType, in: types, note: note,
                                             quantity: input.foodId != nil && !usualPortion ? (input.quantity ?? 0) : nil,
                                             servings: input.servings, quickAdd: input.quickAdd)
        if let problem = DiaryValidation.kindProblem(food: input.foodId != nil, meal: input.mealId != nil, quickAdd: input.quickAdd != nil,
                                                     photo: photoId != nil) {
            problems.append(problem)
        }
        if let problem = DiaryValidation.unitProblem(input.unit, food: input.foodId != nil, meal: input.mealId != nil) { problems.append(problem) }
        if let problem = date.problem(field: input.loggedAt != nil || input.date == nil ? "loggedAt" : "date") { problems.append(problem) }
        guard problems.isEmpty else { throw ValidationError(problems.map { .init(field: prefix + $0.field, message: $0.message) }) }
        // A pending photo is stored in the same write as this entry (``LogEntry/photo(_:date:mealType:)``).
        if let photoId, photoId != pendingPhoto { try await checkPhoto(photoId, for: id, field: prefix + "photoId") }
        var entry = try await counted(input, id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, prefix: prefix)
        entry.photoId = photoId
        return entry
    }

    /// The occasion `entry` is in, named for a person.
    func occasion(of entry: DiaryEntry, types: MealTypeCatalog) -> OccasionRef { OccasionRef(entry, owner: diary.owner, types: types) }

    /// A photo may be shown by one entry only, and only its owner's.
    private func checkPhoto(_ photoId: UUID, for entryID: UUID, field: String) async throws {
        guard try await diary.hasPhoto(photoId) else {
            throw Refusal.missingReference(field: field, detail: "No photo with id \(photoId) exists in your account; upload the photo first.")
        }
        if let other = try await diary.entry(showingPhoto: photoId), other != entryID {
            throw Refusal.conflict("That photo already belongs to another diary entry (\(other)).")
        }
    }

    private func counted(_ input: EntryInput, id: UUID, loggedAt: Date, date: CalendarDate, mealType: String, note: String?,
                         prefix: String) async throws -> DiaryEntry {
        let name = input.name?.trimmed.nilIfEmptyString.map { String($0.prefix(DiaryEntry.typedNameLength)) }
        if let foodId = input.foodId {
            guard let food = try await diary.food(foodId) else {
                throw Refusal.missingReference(field: prefix + "foodId", detail: "No food with id \(foodId) exists in your account.")
            }
            let amount: (quantity: Decimal, unit: QuantityUnit)
            if let grams = input.portionGrams {
                guard let portions = food.portions(input.quantity, of: grams) else {
                    throw ValidationError(field: prefix + "unit", "A portion is more than 0 and at most 5 kg, of a food measured in grams.")
                }
                amount = portions
            } else if let quantity = input.quantity {
                // An amount without a unit is in the food's basis (g or ml), as the API documents.
                guard let unit = QuantityUnit(rawValue: input.unit ?? food.basis.rawValue) else {
                    throw ValidationError(field: prefix + "unit", "unit must be \"g\", \"ml\" or \"serving\".")
                }
                amount = (quantity, unit)
            } else {
                amount = food.usualPortion
            }
            do {
                return try DiaryEntry.food(food, quantity: amount.quantity, unit: amount.unit, id: id, loggedAt: loggedAt, date: date,
                                           mealType: mealType, note: note)
            } catch { throw ValidationError(field: prefix + "unit", error.message) }
        }
        if let mealId = input.mealId {
            guard let meal = try await diary.meal(mealId) else {
                throw Refusal.missingReference(field: prefix + "mealId", detail: "No meal with id \(mealId) exists in your account.")
            }
            let foods = try await diary.foods(ids: Array(Set(meal.ingredients.map(\.foodId))))
            // A meal whose ingredients no longer fit their units counts as unknown, not as zero.
            let totals = (try? MealTotals.of(meal, foods: foods)) ?? .unknown
            return DiaryEntry.meal(meal, totals: totals, servings: input.servings ?? DiaryEntry.defaultServings, id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note)
        }
        if let quick = input.quickAdd {
            return DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, kind: .quickAdd,
                              name: name ?? DiaryEntry.quickAddName, nutrients: quick)
        }
        return DiaryEntry(id: id, loggedAt: loggedAt, date: date, mealType: mealType, note: note, kind: .photo,
                          name: name ?? DiaryEntry.photoName, nutrients: Nutrients())
    }
}
