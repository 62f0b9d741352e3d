import ForkcastCore
import Foundation

/// One person's diary in memory (see ``InMemoryLibraries``): it reads the foods, meals, plan and meal
/// types of the same person's ``InMemoryLibrary``, so a test saves a food with ``SaveFood`` and logs
/// it with ``LogEntry``. Each write is one transaction; like the database it refuses an id stored
/// twice and a photo shown by two entries, and deletes the photo an entry shows with the entry.
public struct InMemoryDiary: Diary {
    let libraries: InMemoryLibraries
    public let owner: UUID
    public let zone: TimeZone

    private var records: InMemoryLibraries.Records { libraries.contents }

    private func mine<Value>(_ table: [UUID: InMemoryLibraries.Owned<Value>], _ id: UUID) -> Value? {
        table[id].flatMap { $0.owner == owner ? $0.value : nil }
    }

    /// A record of the person's kitchen: theirs or their household's.
    private func shared<Value>(_ table: [UUID: InMemoryLibraries.Owned<Value>], _ id: UUID, in records: InMemoryLibraries.Records) -> Value? {
        table[id].flatMap { records.shares($0.owner, with: owner) ? $0.value : nil }
    }

    public func food(_ id: UUID) async throws -> Food? { let records = records; return shared(records.foods, id, in: records) }

    public func foods(ids: [UUID]) async throws -> [UUID: Food] {
        let records = records
        return Dictionary(ids.compactMap { id in shared(records.foods, id, in: records).map { (id, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    public func meal(_ id: UUID) async throws -> Meal? { let records = records; return shared(records.meals, id, in: records) }

    public func mealTypes(now: Date) async throws -> MealTypeCatalog {
        let records = records
        let types = records.mealTypes.values.filter { records.shares($0.owner, with: owner) }.map(\.value)
        return types.isEmpty ? .defaults(owner: owner, now: now) : MealTypeCatalog(types)
    }

    public func assignment(_ id: UUID) async throws -> Assignment? { let records = records; return shared(records.assignments, id, in: records) }
    public func entry(_ id: UUID) async throws -> DiaryEntry? { mine(records.entries, id) }

    public func entries(on date: CalendarDate) async throws -> [DiaryEntry] {
        records.entries.values.filter { $0.owner == owner && $0.value.date == date }.map(\.value).sorted { $0.loggedAt < $1.loggedAt }
    }

    public func hasPhoto(_ id: UUID) async throws -> Bool { mine(records.photos, id) != nil }

    public func entry(showingPhoto id: UUID) async throws -> UUID? {
        records.entries.values.first { $0.owner == owner && $0.value.photoId == id }?.value.id
    }

    public func insert(_ new: [DiaryEntry], now: Date) async throws {
        try await libraries.transaction(owner: owner) { tx in
            try tx.update { records in
                for entry in new { try store(entry, in: &records) }
                tx.log(.diaryEntry, new.map(\.id), deleted: false, at: now, in: &records)
            }
        }
    }

    public func insert(_ entry: DiaryEntry, showing photo: NewPhoto, now: Date) async throws -> Photo {
        try await store(photo, with: entry, now: now)
    }

    public func store(_ photo: NewPhoto, now: Date) async throws -> Photo { try await store(photo, with: nil, now: now) }

    private func store(_ photo: NewPhoto, with entry: DiaryEntry?, now: Date) async throws -> Photo {
        let image = try ImageFile.inspect(photo.data)
        let stored = Photo(id: photo.id, format: image.format, width: image.width, height: image.height, byteSize: photo.data.count,
                           capturedAt: photo.capturedAt ?? now, createdAt: now, updatedAt: now)
        try await libraries.transaction(owner: owner) { tx in
            try tx.update { records in
                guard records.photos[photo.id] == nil else { throw InMemoryLibraries.DuplicateID(id: photo.id) }
                records.photos[photo.id] = .init(owner: owner, value: stored)
                tx.log(.photo, [photo.id], deleted: false, at: now, in: &records)
                guard let entry else { return }
                try store(entry, in: &records)
                tx.log(.diaryEntry, [entry.id], deleted: false, at: now, in: &records)
            }
        }
        return stored
    }

    public func replace(_ entry: DiaryEntry, deletingPhoto: UUID?, now: Date) async throws -> Bool {
        try await libraries.transaction(owner: owner) { tx in
            try tx.update { records in
                guard records.entries[entry.id]?.owner == owner else { return false }
                try checkPhoto(of: entry, in: records)
                records.entries[entry.id]?.value = entry
                tx.log(.diaryEntry, [entry.id], deleted: false, at: now, in: &records)
                if let deletingPhoto { deletePhoto(deletingPhoto, tx: tx, now: now, in: &records) }
                return true
            }
        }
    }

    public func delete(_ id: UUID, now: Date) async throws -> DiaryEntry? {
        await libraries.transaction(owner: owner) { tx in
            tx.update { records in
                guard let stored = records.entries[id], stored.owner == owner else { return nil }
                records.entries[id] = nil
                tx.log(.diaryEntry, [id], deleted: true, at: now, in: &records)
                if let photo = stored.value.photoId { deletePhoto(photo, tx: tx, now: now, in: &records) }
                return stored.value
            }
        }
    }

    private func store(_ entry: DiaryEntry, in records: inout InMemoryLibraries.Records) throws {
        guard records.entries[entry.id] == nil else { throw InMemoryLibraries.DuplicateID(id: entry.id) }
        try checkPhoto(of: entry, in: records)
        records.entries[entry.id] = .init(owner: owner, value: entry)
    }

    /// One entry per photo, like the database's unique index.
    private func checkPhoto(of entry: DiaryEntry, in records: InMemoryLibraries.Records) throws {
        guard let photo = entry.photoId else { return }
        if records.entries.values.contains(where: { $0.value.photoId == photo && $0.value.id != entry.id }) {
            throw InMemoryLibraries.PhotoShownTwice(photo: photo)
        }
    }

    private func deletePhoto(_ id: UUID, tx: InMemoryLibrary.Transaction, now: Date, in records: inout InMemoryLibraries.Records) {
        guard records.photos[id]?.owner == owner else { return }
        records.photos[id] = nil
        tx.log(.photo, [id], deleted: true, at: now, in: &records)
    }
}
