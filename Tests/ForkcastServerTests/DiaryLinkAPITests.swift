import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VaporTesting

/// `/api/v1/diary-links` and what a link opens, through the Swift client against a running server
/// and a real database: a coach sees the days and parts the link shows and nothing else, the
/// CSV has a row a day, and a revoked or expired link is a 404.
@Suite("Diary links for a coach over the API")
struct DiaryLinkAPITests {
    let today = CalendarDate(iso: "2026-11-21")!

    @Test func aCoachReadsWhatTheLinkShowsAndNothingElse() async throws {
        let clock = TestClock()
        try await withServer(allowSignup: true, clock: clock) { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "ana@example.com", password: "correct horse", displayName: "Ana <b>")
            let ana = ForkcastAPI(baseURL: url, token: session.token, transport: .patient)
            var per100 = Nutrients(energyKcal: 164, protein: 8.9, carbohydrates: 27, fat: 2.6)
            per100[.iron] = 2.9
            let food = try await ana.createFood(FoodInput(name: "Chickpeas", per100: FoodInput.Per100(per100)))
            _ = try await ana.log(DiaryEntryInput(date: today, mealType: "lunch", note: "private note", foodId: food.id, quantity: 200, unit: "g"))
            _ = try await ana.log(DiaryEntryInput(date: today.adding(days: -10), mealType: "dinner", foodId: food.id, quantity: 100, unit: "g"))
            _ = try await ana.recordWeight(WeightInput(measuredAt: clock.now.addingTimeInterval(-3600), weightKg: 70.5))

            let made = try await ana.createDiaryLink(DiaryLinkInput(from: today.adding(days: -6), to: today, shows: ["diary"]))
            let token = try #require(made.token)
            #expect(made.link?.hasSuffix("/coach/\(token)") == true && made.shows == ["diary"])
            #expect(try await ana.diaryLinks().map(\.id) == [made.id])
            #expect(try await ana.diaryLinks().allSatisfy { $0.token == nil && $0.link == nil }, "the token is shown once")

            let coach = ForkcastAPI(baseURL: url, transport: .patient)
            let day = try await coach.sharedDiary(token: token)
            #expect(day.date == today && day.displayName == "Ana <b>")
            #expect(day.entries?.map(\.name) == ["Chickpeas"] && day.entries?.first?.quantity == 200)
            #expect(day.entries?.first?.nutrients.nutrients[.iron] == nil, "micronutrients only when the link shows nutrients")
            #expect(day.totals?.nutrients.energyKcal == 328 && day.goals != nil && day.weights == nil)
            // What the server sends, not what the client keeps of it: no email, note, id or body data.
            let (raw, _) = try await URLSessionTransport().send(URLRequest(url: url.appendingPathComponent("api/v1/shared/diary/\(token)")))
            let text = String(decoding: raw, as: UTF8.self)
            let foodID = try #require(food.id).uuidString
            for secret in ["ana@example.com", "private note", foodID, session.user.id.uuidString, "tdee", "bmr", "targets", "photo"] {
                #expect(!text.contains(secret), "the link's answer shows \(secret)")
            }
            #expect(text.contains("Chickpeas"), "the raw answer is the day")
            // Outside the range: not shared, so not found.
            #expect(await problemStatus { _ = try await coach.sharedDiary(token: token, date: today.adding(days: -10)) } == 404)
            #expect(try await coach.sharedDiary(token: token, date: today.adding(days: -1)).entries == [])

            // A CSV row a day of the range, with the day's energy.
            let csv = String(decoding: try await coach.sharedDiaryCSV(token: token), as: UTF8.self).split(separator: "\r\n")
            #expect(csv.first == "date,energyKcal,protein,carbohydrates,fat,goalEnergyKcal")
            #expect(csv.count == 8 && csv.last?.hasPrefix("\(today.iso),328,17.8,54,5.2,") == true)

            // Weights only: no entries, no totals.
            let weights = try await ana.createDiaryLink(DiaryLinkInput(from: today.adding(days: -6), to: today, shows: ["weights"]))
            let onlyWeights = try await coach.sharedDiary(token: try #require(weights.token))
            #expect(onlyWeights.entries == nil && onlyWeights.totals == nil && onlyWeights.weights?.map(\.weightKg) == [70.5])

            // Bad links change nothing; another account cannot revoke Ana's.
            #expect(await problemStatus { _ = try await ana.createDiaryLink(DiaryLinkInput(from: today, to: today.adding(days: -1))) } == 422)
            #expect(await problemStatus { _ = try await ana.createDiaryLink(DiaryLinkInput(from: today, to: today, shows: ["email"])) } == 422)
            let ben = ForkcastAPI(baseURL: url, token: try await ForkcastAPI(baseURL: url).register(email: "ben@example.com", password: "correct horse").token, transport: .patient)
            #expect(await problemStatus { try await ben.revokeDiaryLink(made.id) } == 404)
            #expect(try await ben.diaryLinks().isEmpty)

            // Revoked: a 404 at once; the other link still works until it expires (30 days).
            try await ana.revokeDiaryLink(made.id)
            #expect(await problemStatus { _ = try await coach.sharedDiary(token: token) } == 404)
            #expect(await problemStatus { _ = try await coach.sharedDiaryCSV(token: token) } == 404)
            #expect(await problemStatus { _ = try await coach.sharedDiary(token: "no-such-token") } == 404)
            clock.advance(by: 31 * 86_400)
            #expect(await problemStatus { _ = try await coach.sharedDiary(token: try #require(weights.token)) } == 404)
            let again = ForkcastAPI(baseURL: url, token: try await ForkcastAPI(baseURL: url).login(email: "ana@example.com", password: "correct horse").token, transport: .patient)
            #expect(try await again.diaryLinks().isEmpty, "an expired link is no longer listed")
        }
    }

    @Test func readsThroughLinksAreLimitedPerAddress() async throws {
        // The clock stands still, so nothing refills while the requests go (a busy machine took 14 s).
        try await withServer(allowSignup: true, clock: TestClock()) { _, url in
            let ana = ForkcastAPI(baseURL: url, token: try await ForkcastAPI(baseURL: url).register(email: "ana@example.com", password: "correct horse").token, transport: .patient)
            let made = try await ana.createDiaryLink(DiaryLinkInput(from: today, to: today, shows: ["weights"]))
            let coach = ForkcastAPI(baseURL: url, transport: .patient)
            var statuses: [Int?] = []
            for _ in 0..<Int(SharedDiary.reads.capacity) + 5 { statuses.append(await problemStatus { _ = try await coach.sharedDiary(token: made.token!) }) }
            #expect(statuses.prefix(Int(SharedDiary.reads.capacity)).allSatisfy { $0 == nil })
            #expect(statuses.suffix(5) == [429, 429, 429, 429, 429])
        }
    }
}
