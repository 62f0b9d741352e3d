import Foundation

/// What a person (or an import) gives to create or edit a food, before validation.
public struct FoodDraft: Sendable, Equatable {
    public var name: String
    public var brand: String?
    public var barcode: String?
    public var basis: NutritionBasis
    public var per100: Nutrients
    /// Energy given in kilojoules instead of kilocalories (1 kcal = 4.184 kJ).
    public var energyKj: Decimal?
    public var serving: Serving?
    public var portion: String?
    public var price: Price?
    public var icon: FoodIcon
    public var source: FoodSource
    /// The catalogue food this draft adopts (kept by every later change).
    public var catalogId: String?

    public init(name: String, brand: String? = nil, barcode: String? = nil, basis: NutritionBasis = .gram,
                per100: Nutrients = Nutrients(), energyKj: Decimal? = nil, serving: Serving? = nil, portion: String? = nil,
                price: Price? = nil, icon: FoodIcon = .generic, source: FoodSource = .custom, catalogId: String? = nil) {
        self.name = name
        self.brand = brand
        self.barcode = barcode
        self.basis = basis
        self.per100 = per100
        self.energyKj = energyKj
        self.serving = serving
        self.portion = portion
        self.price = price
        self.icon = icon
        self.source = source
        self.catalogId = catalogId
    }

    public static let maximumNameLength = 120
    /// How far stated energy may differ from 4/4/9 kcal per gram of protein/carbohydrate/fat before
    /// it is flagged: 20 % or 20 kcal, whichever is larger (fibre, alcohol and polyols add energy).
    public static let energyTolerance: Decimal = Decimal(string: "0.2")!

    /// Checks and normalises every field. Amounts cannot be negative; macros per 100 g cannot
    /// exceed 100 g; sugars cannot exceed carbohydrates nor saturated fat exceed fat.
    /// `asPublished`: the nutrition comes from a published source (the catalogue) and is taken as it
    /// is, its own rounding included ("Milk, whole": sugars 4.8 g, carbohydrates 4.6 g); only what a
    /// person types is held to the rules that relate one value to another.
    public func validated(id: UUID = UUID.timeOrdered(), createdAt: Date = Date(), now: Date = Date(),
                          asPublished: Bool = false) throws(ValidationError) -> Food {
        var problems: [ValidationError.Field] = []
        func problem(_ field: String, _ message: String) { problems.append(.init(field: field, message: message)) }

        let name = self.name.trimmed
        if name.isEmpty { problem("name", "Name is required, e.g. \"Rolled oats\".") }
        else if name.count > Self.maximumNameLength { problem("name", "Name must be at most \(Self.maximumNameLength) characters.") }
        let brand = brand?.trimmed.nilIfEmpty
        if let brand, brand.count > Self.maximumNameLength { problem("brand", "Brand must be at most \(Self.maximumNameLength) characters.") }

        var barcode: Barcode?
        if let raw = self.barcode?.trimmed.nilIfEmpty {
            barcode = Barcode(raw)
            if barcode == nil { problem("barcode", "\"\(raw.prefix(20))\" is not a barcode: \(Barcode.rule).") }
        }

        var per100 = self.per100
        if let kj = energyKj {
            if !Plausible.kjPer100.contains(kj) { problem("per100.energyKj", Plausible.kjPer100.message("Energy per 100 \(basis.rawValue)")) }
            if per100.energyKcal == nil { per100.energyKcal = Nutrients.kilocalories(fromKilojoules: kj) }
        }
        let unit = basis.rawValue
        for (nutrient, value) in per100.values.sorted(by: { $0.key < $1.key }) {
            if value < 0 { problem("per100.\(nutrient.rawValue)", "\(nutrient.name) cannot be negative.") }
            if nutrient != .energyKcal, value > nutrient.maximumPer100 {
                problem("per100.\(nutrient.rawValue)", "\(nutrient.name) cannot be more than \(nutrient.text(nutrient.maximumPer100)) per 100 \(unit).")
            }
        }
        per100 = per100.withSaltAndSodium()
        if per100.energyKcal.map({ $0 > 900 }) == true {
            problem("per100.energyKcal", "Energy above 900 kcal per 100 \(unit) is not possible (pure fat is 900).")
        }
        let macroSum = [per100.protein, per100.carbohydrates, per100.fat].compactMap { $0 }.reduce(0, +)
        if !asPublished, basis == .gram, macroSum > 100 {
            problem("per100", "Protein, carbohydrates and fat add up to \(macroSum.display(1)) g, more than 100 g per 100 g.")
        }
        if !asPublished, let sugars = per100.sugars, let carbs = per100.carbohydrates, sugars > carbs {
            problem("per100.sugars", "Sugars (\(sugars.display(1)) g) cannot be more than carbohydrates (\(carbs.display(1)) g).")
        }
        if !asPublished, let saturated = per100.saturatedFat, let fat = per100.fat, saturated > fat {
            problem("per100.saturatedFat", "Saturated fat (\(saturated.display(1)) g) cannot be more than fat (\(fat.display(1)) g).")
        }

        var serving = self.serving
        if let s = serving {
            if let p = Plausible.servingSize.check(s.size, field: "serving.size", label: "Serving size") { problems.append(p) }
            if s.unit != basis { problem("serving.unit", "Serving size must be in \(unit), like the nutrition values.") }
            serving?.label = s.label?.trimmed.nilIfEmpty
        }
        if let price {
            if let p = Plausible.price.check(price.amount, field: "price.amount", label: "Price") { problems.append(p) }
            if price.per == .package {
                if let size = price.packageSize {
                    if let p = Plausible.servingSize.check(size, field: "price.packageSize", label: "Package size") { problems.append(p) }
                }
                else { problem("price.packageSize", "Give the package size (in \(unit)) for a price per package.") }
            }
            if price.per == .serving, serving == nil { problem("price.per", "A price per serving needs a serving size.") }
        }
        let portion = portion?.trimmed.nilIfEmpty
        if let portion, portion.count > 200 { problem("portion", "Portion must be at most 200 characters.") }

        guard problems.isEmpty else { throw ValidationError(problems) }
        return Food(id: id, name: name, brand: brand, barcode: barcode, basis: basis, per100: per100, serving: serving,
                    portion: portion, price: price, icon: icon, source: source, catalogId: catalogId, createdAt: createdAt, updatedAt: now)
    }

    /// Warnings for values that are allowed but look wrong.
    public static func warnings(for per100: Nutrients) -> [String] {
        guard let stated = per100.energyKcal, let computed = per100.energyFromMacros else { return [] }
        let allowed = max(computed * energyTolerance, 20)
        let difference = stated > computed ? stated - computed : computed - stated
        guard difference > allowed else { return [] }
        return ["Energy (\(stated.display(0)) kcal) does not match the macros (\(computed.display(0)) kcal from 4/4/9 kcal per g); check the label."]
    }
}

extension FoodDraft {
    /// A stored food as a draft again, to check it as if it were typed in (an import).
    public init(_ food: Food) {
        self.init(name: food.name, brand: food.brand, barcode: food.barcode?.digits, basis: food.basis, per100: food.per100,
                  serving: food.serving, portion: food.portion, price: food.price, icon: food.icon, source: food.source,
                  catalogId: food.catalogId)
    }
}
