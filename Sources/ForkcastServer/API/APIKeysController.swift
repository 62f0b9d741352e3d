import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/api-keys` as ForkcastContract's ``APIKeys`` operations, and what a key may do: the
/// same use case as Settings › Keys for other programs (``ManageAPIKeys``).
enum APIKeysController {
    static func register(_ routes: OperationRoutes) {
        routes.on(APIKeys.Create.self) { req, _, input in
            let made = try await req.makeAPIKey(input)
            return APIKeyAnswer(made.key, key: made.token)
        }
        routes.on(APIKeys.List.self) { req, _, _ in
            try await req.manageAPIKeys.keys(of: try req.requireUserID()).map { APIKeyAnswer($0) }
        }
        routes.on(APIKeys.Revoke.self) { req, parameters, _ in
            guard try await req.manageAPIKeys.revoke(parameters.id, by: try req.requireUserID()) else {
                throw AppError.notFound("No key with id \(parameters.id) is yours.")
            }
            return Nothing()
        }
    }

    /// The area of each tag a key may reach; operations of other tags (keys, sign-ins, the account,
    /// the household, sharing links, calendar addresses, sync) are refused to every key, whether
    /// or not they need a session (signing in with Apple while a key is sent would link an identity).
    static let areas: [String: APIKey.Area] = ["diary": .diary, "history": .diary, "photos": .diary, "body": .diary,
                                               "plan": .plan, "meals": .plan, "foods": .plan, "shopping": .shopping, "pantry": .pantry]
    /// Operations that reach beyond their tag's area, by operation id: the key must reach them all.
    static let reaches: [String: Set<APIKey.Area>] = [
        "logEatenAssignment": [.plan, .diary, .pantry], "logPlannedMeal": [.diary, .plan, .pantry],
        "cookAssignment": [.plan, .pantry], "addPantryItemByBarcode": [.pantry, .plan],
    ]
    /// Public links a key may not make or end.
    static let refused: Set<String> = ["shareRecipe", "unshareRecipe", "shareShoppingList", "unshareShoppingList"]
    /// POSTs that change nothing (a draft, suggestions): a read-only key may send them.
    static let readsByPost: Set<String> = ["suggestPlan", "importRecipe"]

    /// 403 when the request is signed in by a key that may not call `Op`.
    static func check<Op: APIOperation>(_ operation: Op.Type, _ req: Request) throws {
        guard let key = req.apiKey, Op.tag != "system" else { return }
        let writes = req.method != .GET && req.method != .HEAD && !readsByPost.contains(Op.id)
        let reached = refused.contains(Op.id) ? nil : reaches[Op.id] ?? areas[Op.tag].map { [$0] }
        guard key.permits(reached, writes: writes) else {
            guard let reached else { throw AppError.forbidden("An API key cannot use \(Op.path): keys, sign-ins, the account and sharing need you signed in yourself.") }
            if !reached.isSubset(of: key.areas) {
                throw AppError.forbidden("This key (“\(key.name.prefix(60))”) may not reach \(reached.sorted().map(\.rawValue).joined(separator: " and ")); it reaches \(key.areas.sorted().map(\.rawValue).joined(separator: ", ")).")
            }
            throw AppError.forbidden("This key (“\(key.name.prefix(60))”) may only read; nothing was saved.")
        }
    }
}

extension Request {
    var manageAPIKeys: ManageAPIKeys { ManageAPIKeys(accounts: FluentAccounts(db: db), now: now) }

    /// The key the request is signed in by, if it is (not a session's token).
    var apiKey: APIKey? {
        get { storage[APIKeyStorage.self] }
        set { storage[APIKeyStorage.self] = newValue }
    }

    private enum APIKeyStorage: StorageKey { typealias Value = APIKey }

    /// Makes a key for the signed-in person: the key itself is shown once.
    func makeAPIKey(_ input: APIKeyInput) async throws -> (key: APIKey, token: String) {
        let token = APIKey.prefix + Tokens.generate()
        do {
            let key = try await manageAPIKeys.make(by: try requireUserID(), tokenHash: Tokens.hash(token), name: input.name, access: input.access,
                                                   areas: input.areas, expiresAt: input.expiresAt)
            return (key, token)
        } catch let refusal as Refusal {
            throw AppError(refusal)
        }
    }
}
