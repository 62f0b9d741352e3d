import ForkcastContract
import ForkcastCore
import Foundation

extension ForkcastAPI {
    /// A secret iCalendar address of the household's plan (`.household`) or of the meals you eat
    /// (`.me`); its `url` is in this answer only.
    public func createCalendarFeed(scope: CalendarFeed.Scope) async throws -> CalendarFeedAnswer {
        try await send(CalendarFeeds.Create.self, body: CalendarFeedInput(scope: scope))
    }

    /// Your calendar addresses, newest first (without their urls).
    public func calendarFeeds() async throws -> [CalendarFeedAnswer] { try await send(CalendarFeeds.List.self, Nothing()) }

    /// A new address for the feed; the old one stops at once.
    public func renewCalendarFeed(_ id: UUID) async throws -> CalendarFeedAnswer { try await send(CalendarFeeds.Renew.self, IDParameter(id)) }

    public func deleteCalendarFeed(_ id: UUID) async throws { _ = try await send(CalendarFeeds.Delete.self, IDParameter(id)) }
}

extension ForkcastAPI {
    /// A key for another program; its `key` (a bearer token: `ForkcastAPI(baseURL:token:)`) is in
    /// this answer only. Made with a session, not with another key.
    public func createAPIKey(_ input: APIKeyInput) async throws -> APIKeyAnswer { try await send(APIKeys.Create.self, body: input) }

    /// Your keys not expired, with when each was last used.
    public func apiKeys() async throws -> [APIKeyAnswer] { try await send(APIKeys.List.self, Nothing()) }

    public func revokeAPIKey(_ id: UUID) async throws { _ = try await send(APIKeys.Revoke.self, IDParameter(id)) }
}
