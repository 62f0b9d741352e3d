import Fluent
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/foods`: the food library, barcode lookup and Open Food Facts search and import.
struct FoodsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let foods = routes.grouped("foods")
        foods.get(use: index)
        foods.post(use: create)
        foods.get("barcode", ":code", use: barcode)
        foods.get("search", "openfoodfacts", use: searchOpenFoodFacts)
        foods.post("import", use: importProduct)
        foods.get(":id", use: show)
        foods.put(":id", use: update)
        foods.delete(":id", use: delete)
    }

    @Sendable func index(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let query = req.queryParameters
        let page = try query.page()
        let text = query.string("q")
        let foods = try req.owner.foods
        return try await req.application.readCache.answer(req, owner: foods.ownerID, today: user.today(now: req.now)) {
            let result = try await foods.list(query: text, page: page)
            return FoodPage(items: result.items.map { FoodDTO($0, currency: user.currency) },
                            metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
        }
    }

    @Sendable func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let input = try req.decodeJSON(FoodInput.self)
        let saved = try await req.owner.saveFood.add(try input.draft(), id: req.dependencies.uuid())
        let response = Response(status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/foods/\(saved.id)")
        try response.content.encode(FoodDTO(saved, currency: user.currency))
        return response
    }

    @Sendable func show(req: Request) async throws -> FoodDTO {
        let user = try req.requireUser()
        let id = try req.idParameter(what: "food")
        guard let food = try await req.owner.foods.find(id) else { throw notFound(id) }
        return FoodDTO(food, currency: user.currency)
    }

    @Sendable func update(req: Request) async throws -> FoodDTO {
        let user = try req.requireUser()
        let id = try req.idParameter(what: "food")
        let input = try req.decodeJSON(FoodInput.self)
        guard let saved = try await req.owner.saveFood.change(try input.draft(), id: id) else { throw notFound(id) }
        return FoodDTO(saved, currency: user.currency)
    }

    @Sendable func delete(req: Request) async throws -> HTTPStatus {
        _ = try req.requireUser()
        let id = try req.idParameter(what: "food")
        guard try await req.owner.deleteFood(id) != nil else { throw notFound(id) }
        return .noContent
    }

    @Sendable func barcode(req: Request) async throws -> BarcodeLookupDTO {
        let user = try req.requireUser()
        let raw = req.parameters.get("code") ?? ""
        guard let code = Barcode(raw) else {
            throw AppError.badRequest("\"\(raw.prefix(20))\" is not a barcode: \(Barcode.rule).")
        }
        do {
            switch try await req.owner.foodLookup.lookup(code) {
            case .local(let food): return BarcodeLookupDTO(origin: "local", food: FoodDTO(food, currency: user.currency))
            case .product(let draft): return BarcodeLookupDTO(origin: "openfoodfacts", food: FoodDTO(preview: draft, currency: user.currency))
            case .notFound: throw AppError.notFound("No food with barcode \(code.digits) in your foods or on Open Food Facts.")
            }
        } catch let failure as OpenFoodFactsClient.Failure {
            throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
        }
    }

    @Sendable func searchOpenFoodFacts(req: Request) async throws -> OpenFoodFactsSearchDTO {
        let user = try req.requireUser()
        guard let text = req.queryParameters.string("q")?.trimmed, text.count >= 2 else {
            throw AppError.badRequest("Give at least 2 characters to search Open Food Facts for (q=).")
        }
        do {
            let drafts = try await req.application.openFoodFacts.search(text)
            return OpenFoodFactsSearchDTO(items: drafts.map { FoodDTO(preview: $0, currency: user.currency) })
        } catch {
            throw AppError.upstreamUnavailable(error.message, retryAfter: error.retryAfter)
        }
    }

    @Sendable func importProduct(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let input = try req.decodeJSON(ImportInput.self)
        guard let code = Barcode(input.barcode) else {
            throw AppError.validation(ValidationError(field: "barcode", "\"\(input.barcode.prefix(20))\" is not a barcode."))
        }
        do {
            guard let result = try await req.owner.foodLookup.importProduct(code, id: req.dependencies.uuid()) else {
                throw AppError.notFound("Open Food Facts has no product with barcode \(code.digits).")
            }
            let response = Response(status: result.created ? .created : .ok)
            response.headers.replaceOrAdd(name: .location, value: "/api/v1/foods/\(result.food.id)")
            try response.content.encode(FoodDTO(result.food, currency: user.currency))
            return response
        } catch let failure as OpenFoodFactsClient.Failure {
            throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
        }
    }

    private func notFound(_ id: UUID) -> AppError {
        .notFound("No food with id \(id) exists in your account.")
    }
}

extension OpenFoodFactsClient.Failure {
    var retryAfter: Int? {
        if case .throttled(let seconds) = self { return seconds }
        return nil
    }
}

