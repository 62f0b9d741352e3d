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
    }
}
