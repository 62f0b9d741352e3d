import Fluent
import ForkcastApp
import ForkcastCore
import Foundation

/// Finding foods by barcode and name: the user's own foods first, then the cache, then Open Food Facts.
struct FoodLookupService {
    let foods: FoodRepository
    /// How an imported product becomes one of the person's foods.
    let saveFood: SaveFood
    let client: OpenFoodFactsClient
    let db: any Database
    let now: Date

    static let foundLifetime: TimeInterval = 30 * 24 * 3600
    static let notFoundLifetime: TimeInterval = 24 * 3600

    enum Origin: String, Codable, Sendable { case local, openfoodfacts }

    enum Result {
        case local(Food)
        case product(FoodDraft)
        case notFound
    }

    /// Looks up a barcode. Throws `OpenFoodFactsClient.Failure` only when the product is neither
    /// local nor cached and Open Food Facts cannot answer.
    func lookup(_ barcode: Barcode) async throws -> Result {
        if let food = try await foods.find(barcode: barcode) { return .local(food) }
        if let cached = try await OpenFoodFactsCacheModel.query(on: db).filter(\.$barcode == barcode.digits).first() {
            let age = now.timeIntervalSince(cached.fetchedAt)
            if cached.found, age < Self.foundLifetime, let body = cached.body,
               case .found(let draft)? = try? OpenFoodFactsProduct.parseProduct(Data(body.utf8), requestedCode: barcode.digits) {
                return .product(draft)
            }
            if !cached.found, age < Self.notFoundLifetime { return .notFound }
        }
        do {
            let answer = try await client.product(barcode)
            try await remember(barcode, answer: answer)
            switch answer.lookup {
            case .found(let draft): return .product(draft)
            case .notFound: return .notFound
            }
        } catch {
            // Offline or throttled: an older cached answer is better than none.
            if let cached = try await OpenFoodFactsCacheModel.query(on: db).filter(\.$barcode == barcode.digits).first(),
               cached.found, let body = cached.body,
               case .found(let draft)? = try? OpenFoodFactsProduct.parseProduct(Data(body.utf8), requestedCode: barcode.digits) {
                return .product(draft)
            }
            throw error
        }
    }

    private func remember(_ barcode: Barcode, answer: (lookup: OpenFoodFactsProduct.Lookup, body: Data?)) async throws {
        let found: Bool = if case .found = answer.lookup { true } else { false }
        let body = answer.body.map { String(decoding: $0, as: UTF8.self) }
        let now = now
        try await db.write { db in
            if let existing = try await OpenFoodFactsCacheModel.query(on: db).filter(\.$barcode == barcode.digits).first() {
                existing.found = found
                existing.body = found ? body : nil
                existing.fetchedAt = now
                try await existing.update(on: db)
            } else {
                try await OpenFoodFactsCacheModel(barcode: barcode.digits, found: found, body: found ? body : nil, fetchedAt: now).create(on: db)
            }
        }
    }

    /// Makes an Open Food Facts product one of the user's foods (or returns the one that already has the barcode).
    func importProduct(_ barcode: Barcode, id: UUID) async throws -> (food: Food, created: Bool)? {
        switch try await lookup(barcode) {
        case .local(let food):
            return (food, false)
        case .notFound:
            return nil
        case .product(let draft):
            return (try await ImportProduct(saveFood: saveFood)(draft, barcode: barcode, id: id), true)
        }
    }
}
