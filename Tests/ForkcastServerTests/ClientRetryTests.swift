@testable import ForkcastServer
import ForkcastClient
import Foundation
import Testing

/// The Swift client sends each change under an `Idempotency-Key` and sends it again once when its
/// answer is lost: the person's entry is logged once.
@Suite("Swift client: a change whose answer is lost")
struct ClientRetryTests {
    @Test func aLoggedEntryWhoseAnswerIsLostIsLoggedOnce() async throws {
        try await withServer { _, url in
            let session = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "owner@example.com", password: "correct horse")
            let line = SyncClientTests.FlakyTransport()
            let api = ForkcastAPI(baseURL: url, token: session.token, transport: line)
            line.dropNextAnswer = true  // the server logs it; the phone never hears back, and asks again
            let entry = try await api.log(DiaryEntryInput(mealType: "snack", quickAdd: .init(energyKcal: 90), name: "Apple"))
            let day = try await ForkcastAPI(baseURL: url, token: session.token, transport: .patient).diaryDay(entry.date)
            #expect(day.entries.flatMap(\.entries).map(\.id) == [entry.id], "logged once, and the answer is that entry")
        }
    }
}
