import ForkcastClient
import ForkcastCore
@testable import ForkcastServer
import Foundation
import FoundationNetworking
import Testing
import VaporTesting

extension SyncClientTests {
    @Test func twoDevicesEditOfflineAndConverge() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let phoneLine = FlakyTransport(), tabletLine = FlakyTransport()
            let phone = try await SyncEngine(api: ForkcastAPI(baseURL: url, token: session.token, transport: phoneLine),
                                             store: InMemorySyncStore(), deviceId: "phone")
            let tablet = try await SyncEngine(api: ForkcastAPI(baseURL: url, token: session.token, transport: tabletLine),
                                              store: InMemorySyncStore(), deviceId: "tablet")
            // A meal both know about.
            let shared = try await phone.upsert(.meal, record: meal("Curry"))
            try await phone.sync()
            try await tablet.sync()
            #expect(await tablet.records(.meal)[shared]?["description"]?.string == "Curry")

            // Both go offline and edit: the phone renames the curry and adds soup; the tablet,
            // later, renames the curry too and deletes nothing.
            phoneLine.down = true
            tabletLine.down = true
            _ = try await phone.upsert(.meal, id: shared, record: meal("Phone curry"))
            let soup = try await phone.upsert(.meal, record: meal("Soup"))
            try await Task.sleep(for: .milliseconds(20))
            _ = try await tablet.upsert(.meal, id: shared, record: meal("Tablet curry"))
            await #expect(throws: ForkcastError.self) { try await phone.sync() }
            #expect(await phone.status.pendingChanges == 2)
            #expect(await phone.status.lastError != nil)

