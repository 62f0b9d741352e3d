import ForkcastContract
import ForkcastCore
import Foundation
import Vapor

/// Nutrition values in JSON: grams (kcal for energy), null where unknown.
struct NutrientsDTO: Content {
    var energyKcal: Decimal?
    var protein: Decimal?
    var carbohydrates: Decimal?
    var fat: Decimal?
    var fiber: Decimal?
    var sugars: Decimal?
    var saturatedFat: Decimal?
    var salt: Decimal?

    init(_ n: Nutrients, places: Int? = nil) {
        func r(_ v: Decimal?) -> Decimal? { places.map { p in v.map { $0.rounded(p) } } ?? v }
        energyKcal = r(n.energyKcal); protein = r(n.protein); carbohydrates = r(n.carbohydrates); fat = r(n.fat)
        fiber = r(n.fiber); sugars = r(n.sugars); saturatedFat = r(n.saturatedFat); salt = r(n.salt)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(energyKcal, forKey: .energyKcal); try c.encode(protein, forKey: .protein)
        try c.encode(carbohydrates, forKey: .carbohydrates); try c.encode(fat, forKey: .fat)
        try c.encode(fiber, forKey: .fiber); try c.encode(sugars, forKey: .sugars)
        try c.encode(saturatedFat, forKey: .saturatedFat); try c.encode(salt, forKey: .salt)
    }
}

/// A Food in JSON.
struct FoodDTO: Content {
    struct ServingDTO: Content { var size: Decimal; var unit: String; var label: String? }
    struct PriceDTO: Content { var amount: Decimal; var per: String; var packageSize: Decimal?; var currency: String }

    var id: UUID?
    var name: String
    var brand: String?
    var barcode: String?
    var basis: String
    var per100: NutrientsDTO
    var serving: ServingDTO?
    var portion: String?
    var price: PriceDTO?
    var icon: String
    var source: String
    var warnings: [String]
    /// What an amount left empty on a plate means for this food (one serving, else 100 g or ml).
    var usualPortion: PortionDTO?
    struct PortionDTO: Content { var quantity: Decimal; var unit: String }
    var createdAt: Date?
    var updatedAt: Date?

    init(_ food: Food, currency: String) {
        id = food.id
        name = food.name
        brand = food.brand
        barcode = food.barcode?.digits
        basis = food.basis.rawValue
        per100 = NutrientsDTO(food.per100)
        serving = food.serving.map { ServingDTO(size: $0.size, unit: $0.unit.rawValue, label: $0.label) }
        portion = food.portion
        price = food.price.map { PriceDTO(amount: $0.amount, per: $0.per.rawValue, packageSize: $0.packageSize, currency: currency) }
        icon = food.icon.rawValue
        usualPortion = PortionDTO(quantity: food.usualPortion.quantity, unit: food.usualPortion.unit.rawValue)
        source = food.source.rawValue
        warnings = food.warnings
        createdAt = food.createdAt
        updatedAt = food.updatedAt
    }

    /// An Open Food Facts product not yet saved: no id or timestamps.
    init(preview draft: FoodDraft, currency: String) {
        let food = (try? FoodLookupService.importable(draft).validated()) ?? Food(name: draft.name, basis: draft.basis, source: .openFoodFacts)
        self.init(food, currency: currency)
        id = nil
        createdAt = nil
        updatedAt = nil
        barcode = draft.barcode
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(brand, forKey: .brand)
        try c.encode(barcode, forKey: .barcode); try c.encode(basis, forKey: .basis); try c.encode(per100, forKey: .per100)
        try c.encode(serving, forKey: .serving); try c.encode(portion, forKey: .portion); try c.encode(price, forKey: .price)
        try c.encode(icon, forKey: .icon); try c.encode(source, forKey: .source); try c.encode(warnings, forKey: .warnings); try c.encodeIfPresent(usualPortion, forKey: .usualPortion)
        try c.encode(createdAt, forKey: .createdAt); try c.encode(updatedAt, forKey: .updatedAt)
    }
}

/// `POST/PUT /api/v1/foods` body.
struct FoodInput: Content {
    struct Per100: Content {
        var energyKcal: Decimal?; var energyKj: Decimal?; var protein: Decimal?; var carbohydrates: Decimal?; var fat: Decimal?
        var fiber: Decimal?; var sugars: Decimal?; var saturatedFat: Decimal?; var salt: Decimal?
    }
    struct ServingInput: Content { var size: Decimal; var unit: String?; var label: String? }
    struct PriceInput: Content { var amount: Decimal; var per: String?; var packageSize: Decimal? }

    var name: String
    var brand: String?
    var barcode: String?
    var basis: String?
    var per100: Per100?
    var serving: ServingInput?
    var portion: String?
    var price: PriceInput?
    var icon: String?
    var source: String?

    func draft() throws -> FoodDraft {
        var problems: [ValidationError.Field] = []
        let basis = NutritionBasis(rawValue: self.basis ?? "g")
        if basis == nil { problems.append(.init(field: "basis", message: "basis must be \"g\" or \"ml\".")) }
        let icon = FoodIcon(rawValue: self.icon ?? "generic")
        if icon == nil { problems.append(.init(field: "icon", message: "icon must be one of: \(FoodIcon.allCases.map(\.rawValue).joined(separator: ", ")).")) }
        let source = FoodSource(rawValue: self.source ?? "custom")
        if source == nil { problems.append(.init(field: "source", message: "source must be \"custom\" or \"openfoodfacts\".")) }
        var servingUnit = basis ?? .gram
        if let unit = serving?.unit {
            if let u = NutritionBasis(rawValue: unit) { servingUnit = u } else {
                problems.append(.init(field: "serving.unit", message: "serving.unit must be \"g\" or \"ml\"."))
            }
        }
        var per: Price.Per = .package
        if let raw = price?.per {
            if let p = Price.Per(rawValue: raw) { per = p } else {
                problems.append(.init(field: "price.per", message: "price.per must be \"package\" or \"serving\"."))
            }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let p = per100
        return FoodDraft(
            name: name, brand: brand, barcode: barcode, basis: basis!,
            per100: Nutrients(energyKcal: p?.energyKcal, protein: p?.protein, carbohydrates: p?.carbohydrates, fat: p?.fat,
                              fiber: p?.fiber, sugars: p?.sugars, saturatedFat: p?.saturatedFat, salt: p?.salt),
            energyKj: p?.energyKj,
            serving: serving.map { Serving(size: $0.size, unit: servingUnit, label: $0.label) },
            portion: portion, price: price.map { Price(amount: $0.amount, per: per, packageSize: $0.packageSize) },
            icon: icon!, source: source!)
    }
}

struct FoodPage: Content {
    var items: [FoodDTO]
    var metadata: PageMetadata
}

/// `GET /api/v1/foods/barcode/{code}`: where the food was found and the food (id null when it is an
/// Open Food Facts product not yet imported).
struct BarcodeLookupDTO: Content {
    var origin: String
    var food: FoodDTO
}

struct OpenFoodFactsSearchDTO: Content {
    var items: [FoodDTO]
}

struct ImportInput: Content {
    var barcode: String
}
