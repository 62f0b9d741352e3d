import Fluent
import ForkcastCore
import Foundation

/// A household's week template; its entries are JSON (`[{day, mealId, mealType, servings, eaters}]`),
/// read and written whole.
final class PlanTemplateModel: Model, @unchecked Sendable {
    static let schema = "plan_templates"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var ownerID: UUID
    @Field(key: "name") var name: String
    @Field(key: "weeks") var weeks: Int
    @Field(key: "entries") var entries: String
    @Field(key: "created_at") var createdAt: Date
    var properties: [any AnyProperty] { [$id, $ownerID, $name, $weeks, $entries, $createdAt] }

    init() {}

    init(_ template: PlanTemplate, ownerID: UUID) throws {
        id = template.id
        self.ownerID = ownerID
        name = template.name
        weeks = template.weeks
        entries = String(decoding: try JSONEncoder().encode(template.entries), as: UTF8.self)
        createdAt = template.createdAt
    }

    var domain: PlanTemplate {
        PlanTemplate(id: id!, name: name, weeks: weeks,
                     entries: (try? JSONDecoder().decode([PlanTemplate.Entry].self, from: Data(entries.utf8))) ?? [], createdAt: createdAt)
    }
}
