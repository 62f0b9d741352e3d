import Fluent
import ForkcastApp
import ForkcastCore
import Vapor

/// The Shopping pages: lists from the plan, checking off in the shop, sharing a list.
struct WebShoppingController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.shopping, use: index)
        routes.post(SiteURL.shopping, use: create)
        routes.get(SiteURL.shoppingList(SiteURL.anyID), use: show)
        routes.post(SiteURL.refreshShoppingList(SiteURL.anyID), use: refresh)
        routes.post(SiteURL.addShoppingItem(SiteURL.anyID), use: add)
        routes.post(SiteURL.shareShoppingList(SiteURL.anyID), use: share)
        routes.post(SiteURL.unshareShoppingList(SiteURL.anyID), use: unshare)
        routes.post(SiteURL.deleteShoppingList(SiteURL.anyID), use: deleteList)
        routes.post(SiteURL.checkShoppingItem(SiteURL.anyID), use: check)
        routes.post(SiteURL.deleteShoppingItem(SiteURL.anyID), use: deleteItem)
        routes.get(SiteURL.editShoppingItem(SiteURL.anyID), use: editItem)
        routes.post(SiteURL.updateShoppingItem(SiteURL.anyID), use: updateItem)
    }

    private func itemPage(_ req: Request, _ item: ShoppingItem, message: String?) async throws -> HTML {
        let listed = try await req.owner.shopping.items(of: item.listId).map(\.category)
        var aisles: [String] = []
        for aisle in listed + ShoppingItemPage.usualAisles where !aisles.contains(where: { $0.matchKey == aisle.matchKey }) { aisles.append(aisle) }
        return ShoppingItemPage(item: item, aisles: aisles, csrf: CSRF.token(for: req), message: message)
            .render(layout: req.layout(item.name, .shopping))
    }

    @Sendable func editItem(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "item")
        guard let item = try await req.owner.shopping.item(id) else { throw AppError.notFound("That item is no longer on the list.") }
        return try await itemPage(req, item, message: nil).response()
    }

    @Sendable func updateItem(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "item")
        let owner = try req.owner
        guard let item = try await owner.shopping.item(id) else { throw AppError.notFound("That item is no longer on the list.") }
        let form = FormData(req)
        guard let quantity = Self.quantity(form["quantity"]) else {
            return try await itemPage(req, item, message: "How much must be a number (like 2 or 0.5).").response(status: .unprocessableEntity)
        }
        do {
            let change = ShoppingItemChange(name: form["name"] ?? "", quantity: quantity.value, unit: form["unit"], category: form["category"])
            guard let saved = try await owner.changeShoppingItem(id, change) else { throw AppError.notFound("That item is no longer on the list.") }
            req.flash("Saved “\(saved.name)”.")
            return req.redirect(to: SiteURL.shoppingList(saved.listId).path + "#item-\(id.uuidString)", redirectType: .normal)
        } catch let errors as ValidationError {
            return try await itemPage(req, item, message: errors.summary).response(status: .unprocessableEntity)
        }
    }

    /// An amount typed on a form (`value` nil when left empty); nil when it is not a number.
    struct TypedAmount { let value: Decimal? }
    static func quantity(_ text: String?) -> TypedAmount? {
        let typed = text?.trimmed ?? ""
        if typed.isEmpty { return TypedAmount(value: nil) }
        guard let value = Decimal(typed: typed) else { return nil }
        return TypedAmount(value: value)
    }

    @Sendable func index(req: Request) async throws -> Response {
        try await listsPage(req, message: nil).response()
    }

    private func listsPage(_ req: Request, message: String?, from: CalendarDate? = nil, to: CalendarDate? = nil) async throws -> HTML {
        let user = try req.webUser
        let cursor = try await req.changesCursor()
        let shopping = try req.owner.shopping
        let shown = try await shopping.lists(page: try Paging(per: 100)).items
        let counts = try await shopping.counts(of: shown.map(\.id))
        let today = user.today(now: req.now)
        let page = ShoppingListsPage(rows: shown.map { .init(list: $0, items: counts[$0.id]?.items ?? 0, checked: counts[$0.id]?.checked ?? 0) },
                                     from: from ?? today, to: to ?? today.adding(days: WeekWindow.defaultLength - 1), csrf: CSRF.token(for: req), message: message)
        return page.render(layout: req.layout("Shopping", .shopping, cursor: cursor))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let form = FormData(req)
        let from = form["from"].flatMap(CalendarDate.init(input:)), to = form["to"].flatMap(CalendarDate.init(input:))
        guard let from, let to else {
            return try await listsPage(req, message: "Give the first and the last day as dates.").response(status: .unprocessableEntity)
        }
        if form["week"] == "1", let answer = try await weekList(req, from: from, to: to) { return answer }
        do {
            let contents = try await req.owner.makeShoppingList(from: from, to: to, name: form["name"], id: req.dependencies.uuid())
            req.flash("Made “\(contents.list.name)”: \(contents.items.count) item\(contents.items.count == 1 ? "" : "s").")
            return req.redirect(to: SiteURL.shoppingList(contents.list.id).path, redirectType: .normal)
        } catch let errors as ValidationError {
            return try await listsPage(req, message: errors.summary, from: from, to: to).response(status: .unprocessableEntity)
        }
    }

    /// The planner's Shopping list button: the week's list read from the plan again when there is
    /// one (a second tap made a second, identical list), and no empty list for a week with nothing
    /// planned. Nil: make the list.
    private func weekList(_ req: Request, from: CalendarDate, to: CalendarDate) async throws -> Response? {
        let owner = try req.owner
        if let existing = try await owner.shopping.lists(page: nil).items.first(where: { $0.from == from && $0.to == to }),
           let contents = try await owner.refreshShoppingList(existing.id) {
            req.flash("“\(contents.list.name)” read from the plan again: \(contents.items.count) item\(contents.items.count == 1 ? "" : "s").")
            return req.redirect(to: SiteURL.shoppingList(existing.id).path, redirectType: .normal)
        }
        guard try await owner.plan.entries(from: from, to: to).isEmpty else { return nil }
        req.flash("Nothing is planned for \(CalendarDate.rangeText(from: from, to: to)) yet, so there is nothing to buy.")
        return req.redirect(to: SiteURL.plan(start: from).path, redirectType: .normal)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "shopping list")
        return try await page(req, id, shareURL: nil).response()
    }

    /// The list's page, or its rows alone (the `items` fragment).
    private func page(_ req: Request, _ id: UUID, shareURL: String?, message: String? = nil) async throws -> HTML {
        let user = try req.webUser
        let cursor = req.fragment("items") ? nil : try await req.changesCursor()
        guard let contents = try await ShoppingController.contents(id, owner: try req.owner) else {
            throw AppError.notFound("That shopping list does not exist (any more).")
        }
        var page = ShoppingListPage(contents: contents, currency: user.currency, csrf: CSRF.token(for: req),
                                    shareURL: shareURL ?? contents.list.shareToken.map { req.publicBaseURL + SiteURL.sharedList($0).path }, message: message)
        if req.fragment("items") { return page.items }
        let planned = try await req.owner.plan.entries(from: contents.list.from, to: contents.list.to)
        let foods = try await req.owner.foods.find(ids: Array(Set(planned.flatMap { $0.meal.ingredients.map(\.foodId) })))
        page.uncounted = ShoppingPlan.uncounted(planned, foods: Set(foods.keys))
        return page.render(layout: req.layout(contents.list.name, .shopping, scripts: [SiteURL.script("shopping").path], cursor: cursor))
    }

    @Sendable func refresh(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "shopping list")
        guard let contents = try await req.owner.refreshShoppingList(id) else { throw AppError.notFound("That shopping list does not exist (any more).") }
        req.flash("Read the plan again: \(contents.items.count) item\(contents.items.count == 1 ? "" : "s").")
        return req.redirect(to: SiteURL.shoppingList(id).path, redirectType: .normal)
    }

    @Sendable func add(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "shopping list")
        let form = FormData(req)
        guard let typed = Self.quantity(form["quantity"]) else {
            return try await page(req, id, shareURL: nil, message: "How much must be a number (like 2 or 0.5).").response(status: .unprocessableEntity)
        }
        let quantity = typed.value
        do {
            guard let item = try await req.owner.addShoppingItem(to: id, name: form["name"] ?? "", quantity: quantity, unit: form["unit"],
                                                                 category: nil, id: req.dependencies.uuid()) else {
                throw AppError.notFound("That shopping list does not exist (any more).")
            }
            req.flash("Added “\(item.name)”.")
            return req.redirect(to: SiteURL.shoppingList(id).path + "#item-\(item.id.uuidString)", redirectType: .normal)
        } catch let errors as ValidationError {
            return try await page(req, id, shareURL: nil, message: errors.summary).response(status: .unprocessableEntity)
        }
    }

    @Sendable func share(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "shopping list")
        guard try await req.owner.shareShoppingList.share(id, newToken: Tokens.generate()) != nil else {
            throw AppError.notFound("That shopping list does not exist (any more).")
        }
        req.flash("Shared: copy the link below and send it to whoever shops.")
        return req.redirect(to: SiteURL.shoppingList(id).path, redirectType: .normal)
    }

    @Sendable func unshare(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "shopping list")
        guard try await req.owner.shareShoppingList.revoke(id) else { throw AppError.notFound("That shopping list does not exist (any more).") }
        req.flash("The link no longer works.")
        return req.redirect(to: SiteURL.shoppingList(id).path, redirectType: .normal)
    }

    @Sendable func deleteList(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "shopping list")
        guard try await req.owner.deleteShoppingList(id) else { throw AppError.notFound("That shopping list was already deleted.") }
        req.flash("List deleted.")
        return req.redirect(to: SiteURL.shopping.path, redirectType: .normal)
    }

    @Sendable func check(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "item")
        let checked = try FormData(req).flag("checked")
        guard let item = try await req.owner.changeShoppingItem(id, ShoppingItemChange(checked: checked)) else {
            throw AppError.notFound("That item is no longer on the list.")
        }
        if req.fragment("items") { return try await page(req, item.listId, shareURL: nil).response() }
        return req.redirect(to: SiteURL.shoppingList(item.listId).path + "#item-\(id.uuidString)", redirectType: .normal)
    }

    @Sendable func deleteItem(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "item")
        guard let item = try await req.owner.deleteShoppingItem(id) else { throw AppError.notFound("That item is no longer on the list.") }
        req.flash("Took “\(item.name)” off the list.")
        return req.redirect(to: SiteURL.shoppingList(item.listId).path, redirectType: .normal)
    }
}

