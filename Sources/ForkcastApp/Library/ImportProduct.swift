import ForkcastCore
import Foundation

/// Making an Open Food Facts product one of the person's foods (the API's import, the Foods page's
/// barcode): the product as published, with what breaks a rule dropped (``FoodDraft/importable(barcode:)``),
/// saved through ``SaveFood``. Finding the product (the person's own foods, the cache, Open Food
/// Facts) is the server's integration; this is the change.
public struct ImportProduct: Sendable {
    let saveFood: SaveFood

    public init(saveFood: SaveFood) { self.saveFood = saveFood }

    public func callAsFunction(_ product: FoodDraft, barcode: Barcode, id: UUID) async throws -> Food {
        try await saveFood.add(product.importable(barcode: barcode), id: id)
    }
}
