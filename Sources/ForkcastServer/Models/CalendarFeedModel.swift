import Fluent
import ForkcastCore
import Foundation

/// A calendar feed's secret address (``CalendarFeed``): only a hash of its token is kept.
final class CalendarFeedModel: Model, @unchecked Sendable {
    static let schema = "calendar_feeds"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "scope") var scope: String
    @Field(key: "created_at") var createdAt: Date
    var properties: [any AnyProperty] { [$id, $ownerID, $tokenHash, $scope, $createdAt] }

    init() {}

    init(_ feed: CalendarFeed, ownerID: UUID) {
        id = feed.id
        self.ownerID = ownerID
        tokenHash = feed.tokenHash
        scope = feed.scope.rawValue
        createdAt = feed.createdAt
    }

    var domain: CalendarFeed {
        CalendarFeed(id: id!, tokenHash: tokenHash, scope: CalendarFeed.Scope(rawValue: scope) ?? .me, createdAt: createdAt)
    }
}
