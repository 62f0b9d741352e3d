import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

extension Owner {
    /// A pack scanned into the pantry: the household's food with that barcode, or the Open Food
    /// Facts product made one (as Import does), stocked with `amount`, or else the pack size the
    /// product's label gives. The place, date and amount are checked before the product is
    /// imported. Throws ``ValidationError`` (`barcode`; `amount` when neither is known),
    /// ``AppError/notFound(_:)`` or ``AppError/upstreamUnavailable(_:retryAfter:service:)``.
    func stockPantry(barcode text: String, amount: Decimal?, unit: String?, location: String?, bestBefore: CalendarDate?, opened: Bool,
                     id: UUID, foodID: UUID) async throws -> PantryItem {
        guard let code = Barcode(text) else {
            throw ValidationError(field: "barcode", "\"\(text.prefix(20))\" is not a barcode: \(Barcode.rule).")
        }
        _ = try PantryRules.validated(location: location, bestBefore: bestBefore, today: user.today(now: now))
        if let amount, !PantryItem.amountRange.contains(amount) {
            throw ValidationError(field: "amount", "How much must be above 0 and at most 1,000,000; got \(amount).")
        }
        let lookup = foodLookup
        var lot = PantryInput(foodId: foodID, amount: amount ?? 0, unit: unit, location: location, bestBefore: bestBefore, opened: opened)
        do {
            // Found (and the pack size known) before anything is imported: a refusal leaves no food behind.
            let (name, basis): (String, NutritionBasis)
            switch try await lookup.lookup(code) {
            case .local(let food): (name, basis) = (food.name, food.basis)
            case .product(let draft): (name, basis) = (draft.name, draft.basis)
            case .notFound: throw AppError.notFound("No food with barcode \(code.digits) in your household or on Open Food Facts.")
            }
            if amount == nil {
                guard let pack = try await lookup.packSize(code, basis: basis) else {
                    throw ValidationError(field: "amount", "Open Food Facts gives no pack size for \(name.prefix(80)) in \(basis.rawValue): say how much.")
                }
                (lot.amount, lot.unit) = (pack, basis.rawValue)
            }
            guard let food = try await lookup.importProduct(code, id: foodID)?.food else {
                throw AppError.notFound("No food with barcode \(code.digits) in your household or on Open Food Facts.")
            }
            lot.foodId = food.id
        } catch let failure as OpenFoodFactsClient.Failure {
            throw AppError.upstreamUnavailable(failure.message, retryAfter: failure.retryAfter)
        }
        return try await stockPantry.add(lot, id: id)
    }
}

extension FoodLookupService {
    /// What one pack of `barcode` holds, in `basis`, from the Open Food Facts answer kept in the
    /// cache (a lookup or an import has just put it there).
    func packSize(_ barcode: Barcode, basis: NutritionBasis) async throws -> Decimal? {
        guard let body = try await OpenFoodFactsCacheModel.query(on: db).filter(\.$barcode == barcode.digits).first()?.body else { return nil }
        return OpenFoodFactsProduct.packSize(Data(body.utf8), basis: basis)
    }
}
