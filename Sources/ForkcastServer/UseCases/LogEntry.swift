import Fluent
import ForkcastCore
import Foundation

/// Logging to the diary: where an entry is logged, whichever front door it comes through (the API,
/// the web pages, a synced device's push, the offline queue).
///
/// Every way of logging drafts its entries with ``DiaryContext`` (ForkcastCore's rules, the person's
/// own foods, meals, meal types and photos), then writes them with their change-feed rows in one
/// transaction (``DiaryRepository/create(_:now:)``): all of a plate or none of it.
struct LogEntry {
    let diary: DiaryContext
    /// Where a captured photo is stored, with the person's quota.
    let photos: PhotoRepository
    let uuid: @Sendable () -> UUID

    /// One food amount, servings of a meal, a quick add or a photo entry. `id`: the entry's id when
    /// a device chose it (sync); a new one otherwise. Throws ``ValidationError`` naming the field.
    @discardableResult
    func single(_ input: DiaryEntryInput, id: UUID? = nil) async throws -> DiaryEntry {
        let entry = try await diary.entry(from: input, id: id ?? uuid())
        try await diary.entries.create([entry], now: diary.now)
        return entry
    }

    /// Several items at once to one meal type (a plate): all or nothing, at most
    /// ``DiaryValidation/maximumPlateItems`` items. Throws one ``ValidationError`` naming every bad item.
    func plate(_ plate: PlateInput) async throws -> [DiaryEntry] {
        if let problem = DiaryValidation.plateProblem(itemCount: plate.items.count) { throw ValidationError([problem]) }
        let types = try await diary.types()
        var entries: [DiaryEntry] = []
        var problems: [ValidationError.Field] = []
        for (index, item) in plate.items.enumerated() {
            var item = item
            item.mealType = plate.mealType
            do {
                entries.append(try await diary.entry(from: item, id: uuid(), defaults: (plate.loggedAt, plate.mealType, plate.note),
                                                     prefix: "items[\(index)].", types: types))
            } catch let error as ValidationError { problems += error.fields }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        try await diary.entries.create(entries, now: diary.now)
        return entries
    }

    /// A planned meal (the API, Today and the planner alike): by default one serving, at the time
    /// ``DiaryValidation/loggedAt(for:today:now:in:)`` gives for its day, into the meal type asked
    /// for, else its plan slot (a dinner logged after midnight is still dinner), else the one the
    /// time suggests. nil when the person has no such assignment.
    func planned(_ assignmentID: UUID, loggedAt: Date? = nil, mealType: String? = nil, servings: Decimal? = nil) async throws -> DiaryEntry? {
        guard let assignment = try await PlanRepository(db: diary.db, ownerID: diary.ownerID).find(assignmentID) else { return nil }
        let user = diary.user, now = diary.now
        let at = loggedAt ?? DiaryValidation.loggedAt(for: assignment.date, today: user.today(now: now), now: now, in: user.zone)
        return try await single(DiaryEntryInput(loggedAt: at, mealType: mealType?.trimmed.nilIfEmptyString ?? assignment.mealType,
                                                mealId: assignment.mealId, servings: servings ?? 1))
    }

    /// What was eaten at one meal of one day (say yesterday's breakfast) eaten again on another day
    /// and meal type, as it was logged (same foods, amounts and values), in one write. Photos stay
    /// with the entries they show; the copies are the values eaten again.
    func copied(from source: CalendarDate, mealType: String, to target: CalendarDate, as targetType: String) async throws -> [DiaryEntry] {
        var problems: [ValidationError.Field] = []
        let types = try await diary.types()
        if let p = types.problem(mealType, field: "fromMealType") { problems.append(p) }
        if let p = types.problem(targetType) { problems.append(p) }
        guard problems.isEmpty else { throw AppError.validation(ValidationError(problems)) }
        let mealType = types.normalized(mealType)!, targetType = types.normalized(targetType)!
        let originals = try await diary.entries.entries(on: source).filter { $0.mealType == mealType && $0.isCounted }
        guard !originals.isEmpty else {
            throw AppError.validation(ValidationError(field: "from", "Nothing was logged for \(types.name(of: mealType)) on \(source.iso)."))
        }
        if let problem = DiaryValidation.plateProblem(itemCount: originals.count) { throw AppError.validation(ValidationError([problem])) }
        let user = diary.user, now = diary.now
        let at = DiaryValidation.loggedAt(for: target, today: user.today(now: now), now: now, in: user.zone)
        let copies = originals.map { $0.copied(id: uuid(), loggedAt: at, date: target, mealType: targetType) }
        try await diary.entries.create(copies, now: now)
        return copies
    }

    typealias Upload = (photo: Data, thumbnail: Data?, capturedAt: Date?, fields: [String: String])

    /// A photo first, its food later (photo capture): the entry is checked first, then the photo
    /// and its entry are stored in one write, so a refused entry leaves no photo behind and a photo
    /// is never shown by two entries.
    func photo(_ upload: Upload, date: CalendarDate, mealType: String?) async throws -> (DiaryEntry, Photo) {
        let photoID = uuid()
        let entry: DiaryEntry
        do {
            entry = try await diary.entry(from: DiaryEntryInput(date: date, mealType: mealType, photoId: photoID), id: uuid(), pendingPhoto: photoID)
        } catch let error as ValidationError { throw AppError.validation(error) }
        let diary = diary, photos = photos
        return try await diary.db.write { tx in
            let photo = try await PhotoRepository(db: tx, ownerID: photos.ownerID, store: photos.store, quotaBytes: photos.quotaBytes)
                .create(upload.photo, thumbnail: upload.thumbnail, capturedAt: upload.capturedAt, id: photoID, now: diary.now)
            try await DiaryRepository(db: tx, ownerID: diary.ownerID, photoStore: diary.photoStore).create([entry], now: diary.now)
            return (entry, photo)
        }
    }
}
