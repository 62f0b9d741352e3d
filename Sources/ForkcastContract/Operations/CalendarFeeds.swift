import ForkcastCore
import Foundation

extension CalendarFeed.Scope: SchemaLeaf {}

/// `POST /api/v1/calendar-feeds`: whose meals the feed holds.
public struct CalendarFeedInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var scope: CalendarFeed.Scope
    public init(scope: CalendarFeed.Scope) { self.scope = scope }
    public static let schemaName = "CalendarFeedInput"
    public static var fieldNotes: [String: FieldNote] {
        ["scope": FieldNote("household: every planned meal; me: the meals you eat")]
    }
}

/// A calendar feed as its person sees it. The address (with its token) is in the answer that made it only.
public struct CalendarFeedAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var scope: CalendarFeed.Scope
    public var createdAt: Date
    public var url: String?

    public init(_ feed: CalendarFeed, url: String? = nil) {
        id = feed.id
        scope = feed.scope
        createdAt = feed.createdAt
        self.url = url
    }

    public static let schemaName = "CalendarFeed"
    public static var fieldNotes: [String: FieldNote] {
        ["url": FieldNote("The address to subscribe to (iCalendar, text/calendar); in the answer that made it only")]
    }
}

/// `/api/v1/calendar-feeds`: the plan as secret iCalendar addresses (docs/calendar.md).
public enum CalendarFeeds {
    static let idNote: [String: FieldNote] = ["id": FieldNote("The feed's id")]

    public enum Create: APIOperation {
        public typealias Body = CalendarFeedInput
        public typealias Answer = CalendarFeedAnswer
        public static let spec = OperationSpec(.post, "/api/v1/calendar-feeds", "createCalendarFeed", tag: "calendar",
            summary: "Make a secret calendar address of the household's plan or of the meals you eat; its url is in this answer only",
            success: Outcome(201, "Made"),
            failures: [Outcome(409, "\(CalendarFeed.openLimit) addresses exist already")] + Outcome.writeJSON)
    }

    public enum List: APIOperation {
        public typealias Answer = [CalendarFeedAnswer]
        public static let spec = OperationSpec(.get, "/api/v1/calendar-feeds", "listCalendarFeeds", tag: "calendar",
            summary: "Your calendar addresses, newest first (without their urls)", success: Outcome(200, "The feeds"),
            failures: Outcome.read)
    }

    public enum Renew: APIOperation {
        public typealias Parameters = IDParameter
        public typealias Answer = CalendarFeedAnswer
        public static let spec = OperationSpec(.post, "/api/v1/calendar-feeds/{id}/renew", "renewCalendarFeed", tag: "calendar",
            summary: "A new address for a feed: the old one stops at once", success: Outcome(201, "The new feed, with its url"),
            failures: [Outcome(404, "No such feed of yours")] + Outcome.write, parameterNotes: idNote)
    }

    public enum Delete: APIOperation {
        public typealias Parameters = IDParameter
        public static let spec = OperationSpec(.delete, "/api/v1/calendar-feeds/{id}", "deleteCalendarFeed", tag: "calendar",
            summary: "Remove a calendar address: it stops at once", success: Outcome(204, "Removed"),
            failures: [Outcome(404, "No such feed of yours")] + Outcome.write, parameterNotes: idNote)
    }
}
