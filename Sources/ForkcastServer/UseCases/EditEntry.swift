import Fluent
import ForkcastCore
import Foundation

/// Changing a diary entry (the API's PUT, the web's edit page and a synced device's edit): new
/// food, meal or quick-add values are copied in again; otherwise only the meal type, time, name (of
/// a photo or quick add) and note change. A change of time that moves the entry to another occasion
/// (another day, or another meal type changed with it) needs `confirmMove`; only the edited entry
/// moves. A photo replaced by another is deleted in the same write.
struct EditEntry {
    let diary: DiaryContext

    /// nil when the person has no such entry.
    func callAsFunction(_ id: UUID, with input: DiaryEntryInput, confirmMove: Bool = false) async throws -> DiaryEntry? {
        let user = diary.user, now = diary.now
        guard let existing = try await diary.entries.find(id) else { return nil }
        let types = try await diary.types()
        var entry: DiaryEntry
        if input.foodId != nil || input.mealId != nil || input.quickAdd != nil || (input.photoId != nil && input.photoId != existing.photoId) {
            do {
                // Completing a photo entry keeps its photo; a new photo replaces the shown one.
                let keep = existing.photoId
                entry = try await diary.entry(from: input, id: id, defaults: (existing.loggedAt, existing.mealType, existing.note),
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
            throw AppError.occasionChange(from: diary.occasion(of: existing, types: types), to: diary.occasion(of: entry, types: types))
        }
        let replacedPhoto = existing.photoId.flatMap { $0 == entry.photoId ? nil : $0 }
        guard try await diary.entries.update(entry, now: now, deletingPhoto: replacedPhoto) else { return nil }
        return entry
    }
}
