import Fluent
import ForkcastApp
import ForkcastClient
import ForkcastContract
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing
import VaporTesting

/// `/api/v1/invitations` through the Swift client, against a running server and a real database:
/// the owner makes, lists and revokes links while sign-up is closed; a link makes one account; no
/// one else may invite; the limit of links waiting holds.
@Suite("Invitations over the API")
struct InvitationAPITests {
    @Test func theOwnerInvitesThroughTheSwiftClientWhileSignUpIsClosed() async throws {
        try await withServer(allowSignup: false) { app, url in
            let owner = ForkcastAPI(baseURL: url, token: try await ForkcastAPI(baseURL: url).register(email: "owner@example.com", password: "correct horse").token, transport: .patient)
            #expect(try await owner.invitations().isEmpty)
            // Sign-up is closed: without a link, no account.
            #expect(await problemStatus { _ = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "guest@example.com", password: "correct horse") } == 403)

            let made = try await owner.createInvitation()
            let token = try #require(made.token)
            #expect(made.link?.hasSuffix("/signup?invite=\(token)") == true)
            #expect(made.expiresAt.timeIntervalSince(made.createdAt) == InvitationRules.lifetime)
            let listed = try await owner.invitations()
            #expect(listed.map(\.id) == [made.id])
            #expect(listed.allSatisfy { $0.link == nil && $0.token == nil }, "the token is shown once, when made")

            // The link makes one account, once.
            let guestSession = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "guest@example.com", password: "correct horse", invitation: token)
            #expect(guestSession.user.email == "guest@example.com")
            #expect(await problemStatus { _ = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "third@example.com", password: "correct horse", invitation: token) } == 403)
            #expect(try await owner.invitations().isEmpty, "a used link is no longer waiting")

            // Only the owner invites.
            let guest = ForkcastAPI(baseURL: url, token: guestSession.token, transport: .patient)
            #expect(await problemStatus { _ = try await guest.invitations() } == 403)
            #expect(await problemStatus { _ = try await guest.createInvitation() } == 403)

            // Only the owner revokes; a revoked link makes nothing; revoking it again is a 404.
            let revoked = try await owner.createInvitation()
            #expect(await problemStatus { try await guest.revokeInvitation(revoked.id) } == 403)
            try await owner.revokeInvitation(revoked.id)
            #expect(await problemStatus { try await owner.revokeInvitation(revoked.id) } == 404)
            #expect(await problemStatus { _ = try await ForkcastAPI(baseURL: url, transport: .patient).register(email: "late@example.com", password: "correct horse", invitation: revoked.token) } == 403)

            // At most InvitationRules.openLimit waiting; the one over it changes nothing.
            for _ in 0..<InvitationRules.openLimit { _ = try await owner.createInvitation() }
            #expect(await problemStatus { _ = try await owner.createInvitation() } == 409)
            #expect(try await owner.invitations().count == InvitationRules.openLimit)
            #expect(try await UserModel.query(on: app.db).count() == 2)
        }
    }
}