/// The page a sharing link opens, for anyone: the list, and checking its items off. No account,
/// no navigation, nothing else of the owner's; an unknown or revoked token is a plain 404.
struct WebSharedShoppingController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.sharedList(":token"), use: show)
        routes.post(SiteURL.sharedCheck(":token", SiteURL.anyID), use: check)
    }

    private func token(_ req: Request) -> String { req.parameters.get("token") ?? "" }

    private func render(_ req: Request, _ shared: SharedShopping, token: String) async throws -> Response {
        guard let contents = try await shared.contents() else { throw ShoppingController.noShare }
        let page = ShoppingListPage(contents: contents, currency: shared.currency, csrf: CSRF.token(for: req), sharedToken: token)
        if req.fragment("items") { return page.items.response() }
        let layout = Layout(title: contents.list.name, section: .none, csrf: CSRF.token(for: req), signedIn: false,
                            scripts: [SiteURL.script("shopping").path])
        let response = page.render(layout: layout).response()
        for (name, value) in ShoppingController.sharedHeaders { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }

    @Sendable func show(req: Request) async throws -> Response {
        let token = token(req)
        guard let shared = try await SharedShopping.open(token, req) else { throw ShoppingController.noShare }
        return try await render(req, shared, token: token)
    }

    @Sendable func check(req: Request) async throws -> Response {
        let token = token(req)
        let id = try req.idParameter(what: "item")
        guard let shared = try await SharedShopping.open(token, req) else { throw ShoppingController.noShare }
        guard try await shared.check(id, try FormData(req).flag("checked")) != nil else { throw ShoppingController.noItem(id) }
        if req.fragment("items") { return try await render(req, shared, token: token) }
        return req.redirect(to: SiteURL.sharedList(token).path + "#item-\(id.uuidString)", redirectType: .normal)
    }
}
