import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// The settings page: display name, time zone and currency.
struct WebSettingsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.settings, use: settings)
        routes.post(SiteURL.settings, use: saveSettings)
    }

    @Sendable func settings(req: Request) async throws -> Response {
        SettingsPage(user: try req.webUser).render(layout: req.layout("Settings", .settings)).response()
    }

    @Sendable func saveSettings(req: Request) async throws -> Response {
        let user = try req.webUser
        let form = FormData(req)
        do {
            try await req.owner.updateSettings(displayName: form["displayName"], timeZone: form["timeZone"], currency: form["currency"])
        } catch let errors as ValidationError {
            // The same rule and message as the API; what was typed is not saved.
            return SettingsPage(user: user, message: errors.summary).render(layout: req.layout("Settings", .settings))
                .response(status: .unprocessableEntity)
        }
        req.flash("Settings saved.")
        return req.redirect(to: SiteURL.settings.path, redirectType: .normal)
    }
}
