import Fluent
import ForkcastApp
import ForkcastCore
import Vapor

/// The Pantry page: the household's lots, adding, using, changing and removing one.
struct WebPantryController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.pantry, use: index)
        routes.post(SiteURL.addPantryItem, use: add)
        routes.post(SiteURL.addPantryBarcode, use: addByBarcode)
        routes.post(SiteURL.updatePantryItem(SiteURL.anyID), use: update)
        routes.post(SiteURL.usePantryItem(SiteURL.anyID), use: use)
        routes.post(SiteURL.deletePantryItem(SiteURL.anyID), use: delete)
    }

    private func page(_ req: Request, message: String? = nil, lot: UUID? = nil) async throws -> HTML {
        let owner = try req.owner
        let cursor = try await req.changesCursor()
        let foods = try await owner.foods.list(query: nil, page: try Paging(per: Paging.maximumPer)).items
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        let page = PantryPage(view: try await PantryView.read(owner), foods: foods, cookable: try await PantryView.cookable(owner),
                              currency: try req.webUser.currency,
                              csrf: CSRF.token(for: req), message: message, failedLot: lot)
        return page.render(layout: req.layout("Pantry", .shopping, cursor: cursor))
    }

    @Sendable func index(req: Request) async throws -> Response {
        try await page(req).response()
    }

    /// The lot a form describes; nil when the amount is not a number or the food no id.
    private func input(_ form: FormData) -> PantryInput? {
        guard let food = form["foodId"].flatMap(UUID.init(uuidString:)),
              let amount = form["amount"].flatMap({ Decimal(typed: $0.trimmed) }) else { return nil }
        return PantryInput(foodId: food, amount: amount, unit: form["unit"], location: form["location"],
                           bestBefore: form["bestBefore"].flatMap(CalendarDate.init(input:)), opened: form["opened"] == "1")
    }

    /// A refused form: the page again with the message beside the form that was sent.
    private func refused(_ req: Request, _ error: any Error, lot: UUID?) async throws -> Response {
        let message: String
        if let errors = error as? ValidationError {
            message = errors.summary
        } else if case .missingReference(_, let detail)? = error as? Refusal {
            message = detail
        } else if let error = error as? AppError, [.notFound, .serviceUnavailable].contains(error.status) {
            return try await page(req, message: error.problem.detail, lot: lot).response(status: error.status)
        } else {
            throw error
        }
        return try await page(req, message: message, lot: lot).response(status: .unprocessableEntity)
    }

    private static let notANumber = "How much must be a number above 0 (like 500 or 1.5)."

    @Sendable func add(req: Request) async throws -> Response {
        guard let input = input(FormData(req)) else {
            return try await page(req, message: Self.notANumber).response(status: .unprocessableEntity)
        }
        do {
            let lot = try await req.owner.stockPantry.add(input, id: req.dependencies.uuid())
            req.flash("Added to the pantry.")
            return req.redirect(to: SiteURL.pantry.path + "#lot-\(lot.id.uuidString)", redirectType: .normal)
        } catch {
            return try await refused(req, error, lot: nil)
        }
    }

    /// A pack by its barcode: with no amount, the pack size on its label.
    @Sendable func addByBarcode(req: Request) async throws -> Response {
        let form = FormData(req)
        let typed = form["amount"]?.trimmed ?? ""
        let amount = typed.isEmpty ? nil : Decimal(typed: typed)
        if !typed.isEmpty, amount == nil { return try await page(req, message: Self.notANumber).response(status: .unprocessableEntity) }
        do {
            let lot = try await req.owner.stockPantry(barcode: form["barcode"]?.trimmed ?? "", amount: amount, unit: form["unit"],
                                                      location: form["location"], bestBefore: form["bestBefore"].flatMap(CalendarDate.init(input:)),
                                                      opened: form["opened"] == "1", id: req.dependencies.uuid(), foodID: req.dependencies.uuid())
            req.flash("Added \(PantryPage.amount(lot)) to the pantry.")
            return req.redirect(to: SiteURL.pantry.path + "#lot-\(lot.id.uuidString)", redirectType: .normal)
        } catch {
            return try await refused(req, error, lot: nil)
        }
    }

    @Sendable func update(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "pantry lot")
        guard let input = input(FormData(req)) else {
            return try await page(req, message: Self.notANumber, lot: id).response(status: .unprocessableEntity)
        }
        do {
            guard try await req.owner.stockPantry.change(id, to: input) != nil else { throw gone }
            req.flash("Saved.")
            return req.redirect(to: SiteURL.pantry.path + "#lot-\(id.uuidString)", redirectType: .normal)
        } catch {
            return try await refused(req, error, lot: id)
        }
    }

    @Sendable func use(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "pantry lot")
        let form = FormData(req)
        guard let amount = form["amount"].flatMap({ Decimal(typed: $0.trimmed) }) else {
            return try await page(req, message: Self.notANumber, lot: id).response(status: .unprocessableEntity)
        }
        let reason = PantryUseReason(rawValue: form["reason"] ?? "") ?? .eaten
        do {
            guard let left = try await req.owner.usePantryItem(id, amount: amount, unit: form["unit"], reason: reason) else { throw gone }
            let what = reason == .discarded ? "Counted as thrown away" : "Taken out"
            req.flash(left.amount > 0 ? "\(what); \(ShoppingAmount.text(quantity: left.amount, unit: left.unit.rawValue) ?? "some") left." : "\(what); that lot is used up.")
            return req.redirect(to: SiteURL.pantry.path, redirectType: .normal)
        } catch {
            return try await refused(req, error, lot: id)
        }
    }

    @Sendable func delete(req: Request) async throws -> Response {
        let id = try req.idParameter(what: "pantry lot")
        guard try await req.owner.stockPantry.remove(id) != nil else { throw gone }
        req.flash("Removed.")
        return req.redirect(to: SiteURL.pantry.path, redirectType: .normal)
    }

    private var gone: AppError { AppError.notFound("That lot is no longer in the pantry.") }
}
