import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/household`, as ForkcastContract's ``Households`` operations: the same use cases as
/// Settings › Household.
enum HouseholdController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Households.Get.self) { req, _, _ in
            guard let found = try await req.owner.household() else { throw AppError.notFound("You are in no household.") }
            return HouseholdAnswer(found)
        }
        routes.on(Households.Rename.self) { req, _, input in
            let owner = try req.owner
            return HouseholdAnswer(try await owner.renameHousehold(by: owner.id, to: input.name))
        }
        routes.on(Households.ListInvitations.self) { req, _, _ in
            try await req.householdMembership.invitations(for: try req.requireUserID()).map(InvitationAnswer.init)
        }
        routes.on(Households.Invite.self) { req, _, _ in
            InvitationAnswer(made: try await req.makeHouseholdInvitation(by: try req.requireUserID()))
        }
        routes.on(Households.RevokeInvitation.self) { req, parameters, _ in
            guard try await req.householdMembership.revoke(parameters.id, by: try req.requireUserID()) else {
                throw AppError.notFound("No invitation with id \(parameters.id) is waiting.")
            }
            return Nothing()
        }
        routes.on(Households.Join.self) { req, _, input in
            HouseholdAnswer(try await req.householdMembership.join(try req.requireUserID(), tokenHash: Tokens.hash(input.token)))
        }
        routes.on(Households.Leave.self) { req, _, _ in
            HouseholdAnswer(try await req.householdMembership.leave(try req.requireUserID()))
        }
        routes.on(Households.RemoveMember.self) { req, parameters, _ in
            HouseholdAnswer(try await req.householdMembership.remove(parameters.userId, by: try req.requireUserID()))
        }
        routes.on(Households.SetRole.self) { req, parameters, input in
            guard input.role == Household.Role.owner.rawValue else {
                throw AppError.validation(ValidationError(field: "role", "Only \"owner\" can be given: it hands ownership to this member."))
            }
            return HouseholdAnswer(try await req.householdMembership.handOver(to: parameters.userId, by: try req.requireUserID()))
        }
    }
}
