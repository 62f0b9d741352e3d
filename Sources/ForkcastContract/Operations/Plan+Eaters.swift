import ForkcastCore
import Foundation

/// Who eats a planned meal and how many portions (``Eater``).
public struct EaterEntry: Codable, Sendable, Hashable, SchemaDocumented {
    public var userId: UUID
    public var portions: Decimal

    public init(userId: UUID, portions: Decimal) {
        self.userId = userId
        self.portions = portions
    }

    public init(_ eater: Eater) { self.init(userId: eater.userId, portions: eater.portions) }
    public var eater: Eater { Eater(userId: userId, portions: portions) }

    public static let schemaName = "Eater"
    public static var fieldNotes: [String: FieldNote] {
        ["userId": FieldNote("A member of the household"),
         "portions": FieldNote("The portions they eat; their Log puts these into their own diary",
                               range: PlausibleRange(0, Eater.maximumPortions, lowerExclusive: true))]
    }
}