            // They reconnect in the "wrong" order: the later edit (tablet) arrives first.
            tabletLine.down = false
            phoneLine.down = false
            try await tablet.sync()
            try await phone.sync()
            try await tablet.sync()
            let onPhone = await phone.records(.meal), onTablet = await tablet.records(.meal)
            #expect(onPhone[shared]?["description"]?.string == "Tablet curry", "the last write wins")
            #expect(onPhone[soup]?["description"]?.string == "Soup")
            #expect(onPhone == onTablet, "both devices hold the same records")
            let phoneWaiting = await phone.status.pendingChanges, tabletWaiting = await tablet.status.pendingChanges
            #expect(phoneWaiting == 0 && tabletWaiting == 0)
            // And so does the server.
            let server = try await ForkcastAPI(baseURL: url, token: session.token, transport: .patient).meals()
            #expect(Set(server.items.map(\.description)) == ["Tablet curry", "Soup"])
        }
    }

    @Test func theClientPlansInSlotsLogsPlannedMealsAndCopiesAMeal() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let soup = try await api.createMeal(MealInput(description: "Soup"))
            let today = CalendarDate(Date(), in: .gmt)
            let planned = try await api.assign(mealId: soup.id, date: today, mealType: "dinner")
            #expect(planned.mealType == "dinner")
            let entry = try await api.logPlanned(planned.id)
            #expect(entry.mealType == "dinner" && entry.name == "Soup")
            let again = try await api.copyMeal(from: today, fromMealType: "dinner", to: today, mealType: "lunch")
            #expect(again.map(\.name) == ["Soup"] && again.first?.mealType == "lunch")
            await #expect(throws: ForkcastError.self) { _ = try await api.assign(mealId: soup.id, date: today, mealType: "brunch") }
        }
    }

    @Test func theClientManagesMealTypesSnapsPhotosBrowsesHistoryAndMovesEntriesWhenAsked() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let types = try await api.mealTypes()
            #expect(types.count == 7 && types[1].key == "lunch")
            let renamed = try await api.updateMealType(types[1].id, name: "Midday")
            #expect(renamed.id == types[1].id && renamed.displayName == "Midday")
            let brunch = try await api.createMealType("Brunch", window: .init(start: "10:00", end: "11:30"))
            #expect(!brunch.isSystem && brunch.key == nil)
            let suggested = try await api.suggestedMealType(at: ISO8601DateFormatter().date(from: "2026-11-22T12:30:00Z")!)
            #expect(suggested.displayName == "Midday")

            let jpeg = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/photos/photo.jpg"))
            let photo = try await api.uploadPhoto(jpeg)
            #expect(photo.width == 64 && photo.format == .jpeg)
            let entry = try await api.logPhoto(photo.id, mealType: brunch.id.uuidString, date: CalendarDate(iso: "2026-11-20"))
            #expect(!entry.counted && entry.photo?.id == photo.id && entry.mealType == brunch.id.uuidString.lowercased())
            let history = try await api.occasions(date: CalendarDate(iso: "2026-11-20"))
            #expect(history.first?.mealTypeName == "Brunch" && history.first?.photos.first?.id == photo.id && history.first?.uncountedEntries == 1)
            let counted = try await api.countEntry(entry.id, energyKcal: 520, name: "Eggs Benedict")
            #expect(counted.counted && counted.photo?.id == photo.id)

            // Moving it to another day is a question first.
            let nextDay = ISO8601DateFormatter().date(from: "2026-11-21T10:30:00Z")!
            await #expect(throws: ForkcastError.self) { _ = try await api.editTime(entry.id, loggedAt: nextDay) }
            let moved = try await api.editTime(entry.id, loggedAt: nextDay, confirmMove: true)
            #expect(moved.date.iso == "2026-11-21" && moved.occasionId != entry.occasionId)
            #expect(try await api.occasion(moved.occasionId).entries?.map(\.id) == [entry.id])
        }
    }

    @Test func aLostAnswerMidPushLosesNothingAndDuplicatesNothing() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let line = FlakyTransport()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forkcast-client-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = FileSyncStore(url: directory.appendingPathComponent("state.json"))
            var phone = try await SyncEngine(api: ForkcastAPI(baseURL: url, token: session.token, transport: line), store: store, deviceId: "phone")
            for name in ["Oats", "Toast", "Eggs"] { _ = try await phone.upsert(.meal, record: meal(name)) }
            line.dropNextAnswer = true  // the server applies the push, the phone never hears back
            await #expect(throws: ForkcastError.self) { try await phone.sync() }
            #expect(await phone.status.pendingChanges == 3)
            // The app is killed and started again from its file; then the line is back.
            phone = try await SyncEngine(api: ForkcastAPI(baseURL: url, token: session.token, transport: line), store: store, deviceId: "phone")
            #expect(await phone.status.pendingChanges == 3)
            try await phone.sync()
            #expect(await phone.status.pendingChanges == 0)
            let server = try await ForkcastAPI(baseURL: url, token: session.token, transport: .patient).meals()
            #expect(server.items.map(\.description).sorted() == ["Eggs", "Oats", "Toast"], "each meal once")
        }
    }

    @Test func aRefusedChangeIsReportedAndTheServerVersionComesBack() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let phone = try await SyncEngine(api: api, store: InMemorySyncStore(), deviceId: "phone")
            let id = try await phone.upsert(.meal, record: meal("Salad"))
            try await phone.sync()
            _ = try await phone.upsert(.meal, id: id, record: meal("   "))  // invalid: a blank description
            let status = try await phone.sync()
            #expect(status.rejected.count == 1)
            #expect(await phone.records(.meal)[id]?["description"]?.string == "Salad")
            #expect(try await api.meal(id).description == "Salad")
        }
    }

    @Test func changesThroughTheWebAndAPIReachDevices() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            let phone = try await SyncEngine(api: api, store: InMemorySyncStore(), deviceId: "phone")
            let created = try await api.createMeal(.init(description: "Made in a script"))
            try await phone.sync()
            #expect(await phone.records(.meal)[created.id]?["description"]?.string == "Made in a script")
            try await api.deleteMeal(created.id)
            try await phone.sync()
            #expect(await phone.records(.meal)[created.id] == nil)
            #expect(await phone.records(.settings)[session.user.id] != nil, "settings sync too")
        }
    }
}
