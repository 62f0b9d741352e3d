import ForkcastCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Logging, the diary, photos, occasions and sync.
extension ForkcastAPI {
    /// Logs what was eaten: a food amount, servings of a meal, a quick add, or a photo to count later.
    public func log(_ input: DiaryEntryInput) async throws -> DiaryEntry { try await send(Diary.Log.self, body: input) }

    /// Logs several items at once to one meal type (all or nothing).
    public func logPlate(_ input: PlateInput) async throws -> [DiaryEntry] { try await send(Diary.Plate.self, body: input) }

    /// A day of the diary (default today): entries by meal type, totals, goals and what remains.
    public func diaryDay(_ date: CalendarDate? = nil) async throws -> DiaryDayAnswer { try await send(Diary.Day.self, DayQuery(date: date)) }

    public func deleteEntry(_ id: UUID) async throws { _ = try await send(Diary.Delete.self, IDParameter(id)) }

    /// Logs one serving of a planned meal: into `mealType`, else its plan slot.
    public func logPlanned(_ assignmentId: UUID, mealType: String? = nil) async throws -> DiaryEntry {
        try await send(Diary.LogPlanned.self, body: LogPlannedInput(assignmentId: assignmentId, mealType: mealType))
    }

    /// Eats a meal of another day again (say yesterday's breakfast), as it was logged.
    public func copyMeal(from: CalendarDate, fromMealType: String, to: CalendarDate? = nil, mealType: String? = nil) async throws -> [DiaryEntry] {
        try await send(Diary.Copy.self, body: CopyMealInput(from: from, fromMealType: fromMealType, to: to, mealType: mealType))
    }

    // Seed 004: meal types, photos, occasions, time edits.

    public func mealTypes() async throws -> [MealType] { try await send(MealTypes.List.self, Nothing()) }

    public func createMealType(_ name: String, window: MealTypeWindow? = nil) async throws -> MealType {
        try await send(MealTypes.Create.self, body: MealTypeInput(displayName: name, window: window.map { .some($0) }))
    }

    /// Renames a type, or hides it, or moves it (`position`, 0 = first); nil fields stay.
    public func updateMealType(_ id: UUID, name: String? = nil, hidden: Bool? = nil, position: Int? = nil) async throws -> MealType {
        try await send(MealTypes.Update.self, IDParameter(id), body: MealTypeInput(displayName: name, position: position, hidden: hidden))
    }

    /// The type the person's windows suggest at an instant (in their time zone).
    public func suggestedMealType(at instant: Date) async throws -> MealType {
        try await send(MealTypes.Suggestion.self, SuggestionQuery(at: instant))
    }

    /// Uploads a photo (JPEG, PNG, WebP or HEIC bytes); the server strips its metadata.
    public func uploadPhoto(_ data: Data, capturedAt: Date? = nil) async throws -> Photo {
        try await upload(Photos.Upload.self, PhotoUploadQuery(capturedAt: capturedAt), data, contentType: "application/octet-stream")
    }

    /// A photo's image (or its thumbnail) as stored, without its metadata.
    public func photoImage(_ id: UUID, thumbnail: Bool = false) async throws -> Data {
        thumbnail ? try await download(Photos.Thumbnail.self, IDParameter(id)) : try await download(Photos.Image.self, IDParameter(id))
    }

    /// A photo entry, not counted yet, in `mealType` (default: the suggested one) on `date` (default today).
    public func logPhoto(_ photoId: UUID, mealType: String? = nil, date: CalendarDate? = nil) async throws -> DiaryEntry {
        try await log(DiaryEntryInput(date: date, mealType: mealType, photoId: photoId))
    }

    /// Changes an entry: a new amount, or only its meal type, time, note, name or photo.
    public func editEntry(_ id: UUID, _ change: DiaryEntryInput) async throws -> DiaryEntry {
        try await send(Diary.Edit.self, IDParameter(id), body: DiaryEntryUpdate(change))
    }

    /// Counts a photo entry (or corrects a quick add) with calories.
    public func countEntry(_ id: UUID, energyKcal: Decimal, name: String? = nil) async throws -> DiaryEntry {
        try await editEntry(id, DiaryEntryInput(quickAdd: .init(energyKcal: energyKcal), name: name))
    }

    /// Changes when an entry was eaten. When that moves it to another occasion the server answers
    /// 409 (`occasion-change`) unless `confirmMove` is true.
    public func editTime(_ id: UUID, loggedAt: Date, confirmMove: Bool = false) async throws -> DiaryEntry {
        try await editEntry(id, DiaryEntryInput(loggedAt: loggedAt, confirmMove: confirmMove))
    }

    /// History, newest first: occasions on days before `before` (or up to `date`).
    public func occasions(before: CalendarDate? = nil, date: CalendarDate? = nil, limit: Int = 20) async throws -> [Occasion] {
        try await send(Occasions.List.self, OccasionQuery(before: before, date: date, limit: limit))
    }

    public func occasion(_ id: UUID) async throws -> Occasion { try await send(Occasions.Get.self, IDParameter(id)) }

    public func changes(since cursor: String?, limit: Int = 500) async throws -> Changes {
        try await send(Sync.Changes.self, SyncChangesQuery(since: cursor, limit: limit))
    }

    /// Sends a device's changes. `sentAt` is the device's clock now: the server takes off every
    /// `updatedAt` whatever it runs ahead of the server's, so a fast clock cannot win over edits
    /// made after its own.
    public func push(deviceId: String, mutations: [Mutation], sentAt: Date = Date()) async throws -> PushResult {
        try await send(Sync.Push.self, body: SyncPushInput(deviceId: deviceId, sentAt: sentAt, mutations: mutations))
    }
}
