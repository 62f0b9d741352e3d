/// A run of consecutive calendar days: the planner's week view (7 days from a start date).
///
/// Navigation moves the window by exactly its length, forwards or back, without limit (seed 002 Req 5).
public struct WeekWindow: Hashable, Sendable {
    public static let defaultLength = 7
    /// The longest window a request may ask for.
    public static let maximumLength = 62

    public let start: CalendarDate
    public let length: Int

    public init(start: CalendarDate, length: Int = WeekWindow.defaultLength) {
        precondition(length >= 1, "a window holds at least one day")
        self.start = start
        self.length = length
    }

    /// Every day of the window in chronological order.
    public var dates: [CalendarDate] {
        (0..<length).map { start.adding(days: $0) }
    }

    /// The last day of the window (inclusive).
    public var end: CalendarDate { start.adding(days: length - 1) }

    public func contains(_ date: CalendarDate) -> Bool {
        start <= date && date <= end
    }

    /// The window that follows this one.
    public var next: WeekWindow { WeekWindow(start: start.adding(days: length), length: length) }
    /// The window that precedes this one.
    public var previous: WeekWindow { WeekWindow(start: start.adding(days: -length), length: length) }
}
