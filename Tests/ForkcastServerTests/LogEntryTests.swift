import ForkcastContract
import FluentKit
import ForkcastApp
@testable import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// The diary's use cases called as the front doors call them (LogEntry, EditEntry, DeleteEntry), on
/// the real database, and a check that no front door writes diary entries by itself.
@Suite("Logging, editing and deleting diary entries: one use case each")
struct LogEntryTests {
    /// The use cases as the signed-in person `email` gets them.
    private func context(_ app: Application, _ email: String, now: Date) async throws -> Use {
        let user = try #require(try await UserModel.query(on: app.db).filter(\.$email == email).first())
        let owner = try Owner(user: user, db: app.db, now: now, uuid: { UUID() }, application: app)
        return Use(log: owner.logEntry, edit: owner.editEntry, delete: owner.deleteEntry, diary: owner.diary)
    }

    private struct Use {
        let log: LogEntry, edit: EditEntry, delete: DeleteEntry
        let diary: any DiaryReads
    }

    private func entryCount(_ app: Application) async throws -> Int { try await DiaryEntryModel.query(on: app.db).count() }

    /// Ann, signed up with one food of hers (rolled oats), and her use cases.
    private func annWithOats(_ app: Application, now: Date) async throws -> (oats: UUID, use: Use) {
        let ann = try await app.signUp("ann@example.com")
        let oats = try #require(try await ann.createFood(FoodsAPITests.oats).json(TestFood.self).id)
        return (oats, try await context(app, "ann@example.com", now: now))
    }

    @Test func aSingleEntryCopiesItsFoodAndEntersTheChangeFeedButNeverFromAnotherAccountsFood() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let ann = try await app.signUp("ann@example.com")
            _ = try await app.signUp("bob@example.com")
            let annsOats = try #require(try await ann.createFood(FoodsAPITests.oats).json(TestFood.self).id)
            let bobs = try await context(app, "bob@example.com", now: clock.now)

