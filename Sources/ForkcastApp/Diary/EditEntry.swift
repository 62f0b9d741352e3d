import ForkcastCore
import Foundation

/// Changing a diary entry (the API's PUT, the web's edit page and a synced device's edit): new
/// food, meal or quick-add values are copied in again; otherwise only the meal type, time, name (of
/// a photo or quick add) and note change. A change of time that moves the entry to another occasion
/// (another day, or another meal type changed with it) needs `confirmMove`, else it is refused with
/// ``Refusal/occasionChange(from:to:)``; only the edited entry moves. A photo replaced by another is
/// deleted in the same write.
public struct EditEntry: Sendable {
    let diary: any Diary
    let now: Date

    public init(diary: any Diary, now: Date) {
        self.diary = diary
        self.now = now
    }

    /// nil when the person has no such entry.
    public func callAsFunction(_ id: UUID, with input: EntryInput, confirmMove: Bool = false) async throws -> DiaryEntry? {
        guard let existing = try await diary.entry(id) else { return nil }
        let draft = EntryDraft(diary: diary, now: now)
        let types = try await draft.types()
        var entry: DiaryEntry
        if input.counts || (input.photoId != nil && input.photoId != existing.photoId) {
            // Completing a photo entry keeps its photo; a new photo replaces the shown one.
            entry = try await draft.entry(from: input, id: id, defaults: (existing.loggedAt, existing.mealType, existing.note),
                                          types: types, photoId: existing.photoId)
            if !input.counts, existing.kind != .photo {
                entry.kind = existing.kind; entry.name = existing.name; entry.nutrients = existing.nutrients; entry.cost = existing.cost
            }
            if input.loggedAt == nil && input.date == nil { entry.loggedAt = existing.loggedAt; entry.date = existing.date }
        } else {
            entry = existing
            var problems: [ValidationError.Field] = []
            if let mealType = input.mealType { entry.mealType = types.normalized(mealType) ?? mealType }
            if let name = input.name?.trimmed.nilIfEmptyString, existing.kind == .photo || existing.kind == .quickAdd {
                entry.name = String(name.prefix(DiaryEntry.typedNameLength))
            }
            if let loggedAt = input.loggedAt ?? input.date.map(draft.loggedAt(for:)) {
                entry.loggedAt = loggedAt
                entry.date = CalendarDate(loggedAt, in: diary.zone)
            }
            if let note = input.note { entry.note = note.trimmed.nilIfEmptyString }
            problems += DiaryValidation.check(mealType: entry.mealType, in: types, note: entry.note)
            if entry.date != existing.date, let problem = entry.date.problem(field: input.loggedAt != nil ? "loggedAt" : "date") { problems.append(problem) }
            if let problem = DiaryValidation.unitProblem(input.unit, food: false) { problems.append(problem) }
            if input.quantity != nil || input.servings != nil {
                problems.append(.init(field: "quantity", message: "To change the amount, send the foodId (or mealId) again with the new quantity."))
            }
            guard problems.isEmpty else { throw ValidationError(problems) }
        }
        if !confirmMove, existing.timeEditMovesOccasion(to: entry) {
            throw Refusal.occasionChange(from: draft.occasion(of: existing, types: types), to: draft.occasion(of: entry, types: types))
        }
        let replacedPhoto = existing.photoId.flatMap { $0 == entry.photoId ? nil : $0 }
        guard try await diary.replace(entry, deletingPhoto: replacedPhoto, now: now) else { return nil }
        return entry
    }
}
