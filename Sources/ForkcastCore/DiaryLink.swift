import Foundation

/// A read-only link to part of one person's diary, for a coach or dietitian: the days it covers,
/// what it shows, and when it stops working. Only a hash of its token is stored.
public struct DiaryLink: Identifiable, Hashable, Sendable {
    /// What a link may show.
    public enum Part: String, Sendable, Codable, CaseIterable, Comparable {
        /// The entries of each day, with energy and macronutrients, against the goals.
        case diary
        /// Vitamins, minerals and the other nutrients of each day.
        case nutrients
        /// The weights measured in the days covered.
        case weights

        public static func < (a: Part, b: Part) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    public let id: UUID
    public var tokenHash: String
    public var from: CalendarDate
    public var to: CalendarDate
    public var expiresAt: Date
    public var shows: Set<Part>
    public var createdAt: Date

    public init(id: UUID, tokenHash: String, from: CalendarDate, to: CalendarDate, expiresAt: Date, shows: Set<Part>, createdAt: Date) {
        self.id = id
        self.tokenHash = tokenHash
        self.from = from
        self.to = to
        self.expiresAt = expiresAt
        self.shows = shows
        self.createdAt = createdAt
    }

    /// The longest range a link covers.
    public static let maximumDays = 366
    /// The latest a link may expire, and when it does unless told.
    public static let maximumLifetimeDays = 365, defaultLifetimeDays = 30
    /// Links open at once, per person.
    public static let openLimit = 20

    /// The checked range, expiry and parts; throws ``ValidationError`` naming `to`, `expiresAt` or
    /// `shows`. No expiry: ``defaultLifetimeDays`` from `now`; no parts: all of them.
    public static func validated(from: CalendarDate, to: CalendarDate, expiresAt: Date?, shows: [String]?, now: Date) throws(ValidationError)
        -> (from: CalendarDate, to: CalendarDate, expiresAt: Date, shows: Set<Part>) {
        var problems: [ValidationError.Field] = []
        if to < from {
            problems.append(.init(field: "to", message: "The range ends (\(to.iso)) before it starts (\(from.iso))."))
        } else if from.days(until: to) >= maximumDays {
            problems.append(.init(field: "to", message: "A link covers at most \(maximumDays) days; \(from.iso) to \(to.iso) is \(from.days(until: to) + 1)."))
        }
        let expiry = expiresAt ?? now.addingTimeInterval(Double(defaultLifetimeDays) * 86_400)
        if expiry <= now {
            problems.append(.init(field: "expiresAt", message: "A link must expire in the future."))
        } else if expiry.timeIntervalSince(now) > Double(maximumLifetimeDays + 1) * 86_400 {
            // A day: a link good through the day a year ahead ends at the midnight after it.
            problems.append(.init(field: "expiresAt", message: "A link expires within \(maximumLifetimeDays) days."))
        }
        let asked = shows ?? Part.allCases.map(\.rawValue)
        let parts = Set(asked.compactMap(Part.init(rawValue:)))
        if parts.count != Set(asked).count || parts.isEmpty {
            problems.append(.init(field: "shows", message: "Choose what the link shows: one or more of diary, nutrients and weights."))
        }
        if !problems.isEmpty { throw ValidationError(problems) }
        return (from, to, expiry, parts)
    }

    public func isOpen(at now: Date) -> Bool { expiresAt > now }

    /// When a link good through `lastDay` stops: the midnight after it, in the person's zone.
    public static func expiry(through lastDay: CalendarDate, in zone: TimeZone) -> Date { lastDay.adding(days: 1).instant(in: zone) }

    /// The last day the link works when it stops at a midnight in `zone` (made "through" a day);
    /// nil when it stops at another time.
    public func lastDay(in zone: TimeZone) -> CalendarDate? {
        let day = CalendarDate(expiresAt.addingTimeInterval(-1), in: zone)
        return Self.expiry(through: day, in: zone) == expiresAt ? day : nil
    }

    /// The nutrients the link shows: energy and the macronutrients with the diary, every one with
    /// nutrients, none otherwise (the order of the CSV's columns).
    public var nutrientsShown: [Nutrient] {
        if shows.contains(.nutrients) { return Nutrient.allCases }
        return shows.contains(.diary) ? [.energyKcal, .protein, .carbohydrates, .fat] : []
    }

    /// The day a link opens on: the one asked for, else the last day covered that has begun (the
    /// first when none has). Nil for a day outside the range.
    public func day(asked: CalendarDate?, today: CalendarDate) -> CalendarDate? {
        guard let asked else { return max(from, min(to, today)) }
        return from <= asked && asked <= to ? asked : nil
    }

    /// What the link shows of `nutrients`: energy and the macronutrients with the diary, every
    /// nutrient with nutrients, nothing otherwise.
    public func visible(_ nutrients: Nutrients) -> Nutrients {
        Nutrients(Dictionary(uniqueKeysWithValues: nutrientsShown.compactMap { n in nutrients[n].map { (n, $0) } }))
    }

    public static let gone = "This diary link has been revoked or has expired."
}
