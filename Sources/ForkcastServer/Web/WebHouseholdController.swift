import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Settings › Household: its name and members; the owner renames it, invites, removes and hands
/// over; members leave. The use cases decide who may (``RenameHousehold``, ``HouseholdMembership``);
/// this page only presents.
struct WebHouseholdController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.household, use: page)
        routes.post(SiteURL.household, use: rename)
        routes.post(SiteURL.householdInvite, use: invite)
        routes.post(SiteURL.revokeHouseholdInvite(SiteURL.anyID), use: revoke)
        routes.post(SiteURL.leaveHousehold, use: leave)
        routes.post(SiteURL.removeMember(SiteURL.anyID), use: remove)
        routes.post(SiteURL.handOver(SiteURL.anyID), use: handOver)
        routes.post(SiteURL.joinHousehold(invite: ""), use: join)
    }

    private func render(_ req: Request, link: String? = nil, typed: String? = nil, error: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let owner = try req.owner
        guard let found = try await owner.household() else { throw AppError.notFound("You are in no household.") }
        let invitations = try await req.householdMembership.invitations(for: owner.id)
        return HouseholdPage(found: found, me: owner.id, invitations: invitations, link: link, typed: typed, error: error, zone: owner.user.zone)
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
            return try await refused(refusal, req, typed: name)
        }
        return done("Household renamed.", req)
    }

    @Sendable func invite(req: Request) async throws -> Response {
        do {
            // Shown once, on this answer only.
            return try await render(req, link: try await req.makeHouseholdInvitation(by: try req.webUser.requireID()).link, status: .created)
        } catch let refusal as Refusal { return try await refused(refusal, req) }
    }

    @Sendable func revoke(req: Request) async throws -> Response {
        guard let id = req.parameters.get("id", as: UUID.self) else { throw Abort(.notFound) }
        do {
            guard try await req.householdMembership.revoke(id, by: try req.webUser.requireID()) else { throw Abort(.notFound) }
        } catch let refusal as Refusal { return try await refused(refusal, req) }
        return done("The invitation link is revoked.", req)
    }

    @Sendable func leave(req: Request) async throws -> Response {
        do { _ = try await req.householdMembership.leave(try req.webUser.requireID()) } catch let refusal as Refusal { return try await refused(refusal, req) }
        return done("You left the household: this one is your own, with a copy of the meals, foods and meal types.", req)
    }

    @Sendable func remove(req: Request) async throws -> Response {
        guard let id = req.parameters.get("id", as: UUID.self) else { throw Abort(.notFound) }
        do { _ = try await req.householdMembership.remove(id, by: try req.webUser.requireID()) } catch let refusal as Refusal { return try await refused(refusal, req) }
        return done("They are no longer in the household.", req)
    }

    @Sendable func handOver(req: Request) async throws -> Response {
        guard let id = req.parameters.get("id", as: UUID.self) else { throw Abort(.notFound) }
        do { _ = try await req.householdMembership.handOver(to: id, by: try req.webUser.requireID()) } catch let refusal as Refusal { return try await refused(refusal, req) }
        return done("Ownership handed over: you are a member now.", req)
    }

    @Sendable func join(req: Request) async throws -> Response {
        let token = req.query[String.self, at: "invite"] ?? ""
        do {
            _ = try await req.householdMembership.join(try req.webUser.requireID(), tokenHash: Tokens.hash(token))
        } catch let refusal as Refusal {
            let error = AppError(refusal)
            return try await JoinPage.show(req, token: token, message: error.problem.detail, status: error.status)
        }
        return done("You joined the household.", req)
    }

    private func refused(_ refusal: Refusal, _ req: Request, typed: String? = nil) async throws -> Response {
        let error = AppError(refusal)
        return try await render(req, typed: typed, error: error.problem.detail, status: error.status)
    }

    private func done(_ message: String, _ req: Request) -> Response {
        req.flash(message)
        return req.redirect(to: SiteURL.household.path, redirectType: .normal)
    }

    /// The page an invitation's link opens, signed in or not.
    struct JoinPage: RouteCollection {
        func boot(routes: any RoutesBuilder) throws {
            routes.get(SiteURL.joinHousehold(invite: ""), use: { try await Self.show($0, token: $0.query[String.self, at: "invite"] ?? "") })
        }

        static func show(_ req: Request, token: String, message: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
            let user = req.auth.get(UserModel.self)
            var preview = token.count > 200 ? nil : try await req.householdMembership.preview(tokenHash: Tokens.hash(token), for: try user?.requireID() ?? UUID())
            if let message { preview?.refusal = message }
            return JoinHouseholdPage(token: token, preview: preview, signedIn: user != nil)
                .render(layout: req.layout("Join a household", .settings)).response(status: preview == nil ? .notFound : status)
        }
    }
}
