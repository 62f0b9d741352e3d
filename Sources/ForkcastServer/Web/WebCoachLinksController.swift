import ForkcastApp
import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// Settings › Your data › Shared with a coach: the person's diary links (made, listed, revoked,
/// through ``ShareDiary``), and the read-only page a link opens for anyone who has it.
struct WebCoachLinksController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.coachLinks, use: page)
        routes.post(SiteURL.coachLinks, use: create)
        routes.post(SiteURL.revokeCoachLink(SiteURL.anyID), use: revoke)
    }

    private func render(_ req: Request, form: CoachLinksPage.Form? = nil, made: String? = nil, errors: ValidationError? = nil,
                        message: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let user = try req.webUser
        let today = user.today(now: req.now)
        let links = try await req.shareDiary.links(of: try user.requireID())
        return CoachLinksPage(links: links, form: form ?? .init(today: today), made: made, errors: errors, message: message, zone: user.zone)
            .render(layout: req.layout("Shared with a coach", .settings)).response(status: status)
    }

    @Sendable func page(req: Request) async throws -> Response { try await render(req) }

    @Sendable func create(req: Request) async throws -> Response {
        let user = try req.webUser, data = FormData(req)
        let form = CoachLinksPage.Form(from: data["from"] ?? "", to: data["to"] ?? "", expires: data["expires"] ?? "",
                                       shows: DiaryLink.Part.allCases.filter { data.all("shows").contains($0.rawValue) })
        var problems: [ValidationError.Field] = []
        let from = CalendarDate(input: form.from), to = CalendarDate(input: form.to), expires = CalendarDate(input: form.expires)
        if from == nil { problems.append(.init(field: "from", message: "Give the first day as a date.")) }
        if to == nil { problems.append(.init(field: "to", message: "Give the last day as a date.")) }
        if expires == nil { problems.append(.init(field: "expiresAt", message: "Give the day the link stops working.")) }
        guard let from, let to, let expires, problems.isEmpty else {
            return try await render(req, form: form, errors: ValidationError(problems), status: .unprocessableEntity)
        }
        do {
            let made = try await req.makeDiaryLink(DiaryLinkInput(from: from, to: to, expiresAt: DiaryLink.expiry(through: expires, in: user.zone),
                                                                  shows: form.shows.map(\.rawValue)))
            return try await render(req, made: made.url, status: .created)
        } catch let errors as ValidationError {
            return try await render(req, form: form, errors: errors, status: .unprocessableEntity)
        } catch let refusal as Refusal {
            let error = AppError(refusal)
            return try await render(req, form: form, message: error.problem.detail, status: error.status)
        }
    }

    @Sendable func revoke(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "link")
        guard try await req.shareDiary.revoke(id, by: try req.webUser.requireID()) else { throw AppError.notFound("That link is not yours, or was revoked already.") }
        req.flash("The link is revoked: it no longer opens your diary.")
        return req.redirect(to: SiteURL.coachLinks.path, redirectType: .normal)
    }
}

/// The page a diary link opens, for anyone who has it: a day of what it shows. No account, no
/// navigation, nothing else of the person's; a revoked or expired link is a plain 404.
struct WebCoachController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.coach(":token"), use: show)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let token = req.parameters.get("token") ?? ""
        let shared = try await SharedDiary.open(token, req)
        let answer = try await shared.day(try req.queryParameters.date("date"))
        let layout = Layout(title: "Diary, shared read-only", section: .none, csrf: nil, signedIn: false)
        let zone = shared.owner.user.zone
        let response = CoachPage(answer: answer, token: token, lastDay: shared.link.lastDay(in: zone), zone: zone).render(layout: layout).response()
        for (name, value) in ShoppingController.sharedHeaders { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }
}
