import Fluent
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/foods`: the food library, barcode lookup and Open Food Facts search and import, as
/// ForkcastContract's ``Foods`` operations.
enum FoodsController {
    static func register(_ routes: OperationRoutes) {
        routes.on(Foods.List.self) { req, query, _ in
            let user = try req.requireUser()
            let page = try req.paging(query.paging)
            let foods = try req.owner.foods
            return try await req.application.readCache.answer(req, owner: try req.owner.id, today: user.today(now: req.now)) {
                let result = try await foods.list(query: query.q, page: page)
                return Page(items: result.items.map { FoodAnswer($0, currency: user.currency) },
                            metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
            }
        }
        routes.on(Foods.Create.self) { req, _, input in
            let saved = try await req.owner.saveFood.add(try input.draft(), id: req.dependencies.uuid())
            return .value(FoodAnswer(saved, currency: try req.requireUser().currency), headers: location(saved.id))
        }
        routes.on(Foods.Get.self) { req, parameters, _ in
            guard let food = try await req.owner.foods.find(parameters.id) else { throw notFound(parameters.id) }
            return FoodAnswer(food, currency: try req.requireUser().currency)
        }
        routes.on(Foods.Update.self) { req, parameters, input in
            guard let saved = try await req.owner.saveFood.change(try input.draft(), id: parameters.id) else { throw notFound(parameters.id) }
            return FoodAnswer(saved, currency: try req.requireUser().currency)
        }
        routes.on(Foods.Delete.self) { req, parameters, _ in
            guard try await req.owner.deleteFood(parameters.id) != nil else { throw notFound(parameters.id) }
            return Nothing()
        }
        routes.on(Foods.LookUpBarcode.self) { req, parameters, _ in
            let currency = try req.requireUser().currency
            guard let code = Barcode(parameters.code) else {
                throw AppError.badRequest("\"\(parameters.code.prefix(20))\" is not a barcode: \(Barcode.rule).")
            }
            do {
                switch try await req.owner.foodLookup.lookup(code) {
                case .local(let food): return BarcodeLookup(origin: .local, food: FoodAnswer(food, currency: currency))
                case .product(let draft): return BarcodeLookup(origin: .openfoodfacts, food: FoodAnswer(preview: draft, currency: currency))
                case .notFound: throw AppError.notFound("No food with barcode \(code.digits) in your foods or on Open Food Facts.")
                }
            } catch let failure as OpenFoodFactsClient.Failure {
                throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
            }
        }
        routes.on(Foods.SearchOpenFoodFacts.self) { req, query, _ -> Reply<OpenFoodFactsSearch> in
            let currency = try req.requireUser().currency
            let text = query.q?.trimmed ?? ""
            guard text.count >= CatalogSearch.minimumQueryLength else {
                throw AppError.badRequest("Give at least \(CatalogSearch.minimumQueryLength) characters to search Open Food Facts for (q=).")
            }
            do {
                let drafts = try await req.application.openFoodFacts.search(text)
                return .value(OpenFoodFactsSearch(items: drafts.map { FoodAnswer(preview: $0, currency: currency) }))
            } catch let failure as OpenFoodFactsClient.Failure {
                throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
            }
        }
        routes.on(Foods.Catalog.self) { req, query, _ in
            let text = query.q?.trimmed ?? ""
            guard text.count >= CatalogSearch.minimumQueryLength else {
                throw AppError.badRequest("Give at least \(CatalogSearch.minimumQueryLength) characters to search the catalogue for (q=).")
            }
            guard text.count <= CatalogSearch.maximumQueryLength else {
                throw AppError.badRequest("Search for at most \(CatalogSearch.maximumQueryLength) characters (q=).")
            }
            let page = try req.paging(query.paging)
            let result = try await req.application.foodCatalog.search(text, page: page)
            let adopted = try await req.owner.foods.adopted(among: result.items.map(\.catalogId))
            return Page(items: result.items.map { CatalogFoodAnswer($0, foodId: adopted[$0.catalogId]) },
                        metadata: PageMetadata(page: page.page, per: page.per, total: result.total))
        }
        routes.on(Foods.CatalogEntry.self) { req, parameters, _ in
            guard FoodDataCentral.isCatalogId(parameters.catalogId), let food = try await req.application.foodCatalog.find(parameters.catalogId) else {
                throw AppError.notFound("The catalogue has no food \(parameters.catalogId.prefix(40)).")
            }
            return CatalogFoodAnswer(food, foodId: try await req.owner.foods.adopted(among: [food.catalogId])[food.catalogId])
        }
        routes.on(NutrientDefinitions.List.self) { _, _, _ in NutrientList() }
        routes.on(Foods.Import.self) { req, _, input in
            let currency = try req.requireUser().currency
            let barcode: String
            switch (input.barcode, input.catalogId) {
            case (nil, let catalogId?):
                let result = try await req.owner.adoptCatalogFood.adopt(catalogId, id: req.dependencies.uuid())
                return .value(FoodAnswer(result.food, currency: currency), headers: location(result.food.id),
                              status: result.created ? .created : .ok)
            case (let given?, nil): barcode = given
            default:
                throw AppError.validation(ValidationError(field: "catalogId", "Give either barcode (an Open Food Facts product) or catalogId (a catalogue food)."))
            }
            guard let code = Barcode(barcode) else {
                throw AppError.validation(ValidationError(field: "barcode", "\"\(barcode.prefix(20))\" is not a barcode."))
            }
            do {
                guard let result = try await req.owner.foodLookup.importProduct(code, id: req.dependencies.uuid()) else {
                    throw AppError.notFound("Open Food Facts has no product with barcode \(code.digits).")
                }
                return .value(FoodAnswer(result.food, currency: currency), headers: location(result.food.id),
                              status: result.created ? .created : .ok)
            } catch let failure as OpenFoodFactsClient.Failure {
                throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
            }
        }
    }

    private static func location(_ id: UUID) -> HTTPHeaders {
        ["Location": Foods.Get.path.filled(["id": id.uuidString])]
    }

    private static func notFound(_ id: UUID) -> AppError {
        .notFound("No food with id \(id) exists in your account.")
    }
}

extension FoodAnswer {
    /// An Open Food Facts product not yet saved: no id or timestamps.
    init(preview draft: FoodDraft, currency: String) {
        let food = (try? draft.importable().validated()) ?? Food(name: draft.name, basis: draft.basis, source: .openFoodFacts)
        self.init(food, currency: currency)
        id = nil
        createdAt = nil
        updatedAt = nil
        barcode = draft.barcode
    }
}

extension OpenFoodFactsClient.Failure {
    var retryAfter: Int? {
        if case .throttled(let seconds) = self { return seconds }
        return nil
    }
}
