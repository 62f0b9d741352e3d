import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Settings › Household: its name and members; the owner renames it. The use case decides who
/// may (``RenameHousehold``); this page only presents.
struct WebHouseholdController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.household, use: page)
        routes.post(SiteURL.household, use: rename)
    }

    private func render(_ req: Request, typed: String? = nil, error: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let owner = try req.owner
        guard let found = try await owner.household() else { throw AppError.notFound("You are in no household.") }
        return HouseholdPage(found: found, me: owner.id, typed: typed, error: error)
            .render(layout: req.layout("Household", .settings)).response(status: status)
    }

    @Sendable func page(req: Request) async throws -> Response { try await render(req) }

    @Sendable func rename(req: Request) async throws -> Response {
        let owner = try req.owner, name = FormData(req)["name"] ?? ""
        do {
            _ = try await owner.renameHousehold(by: owner.id, to: name)
        } catch let errors as ValidationError {
            return try await render(req, typed: name, error: errors.message(for: "name") ?? errors.summary, status: .unprocessableEntity)
        } catch let refusal as Refusal {
            let error = AppError(refusal)
            return try await render(req, typed: name, error: error.problem.detail, status: error.status)
        }
        req.flash("Household renamed.")
        return req.redirect(to: SiteURL.household.path, redirectType: .normal)
    }
}
