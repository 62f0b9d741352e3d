import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// Settings › Keys for other programs, through ``ManageAPIKeys`` as the API.
struct WebAPIKeysController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.apiKeys, use: page)
        routes.post(SiteURL.apiKeys, use: create)
        routes.post(SiteURL.revokeAPIKey(SiteURL.anyID), use: revoke)
    }

    private func render(_ req: Request, form: APIKeysPage.Form? = nil, made: String? = nil, errors: ValidationError? = nil,
                        message: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let user = try req.webUser
        let keys = try await req.manageAPIKeys.keys(of: try user.requireID())
        let defaults = APIKeysPage.Form(expires: user.today(now: req.now).adding(days: APIKey.defaultLifetimeDays).iso)
        return APIKeysPage(keys: keys, form: form ?? defaults, made: made, errors: errors, message: message, zone: user.zone)
            .render(layout: req.layout("Keys for other programs", .settings)).response(status: status)
    }

    @Sendable func page(req: Request) async throws -> Response { try await render(req) }

    @Sendable func create(req: Request) async throws -> Response {
        let user = try req.webUser, data = FormData(req)
        let areas = data.all("areas")
        let form = APIKeysPage.Form(name: data["name"] ?? "", access: APIKey.Access(rawValue: data["access"] ?? "") ?? .read,
                                    areas: Set(areas.compactMap(APIKey.Area.init(rawValue:))), expires: data["expires"] ?? "")
        guard let expires = CalendarDate(input: form.expires) else {
            return try await render(req, form: form, errors: ValidationError(field: "expiresAt", "Give the day the key stops working."), status: .unprocessableEntity)
        }
        do {
            // Good through the day given, in the person's zone.
            let made = try await req.makeAPIKey(APIKeyInput(name: form.name, access: form.access, areas: areas,
                                                            expiresAt: expires.adding(days: 1).instant(in: user.zone)))
            return try await render(req, made: made.token, status: .created)
        } catch let errors as ValidationError {
            return try await render(req, form: form, errors: errors, status: .unprocessableEntity)
        } catch let error as AppError {
            return try await render(req, form: form, message: error.problem.detail, status: error.status)
        }
    }

    @Sendable func revoke(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "key")
        guard try await req.manageAPIKeys.revoke(id, by: try req.webUser.requireID()) else { throw AppError.notFound("That key is not yours, or was revoked already.") }
        req.flash("The key is revoked: it no longer opens anything.")
        return req.redirect(to: SiteURL.apiKeys.path, redirectType: .normal)
    }
}
