import ForkcastApp
import ForkcastCore
import Foundation
import Testing

/// ``UpdateSettings`` alone on the in-memory store: the same rules the API, the Settings page, sync
/// and the account import get through it.
@Suite("Settings, alone on the in-memory store")
struct SettingsUseCaseTests {
    let start = AccountSettings(displayName: "Ann", timeZone: "Europe/Berlin", currency: "EUR")

    @Test func everyBadFieldIsNamedAndNothingChanges() async throws {
        let store = InMemorySettingsStore(start)
        let refused = await #expect(throws: ValidationError.self) {
            try await UpdateSettings(store: store, now: Date())(displayName: String(repeating: "x", count: 500), timeZone: "Mars/Olympus",
                                                               currency: "EURO")
        }
        #expect(refused?.fields.map(\.field) == ["displayName", "timeZone", "currency"])
        #expect(store.current == start && store.saves == 0)
    }

    @Test func onlyTheFieldsGivenChangeAndAnEmptyNameIsRemoved() async throws {
        let store = InMemorySettingsStore(start)
        let saved = try await UpdateSettings(store: store, now: Date())(displayName: "  ", timeZone: nil, currency: " usd ")
        #expect(saved == AccountSettings(displayName: nil, timeZone: "Europe/Berlin", currency: "USD"))
        #expect(store.current == saved && store.saves == 1)
        store.failNextSave()
        await #expect(throws: InMemorySettingsStore.Unavailable.self) {
            try await UpdateSettings(store: store, now: Date())(displayName: "Bob", timeZone: "Asia/Tokyo", currency: nil)
        }
        #expect(store.current == saved, "a failed save changes nothing")
    }
}
