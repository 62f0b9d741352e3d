import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Settings › The plan in your calendar, through ``ShareCalendar`` as the API.
struct WebCalendarFeedsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.calendarFeeds, use: page)
        routes.post(SiteURL.calendarFeeds, use: create)
        routes.post(SiteURL.renewCalendarFeed(SiteURL.anyID), use: renew)
        routes.post(SiteURL.removeCalendarFeed(SiteURL.anyID), use: remove)
    }

    private func render(_ req: Request, made: String? = nil, message: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let user = try req.webUser
        let feeds = try await req.shareCalendar.feeds(of: try user.requireID())
        return CalendarFeedsPage(feeds: feeds, made: made, message: message, zone: user.zone)
            .render(layout: req.layout("The plan in your calendar", .settings)).response(status: status)
    }

    @Sendable func page(req: Request) async throws -> Response { try await render(req) }

    @Sendable func create(req: Request) async throws -> Response {
        let scope = CalendarFeed.Scope(rawValue: FormData(req)["scope"] ?? "") ?? .me
        do {
            return try await render(req, made: try await req.makeCalendarFeed(scope).url, status: .created)
        } catch let error as AppError {
            return try await render(req, message: error.problem.detail, status: error.status)
        }
    }

    @Sendable func renew(req: Request) async throws -> Response {
        let made = try await req.renewCalendarFeed(try req.idParameter(what: "calendar address"))
        return try await render(req, made: made.url, status: .created)
    }

    @Sendable func remove(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "calendar address")
        guard try await req.shareCalendar.revoke(id, by: try req.webUser.requireID()) else { throw CalendarFeedsController.noFeed(id) }
        req.flash("Removed: that address no longer shows your meals.")
        return req.redirect(to: SiteURL.calendarFeeds.path, redirectType: .normal)
    }
}
