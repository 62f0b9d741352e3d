import Fluent
import ForkcastApp
import ForkcastContract
import ForkcastCore
import Vapor

/// `/api/v1/pantry`: the household's pantry, as ForkcastContract's ``Pantry`` operations.
enum PantryController {
    static func register(_ routes: OperationRoutes) {
        registerCooking(routes)
        routes.on(Pantry.List.self) { req, _, _ in
            let view = try await PantryView.read(try req.owner)
            return PantryAnswer(items: view.lots.map { PantryItemAnswer($0, food: view.name(of: $0)) },
                                waste: PantryWasteAnswer(since: view.since, grams: view.waste.grams, milliliters: view.waste.milliliters,
                                                         cost: view.waste.cost.rounded(2)))
        }
        routes.on(Pantry.Add.self) { req, _, input in
            let owner = try req.owner
            let lot = try await owner.stockPantry.add(input.app, id: req.dependencies.uuid())
            return .value(try await answer(lot, owner))
        }
        routes.on(Pantry.AddByBarcode.self) { req, _, input in
            let owner = try req.owner
            let lot = try await owner.stockPantry(barcode: input.barcode, amount: input.amount, unit: input.unit, location: input.location,
                                                  bestBefore: input.bestBefore, opened: input.opened ?? false,
                                                  id: req.dependencies.uuid(), foodID: req.dependencies.uuid())
            return .value(try await answer(lot, owner))
        }
        routes.on(Pantry.Update.self) { req, parameters, input in
            let owner = try req.owner
            guard let lot = try await owner.stockPantry.change(parameters.id, to: input.app) else { throw noLot(parameters.id) }
            return try await answer(lot, owner)
        }
        routes.on(Pantry.Delete.self) { req, parameters, _ in
            guard try await req.owner.stockPantry.remove(parameters.id) != nil else { throw noLot(parameters.id) }
            return Nothing()
        }
        routes.on(Pantry.Use.self) { req, parameters, input in
            let owner = try req.owner
            guard let lot = try await owner.usePantryItem(parameters.id, amount: input.amount, unit: input.unit, reason: input.reason) else {
                throw noLot(parameters.id)
            }
            return try await answer(lot, owner)
        }
    }

    static func registerCooking(_ routes: OperationRoutes) {
        routes.on(Plan.Cooked.self) { req, parameters, _ in
            guard let cooked = try await req.owner.cookFromPantry(parameters.id) else {
                throw AppError.notFound("No assignment with id \(parameters.id) exists in your plan.")
            }
            return CookedAnswer(cooked)
        }
        routes.on(Meals.Cookable.self) { req, _, _ in
            let found = try await PantryView.cookable(try req.owner)
            return CookableAnswer(items: found.map { .init(mealId: $0.meal.id, meal: $0.meal.description, missing: $0.missing) })
        }
    }

    static func answer(_ lot: PantryItem, _ owner: Owner) async throws -> PantryItemAnswer {
        PantryItemAnswer(lot, food: try await owner.foods.find(lot.foodId)?.name ?? "")
    }

    static func noLot(_ id: UUID) -> AppError { AppError.notFound("No lot with id \(id) is in your household's pantry.") }
}

/// The pantry as its page and the API show it: lots in the order they are used, their foods, and
/// this month's waste.
struct PantryView {
    var lots: [PantryItem]
    var foods: [UUID: Food]
    var since: CalendarDate
    var today: CalendarDate
    var waste: (grams: Decimal, milliliters: Decimal, cost: Decimal)

    static func read(_ owner: Owner) async throws -> PantryView {
        let today = owner.user.today(now: owner.now)
        let since = PantryRules.monthStart(of: today)
        let lots = PantryRules.usingOrder(try await owner.pantry.items())
        let uses = try await owner.pantry.uses(since: since.instant(in: owner.user.zone))
        return PantryView(lots: lots, foods: try await owner.foods.find(ids: Array(Set(lots.map(\.foodId)))), since: since, today: today,
                          waste: PantryRules.waste(uses))
    }

    /// What can be cooked from the pantry now (``PantryRules/cookable(_:foods:stock:)``).
    static func cookable(_ owner: Owner) async throws -> [PantryRules.Cookable] {
        let meals = try await owner.meals.all()
        var stock: [UUID: Decimal] = [:]
        for lot in try await owner.pantry.items() { stock[lot.foodId, default: 0] += lot.amount }
        guard !stock.isEmpty else { return [] }
        return PantryRules.cookable(meals, foods: try await owner.meals.foods(for: meals), stock: stock)
    }

    func name(of lot: PantryItem) -> String { foods[lot.foodId]?.name ?? "" }

    /// The lots that go off within ``PantryItem/soonDays`` (or went off): use them first.
    var soon: [PantryItem] { lots.filter { $0.useSoon(today: today) } }
}

extension PantryItemInput {
    var app: PantryInput {
        PantryInput(foodId: foodId, amount: amount, unit: unit, location: location, bestBefore: bestBefore, opened: opened ?? false)
    }
}

extension CookedAnswer {
    init(_ cooked: CookFromPantry.Cooked) {
        self.init(assignmentId: cooked.assignment.id, alreadyCooked: cooked.alreadyCooked,
                  lines: cooked.lines.map { PantryTakenAnswer(foodId: $0.foodId, food: $0.name, unit: $0.unit, needed: $0.needed, taken: $0.taken, short: $0.short) })
    }
}
