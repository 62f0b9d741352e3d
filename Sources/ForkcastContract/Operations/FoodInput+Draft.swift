import ForkcastCore
import Foundation

extension FoodInput {
    /// The food this input describes, every field checked for a value it can be (the draft's own
    /// checks, in ``SaveFood``, judge the numbers). Throws ``ValidationError`` naming each field.
    public func draft() throws -> FoodDraft {
        var problems: [ValidationError.Field] = []
        let basis = NutritionBasis(rawValue: self.basis ?? "g")
        if basis == nil { problems.append(.init(field: "basis", message: "basis must be \"g\" or \"ml\".")) }
        let icon = FoodIcon(rawValue: self.icon ?? "generic")
        if icon == nil { problems.append(.init(field: "icon", message: "icon must be one of: \(FoodIcon.allCases.map(\.rawValue).joined(separator: ", ")).")) }
        let source = FoodSource(rawValue: self.source ?? "custom")
        if source == nil { problems.append(.init(field: "source", message: "source must be one of: \(FoodSource.allCases.map(\.rawValue).joined(separator: ", ")).")) }
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
            per100: p?.nutrients ?? Nutrients(),
            energyKj: p?.energyKj,
            serving: serving.map { Serving(size: $0.size, unit: servingUnit, label: $0.label) },
            portion: portion, price: price.map { Price(amount: $0.amount, per: per, packageSize: $0.packageSize) },
            icon: icon!, source: source!)
    }
}
