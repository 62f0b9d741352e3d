import Foundation

/// A key another program (a script, Home Assistant, an assistant) uses instead of a password: a
/// bearer token for the API that makes no session, limited to reading or also writing, in the
/// areas chosen, until it expires or is revoked. Only a hash of it is stored.
public struct APIKey: Identifiable, Hashable, Sendable {
    public enum Access: String, Sendable, Codable, CaseIterable { case read, write }
    public enum Area: String, Sendable, Codable, CaseIterable, Comparable {
        /// The diary, its history and photos, weights and goals.
        case diary
        /// The plan and the library it is made of: meals and foods.
        case plan
        case shopping
        case pantry
        public static func < (a: Area, b: Area) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    public let id: UUID
    public var tokenHash: String
    public var name: String
    public var access: Access
    public var areas: Set<Area>
    public var expiresAt: Date
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(id: UUID, tokenHash: String, name: String, access: Access, areas: Set<Area>, expiresAt: Date, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.tokenHash = tokenHash
        self.name = name
        self.access = access
        self.areas = areas
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// A key's token starts so: the API tells a key from a session's token without a query.
    public static let prefix = "fck_"
    public static let maximumNameLength = 100
    /// Keys per person, and the longest a key lives (and how long unless told).
    public static let openLimit = 20, maximumLifetimeDays = 366, defaultLifetimeDays = 90
    /// How often its last use is written down (not on every request).
    public static let lastUsedPrecision: TimeInterval = 60

    /// Whether the key may call an operation that reaches `reached` (every one must be the key's;
    /// nil or none: not one a key may call at all: keys, sign-ins, the account, the household,
    /// sharing links), changing data or not.
    public func permits(_ reached: Set<Area>?, writes: Bool) -> Bool {
        guard let reached, !reached.isEmpty, reached.isSubset(of: areas) else { return false }
        return !writes || access == .write
    }

    public func isOpen(at now: Date) -> Bool { expiresAt > now }

    /// The checked name, areas and expiry; throws ``ValidationError`` naming `name`, `areas` or
    /// `expiresAt`. No expiry: ``defaultLifetimeDays`` from now.
    public static func validated(name: String, areas: [String], expiresAt: Date?, now: Date) throws(ValidationError)
        -> (name: String, areas: Set<Area>, expiresAt: Date) {
        var problems: [ValidationError.Field] = []
        let trimmed = name.trimmed
        if trimmed.isEmpty {
            problems.append(.init(field: "name", message: "Name the key after what uses it (\"Home Assistant\")."))
        } else if trimmed.count > maximumNameLength {
            problems.append(.init(field: "name", message: "A key's name is at most \(maximumNameLength) characters; this one has \(trimmed.count)."))
        }
        let known = areas.compactMap(Area.init(rawValue:))
        if areas.isEmpty || known.count != areas.count {
            problems.append(.init(field: "areas", message: "Choose one or more of \(Area.allCases.map(\.rawValue).joined(separator: ", "))."))
        }
        let expiry = expiresAt ?? now.addingTimeInterval(Double(defaultLifetimeDays) * 86_400)
        if expiry <= now {
            problems.append(.init(field: "expiresAt", message: "A key must expire in the future."))
        } else if expiry.timeIntervalSince(now) > Double(maximumLifetimeDays) * 86_400 {
            problems.append(.init(field: "expiresAt", message: "A key expires within \(maximumLifetimeDays) days."))
        }
        if !problems.isEmpty { throw ValidationError(problems) }
        return (trimmed, Set(known), expiry)
    }
}
