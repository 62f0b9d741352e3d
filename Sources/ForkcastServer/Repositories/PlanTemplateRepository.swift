import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

/// A household's week templates; the rules are ``PlanTemplates``'.
struct PlanTemplateRepository: PlanTemplateRecords {
    let db: any Database
    let kitchen: Kitchen

    func all() async throws -> [PlanTemplate] {
        try await PlanTemplateModel.query(on: db).filter(kitchen).sort(\.$name).sort(\.$id).all().map(\.domain)
    }

    func find(_ id: UUID) async throws -> PlanTemplate? {
        try await PlanTemplateModel.query(on: db).filter(kitchen).filter(\.$id == id).first()?.domain
    }

    func insert(_ template: PlanTemplate) async throws {
        try await PlanTemplateModel(template, ownerID: kitchen.user).create(on: db)
    }

    func delete(_ id: UUID) async throws -> Bool {
        guard let model = try await PlanTemplateModel.query(on: db).filter(kitchen).filter(\.$id == id).first() else { return false }
        try await model.delete(on: db)
        return true
    }
}
