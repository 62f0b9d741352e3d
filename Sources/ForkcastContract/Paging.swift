import ForkcastCore
import Foundation

/// One page of a list, with where it sits in the whole: the paging envelope of every list answer.
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var metadata: PageMetadata

    public init(items: [Item], metadata: PageMetadata) {
        self.items = items
        self.metadata = metadata
    }
}

extension Page: SchemaDocumented {
    public static var schemaName: String {
        ((Item.self as? any SchemaDocumented.Type)?.schemaName ?? String(describing: Item.self)) + "Page"
    }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Hashable where Item: Hashable {}

public struct PageMetadata: Codable, Sendable, Hashable, SchemaDocumented {
    public var page: Int
    public var per: Int
    public var total: Int

    public init(page: Int, per: Int, total: Int) {
        self.page = page
        self.per = per
        self.total = total
    }

    public static let schemaName = "PageMetadata"
    public static var fieldNotes: [String: FieldNote] {
        ["page": FieldNote(minimum: 1), "per": FieldNote(minimum: 1), "total": FieldNote(minimum: 0)]
    }
}

/// `?page=&per=`: which page of a list (``Paging`` checks the numbers).
public struct PageQuery: Codable, Sendable, Hashable {
    public var page: Int?
    public var per: Int?

    public init(page: Int? = nil, per: Int? = nil) {
        self.page = page
        self.per = per
    }

    public static var notes: [String: FieldNote] {
        ["page": FieldNote("Page", minimum: 1, maximum: Decimal(Paging.maximumPage), default: 1),
         "per": FieldNote("Items per page", minimum: 1, maximum: Decimal(Paging.maximumPer), default: .number(Double(Paging.defaultPer)))]
    }
}

/// `{id}` in a path.
public struct IDParameter: Codable, Sendable, Hashable {
    public var id: UUID
    public init(_ id: UUID) { self.id = id }
}

/// An RFC 9457 problem: every error answer of the API is one of these (application/problem+json).
public struct Problem: Codable, Sendable, Equatable, SchemaDocumented {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// One entry per field that needs fixing (validation problems).
    public var errors: [ValidationError.Field]?
    /// occasion-change: the occasion the entry is in, and the one the edit would move it to.
    public var from: OccasionRef?
    public var to: OccasionRef?

    public init(type: String, title: String, status: Int, detail: String, errors: [ValidationError.Field]? = nil,
                from: OccasionRef? = nil, to: OccasionRef? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.from = from
        self.to = to
    }

    public static let schemaName = "Problem"
    public static var schemaDescription: String? {
        "RFC 9457 problem details; every error answer of the API is one of these (application/problem+json)."
    }
    public static var fieldNotes: [String: FieldNote] {
        ["type": FieldNote("A URI naming the kind of problem; one ending in occasion-change is a time edit that would move a diary entry to another occasion (send it again with \"confirmMove\": true to move it)"),
         "status": FieldNote(minimum: 400, maximum: 599),
         "errors": FieldNote("One entry per field that needs fixing (validation problems)"),
         "from": FieldNote("occasion-change: the occasion the entry is in"),
         "to": FieldNote("occasion-change: the occasion the edit would move it to")]
    }
}

extension ValidationError.Field: SchemaDocumented {
    public static var schemaName: String { "FieldProblem" }
}

extension OccasionRef: SchemaDocumented {
    public static let schemaName = "OccasionRef"
    public static var fieldNotes: [String: FieldNote] {
        ["id": FieldNote("The occasion (GET \(Occasions.Get.path))"),
         "mealType": FieldNote("The meal type as entries store it: a system type's key (breakfast, lunch, dinner, afternoon-snack, snack, workout-fuel, protein-shake) or a custom meal type's id (lowercase UUID); see \(MealTypes.List.path)."),
         "name": FieldNote(example: "Lunch on Tuesday 2026-11-24")]
    }
}
