import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// What stays one person's inside a household: a member reaches none of another member's diary,
/// photos, occasions, weights, goals or body profile through the API's reads and writes, the sync
/// feed, the diary's CSV or the account export; the export carries the household's library.
@Suite("Households: what stays personal")
struct HouseholdPrivacyTests {
    @Test func aMemberReachesNothingPersonalOfAnother() async throws {
        try await withServer(allowSignup: true) { _, url in
            let ana = try await HouseholdSharingTests.person(url, "Ana"), ben = try await HouseholdSharingTests.person(url, "Ben")
            _ = try await ben.api.joinHousehold(token: try await ana.api.inviteToHousehold().token!)
            let cursor = try await ana.api.changes(since: nil).cursor
            let shared = try await ana.api.createMeal(MealInput(description: "Shared soup"))

            // Ben's own: an entry with a photo, a weight, goals.
            let photo = try await ben.api.uploadPhoto(try fixturePhoto("photo.jpg"))
            let entry = try await ben.api.logPhoto(photo.id, mealType: "lunch")
            let note = try await ben.api.log(DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 777), name: "Ben's private note"))
            let weight = try await ben.api.recordWeight(WeightInput(weightKg: 81.5))
            _ = try await ben.api.send(DailyGoals.Set.self, body: GoalsInput(source: "manual", energyKcal: 2345, protein: 100, carbohydrates: 200, fat: 70))
            let occasion = try #require(try await ben.api.occasions().first)

            func refused(_ call: () async throws -> Void) async -> Int? { await problemStatus(call) }
            #expect(await refused { _ = try await ana.api.send(Diary.Get.self, IDParameter(note.id)) } == 404)
            #expect(await refused { _ = try await ana.api.editEntry(note.id, DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 1), name: "x")) } == 404)
            #expect(await refused { try await ana.api.deleteEntry(entry.id) } == 404)
            #expect(await refused { _ = try await ana.api.photoImage(photo.id) } == 404)
            #expect(await refused { _ = try await ana.api.photoImage(photo.id, thumbnail: true) } == 404)
            #expect(await refused { _ = try await ana.api.occasion(occasion.id) } == 404)
            #expect(await refused { try await ana.api.deleteWeight(weight.id) } == 404)
            #expect(try await ana.api.weights().items.isEmpty)
            #expect(try await ana.api.occasions().isEmpty)
            #expect(try await ana.api.diaryDay().entries.flatMap(\.entries).isEmpty)
            #expect(try await ana.api.send(DailyGoals.Get.self, Nothing()).energyKcal != 2345)
            let csv = String(decoding: try await ana.api.download(Diary.Export.self, ExportQuery(format: .csv)), as: UTF8.self)
            #expect(!csv.contains("Ben's private note"))
            // The feed: the household's meal, nothing of Ben's own.
            let feed = try await ana.api.changes(since: cursor).changes.map(\.id)
            #expect(feed.contains(shared.id))
            #expect(Set(feed).isDisjoint(with: [note.id, entry.id, photo.id, weight.id, ben.id]))
            // Exports: each their own diary and the household's library.
            let anas = try unzip(try await ana.api.exportAccount())
            let anasJSON = String(decoding: try #require(anas["forkcast.json"]), as: UTF8.self)
            #expect(!anasJSON.contains("Ben's private note") && !anasJSON.contains("81.5") && anas.keys.allSatisfy { !$0.contains(photo.id.uuidString.lowercased()) })
            #expect(!String(decoding: try #require(anas["diary.csv"]), as: UTF8.self).contains("Ben's private note"))
            let bens = try unzip(try await ben.api.exportAccount())
            #expect(String(decoding: try #require(bens["forkcast.json"]), as: UTF8.self).contains("Shared soup"), "moving servers keeps the recipes")
            // Ben's own still there for him.
            #expect(try await ben.api.diaryDay().entries.flatMap(\.entries).count == 2)
        }
    }
}