            await #expect(throws: Refusal.self, "another account's food is no food of Bob's") {
                try await bobs.log.single(EntryInput(mealType: "breakfast", foodId: annsOats, quantity: 80, unit: "g"))
            }
            #expect(try await entryCount(app) == 0)

            let anns = try await context(app, "ann@example.com", now: clock.now)
            let entry = try await anns.log.single(EntryInput(mealType: "breakfast", foodId: annsOats, quantity: 80, unit: "g"))
            #expect(entry.kind == .food(foodId: annsOats, quantity: 80, unit: .gram) && entry.mealType == "breakfast" && entry.nutrients.energyKcal != nil)
            let feed = try await SyncLog.version(.diaryEntry, entry.id, owner: anns.diary.ownerID, on: app.db)
            #expect(feed?.op == .upsert, "the entry and its change-feed row are written together")
            #expect(try await entryCount(app) == 1)
        }
    }

    @Test func aPlateIsAllOrNothingNamingEveryBadAmountAndItsFirstMissingReference() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let (oats, anns) = try await annWithOats(app, now: clock.now)
            let badAmounts = LogEntry.Plate(mealType: "lunch", items: [
                EntryInput(foodId: oats, quantity: 50, unit: "g"),
                EntryInput(foodId: oats, quantity: -5, unit: "g"),
                EntryInput(mealId: UUID(), servings: -1),
            ])
            let error = await #expect(throws: ValidationError.self) { try await anns.log.plate(badAmounts) }
            #expect(error?.fields.map(\.field) == ["items[1].quantity", "items[2].servings"], "\(error?.fields ?? [])")

            // A reference to nothing of the person's stops the plate at that item.
            let missingMeal = LogEntry.Plate(mealType: "lunch", items: [
                EntryInput(foodId: oats, quantity: 50, unit: "g"), EntryInput(mealId: UUID(), servings: 1),
            ])
            let missing = await #expect(throws: Refusal.self) { try await anns.log.plate(missingMeal) }
            guard case .missingReference(let field, _)? = missing else { Issue.record("\(String(describing: missing))"); return }
            #expect(field == "items[1].mealId")
            #expect(try await entryCount(app) == 0, "nothing of a refused plate is written")

            let logged = try await anns.log.plate(LogEntry.Plate(mealType: "lunch", items: [
                EntryInput(foodId: oats, quantity: 50, unit: "g"), EntryInput(quickAdd: .init(energyKcal: 120), name: "Apple"),
            ]))
            #expect(logged.map(\.mealType) == ["lunch", "lunch"])
            #expect(try await entryCount(app) == 2)
        }
    }

    @Test func aPlannedMealIsLoggedToItsPlanSlotUnlessAnotherIsAsked() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let ann = try await app.signUp("ann@example.com")
            let meal = try await ann.createMeal("Lentil soup")
            let planned = try await ann.send(.POST, "/api/v1/plan/assignments",
                                             json: ["mealId": meal.id.uuidString, "date": "2026-11-21", "mealType": "dinner"])
            let assignment = try planned.json(TestAssignment.self)
            // Logged in the morning, a planned dinner is still dinner.
            clock.set(ISO8601DateFormatter().date(from: "2026-11-21T08:00:00Z")!)
            let anns = try await context(app, "ann@example.com", now: clock.now)
            let dinner = try #require(try await anns.log.planned(assignment.id))
            #expect(dinner.mealType == "dinner" && dinner.kind == .meal(mealId: meal.id, servings: 1) && dinner.date.iso == "2026-11-21")
            let lunch = try #require(try await anns.log.planned(assignment.id, mealType: "lunch", servings: 2))
            #expect(lunch.mealType == "lunch")
            #expect(try await anns.log.planned(UUID()) == nil, "no such assignment")
        }
    }

    @Test func aCopiedMealIsEatenAgainAsLoggedAndAnEmptyOneIsRefused() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            let (oats, anns) = try await annWithOats(app, now: clock.now)
            let yesterday = try #require(CalendarDate(iso: "2026-11-20")), today = try #require(CalendarDate(iso: "2026-11-21"))
            let eaten = try await anns.log.single(EntryInput(date: yesterday, mealType: "breakfast", foodId: oats, quantity: 80, unit: "g"))
            let copies = try await anns.log.copied(from: yesterday, mealType: "breakfast", to: today, as: "lunch")
            #expect(copies.count == 1 && copies[0].id != eaten.id)
            let stored = try #require(try await anns.diary.entries.find(eaten.id))
            #expect(copies[0].mealType == "lunch" && copies[0].date == today)
            #expect(copies[0].nutrients == stored.nutrients && copies[0].kind == stored.kind && copies[0].name == stored.name)
            await #expect(throws: ValidationError.self, "nothing was logged for dinner yesterday") {
                try await anns.log.copied(from: yesterday, mealType: "dinner", to: today, as: "dinner")
            }
            #expect(try await entryCount(app) == 2)
        }
    }

    @Test func aRefusedPhotoCaptureLeavesNoPhotoBehind() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            _ = try await app.signUp("ann@example.com")
            let anns = try await context(app, "ann@example.com", now: clock.now)
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/photos/photo.jpg"))
            let today = try #require(CalendarDate(iso: "2026-11-21"))
            await #expect(throws: ValidationError.self) {
                try await anns.log.photo(jpeg, thumbnail: nil, capturedAt: nil, date: today, mealType: "elevenses")
            }
            #expect(try await PhotoModel.query(on: app.db).count() == 0)
            #expect(try await entryCount(app) == 0)
            let (entry, photo) = try await anns.log.photo(jpeg, thumbnail: nil, capturedAt: nil, date: today, mealType: "snack")
            #expect(entry.photoId == photo.id && entry.kind == .photo)
            // Deleting the entry deletes the photo it shows, in the same write.
            #expect(try await anns.delete(entry.id)?.id == entry.id)
            #expect(try await PhotoModel.query(on: app.db).count() == 0)
            #expect(try await entryCount(app) == 0)
            #expect(try await anns.delete(entry.id) == nil)
        }
    }

    @Test func anEditThatMovesTheEntryToAnotherDayNeedsConfirmation() async throws {
        let clock = TestClock()
        try await withForkcast(allowSignup: true, clock: clock) { app in
            _ = try await app.signUp("ann@example.com")
            let anns = try await context(app, "ann@example.com", now: clock.now)
            let entry = try await anns.log.single(EntryInput(mealType: "snack", quickAdd: .init(energyKcal: 90), name: "Pear"))
            let earlier = clock.now.addingTimeInterval(-2 * 24 * 3600)
            let refused = await #expect(throws: Refusal.self) { try await anns.edit(entry.id, with: EntryInput(loggedAt: earlier)) }
            guard case .occasionChange(let from, let to)? = refused else { Issue.record("\(String(describing: refused))"); return }
            #expect(from.date.iso == "2026-11-21" && to.date.iso == "2026-11-19" && from.name.hasPrefix("Snack on "))
            let moved = try #require(try await anns.edit(entry.id, with: EntryInput(loggedAt: earlier), confirmMove: true))
            #expect(moved.date.iso == "2026-11-19" && moved.name == "Pear")
            #expect(try await anns.edit(UUID(), with: EntryInput(note: "x")) == nil)
        }
    }

    /// The front doors (API, web, sync, CLI) reach the diary's writes only through these use cases:
    /// no file outside the use cases and the repository creates, updates or deletes entries itself.
    @Test func noFrontDoorWritesDiaryEntriesItself() throws {
        let found = try FrontDoorScan.find(["DiaryRepository(", "DiaryEntryModel(", ".entries.create(", ".entries.update(", ".entries.delete(",
                                            ".diary.create(", ".diary.update(", ".diary.delete(", "FluentDiary(", "DiaryEntryModel.query(on: tx)"])
        #expect(found.isEmpty, "diary entries written outside their use cases: \(found)")
    }
}
