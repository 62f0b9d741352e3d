import ForkcastCore
import Foundation

/// Logging to the diary: where an entry is logged, whichever front door it comes through (the API,
/// the web pages, a synced device's push, the offline queue) and whatever is logged — one food amount,
/// servings of a meal, a quick add, a plate, a planned meal, a meal eaten again, a captured photo.
///
/// Each way drafts its entries with ``EntryDraft`` (ForkcastCore's rules, the person's own foods,
/// meals, meal types and photos), then stores them with their change-feed rows in one transaction:
/// all of a plate or none of it.
public struct LogEntry: Sendable {
    let diary: any Diary
    /// The request's time: "now" for an entry without a time, and the time of the change.
    let now: Date
    let uuid: @Sendable () -> UUID

    public init(diary: any Diary, now: Date, uuid: @escaping @Sendable () -> UUID) {
        self.diary = diary
        self.now = now
        self.uuid = uuid
    }

    private var draft: EntryDraft { EntryDraft(diary: diary, now: now) }

    /// One food amount, servings of a meal, a quick add or a photo entry. `id`: the entry's id when
    /// a device chose it (sync); a new one otherwise. Throws ``ValidationError`` naming the field.
    @discardableResult
    public func single(_ input: EntryInput, id: UUID? = nil) async throws -> DiaryEntry {
        let entry = try await draft.entry(from: input, id: id ?? uuid())
        try await diary.insert([entry], now: now)
        return entry
    }

    /// Several items at once to one meal type (a plate): all or nothing, at most
    /// ``DiaryValidation/maximumPlateItems`` items. Throws one ``ValidationError`` naming every bad item.
    /// `confirming`: ask about amounts big enough to be a slip (a person's form), unless they are
    /// among the questions the person already answered with yes; nil logs what was sent (a client).
    public func plate(_ plate: Plate, confirming confirmed: Set<String>? = nil) async throws -> [DiaryEntry] {
        if let problem = DiaryValidation.plateProblem(itemCount: plate.items.count) { throw ValidationError([problem]) }
        if let at = plate.loggedAt, let problem = CalendarDate(at, in: diary.zone).problem(field: "loggedAt") { throw ValidationError([problem]) }
        let draft = draft
        let types = try await draft.types()
        var entries: [DiaryEntry] = []
        var problems: [ValidationError.Field] = []
        for (index, item) in plate.items.enumerated() {
            var item = item
            item.mealType = plate.mealType
            do {
                entries.append(try await draft.entry(from: item, id: uuid(), defaults: (plate.loggedAt, plate.mealType, plate.note),
                                                     prefix: "items[\(index)].", types: types))
            } catch let error as ValidationError { problems += error.fields }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        if let confirmed {
            var questions: [ValidationError.Field] = []
            for (index, entry) in entries.enumerated() {
                let food: Food?
                if case let .food(foodId, _, _) = entry.kind { food = try await diary.food(foodId) } else { food = nil }
                if let question = entry.largeAmountQuestion(food: food), !confirmed.contains(question) {
                    questions.append(.init(field: "items[\(index)]", message: question))
                }
            }
            if !questions.isEmpty { throw Refusal.largeAmounts(questions) }
        }
        try await diary.insert(entries, now: now)
        return entries
    }

    /// What a plate would log now, without logging it (the plate's running totals): the items that
    /// are already complete and valid; the others are left out.
    public func preview(_ plate: Plate) async throws -> [DiaryEntry] {
        let draft = draft
        let types = try await draft.types()
        var entries: [DiaryEntry] = []
        for item in plate.items.prefix(DiaryValidation.maximumPlateItems) {
            if let entry = try? await draft.entry(from: item, id: uuid(), defaults: (plate.loggedAt, plate.mealType, plate.note), types: types) {
                entries.append(entry)
            }
        }
        return entries
    }

    /// A planned meal (the API, Today and the planner alike): by default the person's own portions
    /// (``Assignment/portions(for:)``: one when nobody is named, or they are not among the eaters), at the time
    /// ``DiaryValidation/loggedAt(for:today:now:in:)`` gives for its day, into the meal type asked
    /// for, else its plan slot (a dinner logged after midnight is still dinner), else the one the
    /// time suggests. nil when the person has no such assignment.
    public func planned(_ assignmentID: UUID, loggedAt: Date? = nil, mealType: String? = nil, servings: Decimal? = nil) async throws -> DiaryEntry? {
        guard let assignment = try await diary.assignment(assignmentID) else { return nil }
        return try await single(EntryInput(loggedAt: loggedAt ?? draft.loggedAt(for: assignment.date),
                                                mealType: mealType?.trimmed.nilIfEmptyString ?? assignment.mealType,
                                                mealId: assignment.mealId, servings: servings ?? assignment.portions(for: diary.owner)))
    }

    /// What was eaten at one meal of one day (say yesterday's breakfast) eaten again on another day
    /// and meal type, as it was logged (same foods, amounts and values), in one write. Photos stay
    /// with the entries they show; the copies are the values eaten again.
    /// `only`: just these of that meal's entries (History's "Eat this again": one occasion).
    public func copied(from source: CalendarDate, mealType: String, to target: CalendarDate, as targetType: String,
                       only: Set<UUID>? = nil) async throws -> [DiaryEntry] {
        var problems: [ValidationError.Field] = []
        let draft = draft
        let types = try await draft.types()
        if let p = types.problem(mealType, field: "fromMealType") { problems.append(p) }
        if let p = types.problem(targetType) { problems.append(p) }
        if let p = target.problem(field: "to") { problems.append(p) }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let mealType = types.normalized(mealType)!, targetType = types.normalized(targetType)!
        let originals = try await diary.entries(on: source).filter { $0.mealType == mealType && $0.isCounted && only?.contains($0.id) ?? true }
        guard !originals.isEmpty else {
            throw ValidationError(field: "from", "Nothing was logged for \(types.name(of: mealType)) on \(source.iso).")
        }
        if let problem = DiaryValidation.plateProblem(itemCount: originals.count) { throw ValidationError([problem]) }
        let at = draft.loggedAt(for: target)
        let copies = originals.map { $0.copied(id: uuid(), loggedAt: at, date: target, mealType: targetType) }
        try await diary.insert(copies, now: now)
        return copies
    }

    /// A photo first, its food later (photo capture): the entry is checked first, then the photo
    /// and its entry are stored in one write, so a refused entry leaves no photo behind and a photo
    /// is never shown by two entries.
    public func photo(_ data: Data, thumbnail: Data?, capturedAt: Date?, date: CalendarDate, mealType: String?) async throws -> (DiaryEntry, Photo) {
        let photoID = uuid()
        let entry = try await draft.entry(from: EntryInput(date: date, mealType: mealType, photoId: photoID), id: uuid(), pendingPhoto: photoID)
        let photo = try await diary.insert(entry, showing: NewPhoto(id: photoID, data: data, thumbnail: thumbnail, capturedAt: capturedAt), now: now)
        return (entry, photo)
    }
}
