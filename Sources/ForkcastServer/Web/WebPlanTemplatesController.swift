import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Planner › Templates, through ``PlanTemplates`` as the API.
struct WebPlanTemplatesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.planTemplates(), use: page)
        routes.post(SiteURL.planTemplates(), use: save)
        routes.post(SiteURL.applyPlanTemplate(SiteURL.anyID), use: apply)
        routes.post(SiteURL.deletePlanTemplate(SiteURL.anyID), use: delete)
    }

    @Sendable func page(req: Request) async throws -> Response {
        let user = try req.webUser, owner = try req.owner
        let templates = try await owner.templates.all()
        let meals = try await owner.meals.find(ids: Array(Set(templates.flatMap { $0.entries.map(\.mealId) })))
        let start = try req.queryParameters.date("start") ?? user.today(now: req.now)
        return PlanTemplatesPage(templates: templates, meals: meals.mapValues(\.description), start: start)
            .render(layout: req.layout("Week templates", .plan)).response()
    }

    @Sendable func save(req: Request) async throws -> Response {
        let form = FormData(req)
        let start = try Self.day(form["start"], field: "start")
        let weeks = Int(form["weeks"]?.trimmed.nilIfEmptyString ?? "1") ?? 0
        let template = try await req.owner.planTemplates.save(name: form["name"] ?? "", from: start, weeks: weeks, id: req.dependencies.uuid())
        req.flash("Saved “\(template.name)”: \(template.entries.count) meals over \(template.weeks) week\(template.weeks == 1 ? "" : "s").")
        return req.redirect(to: SiteURL.planTemplates(start: start).path, redirectType: .normal)
    }

    @Sendable func apply(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "template"), form = FormData(req)
        let start = try Self.day(form["start"], field: "start")
        let cycles = Int(form["cycles"]?.trimmed.nilIfEmptyString ?? "1") ?? 0
        let then = ((try? req.content.get([String].self, at: "then")) ?? []).compactMap(UUID.init(uuidString:))
        guard let applied = try await req.owner.planTemplates.apply(id, then: then, from: start, cycles: cycles) else {
            throw AppError.notFound("That template is gone.")
        }
        req.flash("Planned \(applied.planned.count) meal\(applied.planned.count == 1 ? "" : "s")\(applied.skipped > 0 ? "; \(applied.skipped) were there already" : "").")
        return req.redirect(to: SiteURL.plan(start: start).path, redirectType: .normal)
    }

    @Sendable func delete(req: Request) async throws -> Response {
        guard try await req.owner.planTemplates.delete(try req.idParameter(what: "template")) else { throw AppError.notFound("That template is gone.") }
        req.flash("Template deleted; what it planned stays on the plan.")
        return req.redirect(to: SiteURL.planTemplates().path, redirectType: .normal)
    }

    private static func day(_ typed: String?, field: String) throws -> CalendarDate {
        guard let typed = typed?.trimmed.nilIfEmptyString, let day = CalendarDate(input: typed) else {
            throw ValidationError(field: field, "Choose a day (YYYY-MM-DD).")
        }
        return day
    }
}
