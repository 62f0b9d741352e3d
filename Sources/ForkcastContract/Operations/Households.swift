import ForkcastCore
import Foundation

/// A person of the household as the others see them: no email, nothing of their diary.
public struct HouseholdMemberAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var displayName: String?
    /// `owner` or `member`.
    public var role: String

    public init(_ member: Household.Member) {
        id = member.id
        displayName = member.displayName
        role = member.role.rawValue
    }

    /// Every key, a missing display name as null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(role, forKey: .role)
    }

    public static let schemaName = "HouseholdMember"
    public static let writesNulls = true
    public static var fieldNotes: [String: FieldNote] {
        ["id": FieldNote("The member's account id"),
         "role": FieldNote("owner: renames the household, invites and removes members; member: uses and changes everything shared",
                           schema: ["type": "string", "enum": .array(Household.Role.allCases.map { .string($0.rawValue) })])]
    }
}

/// `GET /api/v1/household`: the signed-in person's household.
public struct HouseholdAnswer: Codable, Sendable, Hashable, SchemaDocumented {
    public var id: UUID
    public var name: String
    /// The owner first, then the others in the order they joined.
    public var members: [HouseholdMemberAnswer]

    public init(_ found: HouseholdMembers) {
        id = found.household.id
        name = found.household.name
        members = found.members.map(HouseholdMemberAnswer.init)
    }

    public static let schemaName = "Household"
}

/// `PUT /api/v1/household`.
public struct HouseholdInput: Codable, Sendable, Hashable, SchemaDocumented {
    public var name: String

    public init(name: String) { self.name = name }

    public static let schemaName = "HouseholdInput"
    public static var fieldNotes: [String: FieldNote] {
        ["name": FieldNote(minLength: 1, maxLength: Household.maximumNameLength, pattern: FieldNote.notBlank, example: "The Smiths")]
    }
}

/// `/api/v1/household`: the people who share a library, a plan and shopping lists; each keeps
/// a diary of their own.
public enum Households {
    public enum Get: APIOperation {
        public typealias Answer = HouseholdAnswer
        public static let spec = OperationSpec(.get, "/api/v1/household", "getHousehold", tag: "household",
            summary: "The household you are in, with its members (every account is in exactly one)",
            success: Outcome(200, "The household"), failures: Outcome.read)
    }

    public enum Rename: APIOperation {
        public typealias Body = HouseholdInput
        public typealias Answer = HouseholdAnswer
        public static let spec = OperationSpec(.put, "/api/v1/household", "renameHousehold", tag: "household",
            summary: "Rename the household; its owner only", success: Outcome(200, "Renamed"),
            failures: [Outcome(403, "Not the household's owner; or a web session without a valid X-CSRF-Token")] + Outcome.writeJSON)
    }
}
