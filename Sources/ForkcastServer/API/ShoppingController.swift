import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/shopping-lists`: shopping lists from the plan, as ForkcastContract's ``ShoppingLists``
/// operations, and the lists a sharing link opens.
enum ShoppingController {
    static func register(_ routes: OperationRoutes) {
        routes.on(ShoppingLists.List.self) { req, query, _ in
            let paging = try Request.paging(page: query.page, per: query.per)
            let shopping = try req.owner.shopping
            let lists = try await shopping.lists(page: paging)
            let counts = try await shopping.counts(of: lists.items.map(\.id))
            return Page(items: lists.items.map { ShoppingListSummaryAnswer($0, itemCount: counts[$0.id]?.items ?? 0, checkedCount: counts[$0.id]?.checked ?? 0) },
                        metadata: PageMetadata(page: paging.page, per: paging.per, total: lists.total))
        }
        routes.on(ShoppingLists.Create.self) { req, _, input in
            let contents = try await req.owner.makeShoppingList(from: input.from, to: input.to, name: input.name, id: req.dependencies.uuid())
            return .value(ShoppingListAnswer(contents, currency: try req.requireUser().currency),
                          headers: ["Location": ShoppingLists.Get.path.filled(["id": contents.list.id.uuidString])])
        }
        routes.on(ShoppingLists.Get.self) { req, parameters, _ in
            guard let contents = try await contents(parameters.id, owner: try req.owner) else { throw noList(parameters.id) }
            return ShoppingListAnswer(contents, currency: try req.requireUser().currency)
        }
        routes.on(ShoppingLists.Delete.self) { req, parameters, _ in
            guard try await req.owner.deleteShoppingList(parameters.id) else { throw noList(parameters.id) }
            return Nothing()
        }
        routes.on(ShoppingLists.Refresh.self) { req, parameters, _ in
            guard let contents = try await req.owner.refreshShoppingList(parameters.id) else { throw noList(parameters.id) }
            return ShoppingListAnswer(contents, currency: try req.requireUser().currency)
        }
        routes.on(ShoppingLists.AddItem.self) { req, parameters, input in
            guard let item = try await req.owner.addShoppingItem(to: parameters.id, name: input.name, quantity: input.quantity, unit: input.unit,
                                                                 category: input.category, id: req.dependencies.uuid()) else { throw noList(parameters.id) }
            return .value(ShoppingItemAnswer(item))
        }
        routes.on(ShoppingLists.UpdateItem.self) { req, parameters, input in
            guard let item = try await req.owner.changeShoppingItem(parameters.itemId, on: parameters.id, input.change) else {
                throw noItem(parameters.itemId)
            }
            return ShoppingItemAnswer(item)
        }
        routes.on(ShoppingLists.DeleteItem.self) { req, parameters, _ in
            guard try await req.owner.deleteShoppingItem(parameters.itemId, on: parameters.id) != nil else { throw noItem(parameters.itemId) }
            return Nothing()
        }
        routes.on(ShoppingLists.Share.self) { req, parameters, _ in
            let owner = try req.owner
            let wasShared = try await owner.shopping.find(parameters.id)?.shareToken != nil
            guard let token = try await owner.shareShoppingList.share(parameters.id, newToken: Tokens.generate()) else { throw noList(parameters.id) }
            return .value(shareAnswer(token, req), headers: [:], status: wasShared ? .ok : nil)
        }
        routes.on(ShoppingLists.Unshare.self) { req, parameters, _ in
            guard try await req.owner.shareShoppingList.revoke(parameters.id) else { throw noList(parameters.id) }
            return Nothing()
        }
        routes.on(ShoppingLists.Shared.self) { req, parameters, _ in
            guard let shared = try await SharedShopping.open(parameters.token, req), let contents = try await shared.contents() else { throw noShare }
            return .value(SharedShoppingListAnswer(contents, currency: shared.currency), headers: sharedHeaders)
        }
        routes.on(ShoppingLists.SharedCheck.self) { req, parameters, input in
            guard let shared = try await SharedShopping.open(parameters.token, req) else { throw noShare }
            guard let item = try await shared.check(parameters.itemId, input.checked) else { throw noItem(parameters.itemId) }
            return .value(SharedShoppingItemAnswer(item), headers: sharedHeaders)
        }
    }

    /// What a sharing link's answers say, as its page does: the token is the key, never sent on to
    /// another site, never indexed, never kept by a proxy.
    static let sharedHeaders: HTTPHeaders = ["Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store"]

    static func contents(_ id: UUID, owner: Owner) async throws -> ShoppingListContents? {
        guard let list = try await owner.shopping.find(id) else { return nil }
        return ShoppingListContents(list: list, items: try await owner.shopping.items(of: id))
    }

    static func shareAnswer(_ token: String, _ req: Request) -> ShoppingShareAnswer {
        ShoppingShareAnswer(url: req.publicBaseURL + SiteURL.sharedList(token).path,
                            apiPath: ShoppingLists.Shared.path.filled(["token": token]))
    }

    static func noList(_ id: UUID) -> AppError { AppError.notFound("No shopping list with id \(id) exists in your account.") }
    static func noItem(_ id: UUID) -> AppError { AppError.notFound("No item with id \(id) is on that shopping list.") }
    static let noShare = AppError.notFound("No shopping list is shared by this link: it was never shared, or the link was revoked.")
}

/// What a sharing link's holder may do: read its one list and check its items off, nothing else.
/// The list's owner is found from the token alone; the holder is never signed in as them.
struct SharedShopping {
    let list: UUID
    let library: FluentLibrary
    let shopping: ShoppingRepository
    let currency: String
    let now: Date

    static func open(_ token: String, _ req: Request) async throws -> SharedShopping? {
        guard let (owner, list) = try await SharedShoppingList.find(token: token, on: req.db),
              let user = try await UserModel.find(owner, on: req.db) else { return nil }
        return SharedShopping(list: list, library: FluentLibrary(db: req.db, ownerID: owner), shopping: ShoppingRepository(db: req.db, kitchen: Kitchen(user: owner)),
                              currency: user.currency, now: req.now)
    }

    func contents() async throws -> ShoppingListContents? {
        guard let found = try await shopping.find(list) else { return nil }
        return ShoppingListContents(list: found, items: try await shopping.items(of: list))
    }

    func check(_ item: UUID, _ checked: Bool) async throws -> ShoppingItem? {
        try await ChangeShoppingItem(library: library, now: now)(item, on: list, ShoppingItemChange(checked: checked))
    }
}
