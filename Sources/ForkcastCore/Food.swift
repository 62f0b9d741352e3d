import Foundation

/// Whether a food's nutrition is given per 100 g or per 100 ml.
public enum NutritionBasis: String, Sendable, Codable, CaseIterable {
    case gram = "g"
    case milliliter = "ml"
}

/// How much one serving is: `size` in the food's basis unit, with the name people use for it
/// ("1 piece" = 50 g, "1 can" = 330 ml).
public struct Serving: Hashable, Sendable, Codable {
    public var size: Decimal
    public var unit: NutritionBasis
    public var label: String?

    public init(size: Decimal, unit: NutritionBasis, label: String? = nil) {
        self.size = size
        self.unit = unit
        self.label = label
    }

    public var displayLabel: String {
        let amount = "\(size.display(1)) \(unit.rawValue)"
        guard let label, !label.isEmpty, label != amount else { return amount }
        return "\(label) (\(amount))"
    }
}

/// What a food costs, in the user's currency: per package (of `packageSize` basis units) or per serving.
public struct Price: Hashable, Sendable, Codable {
    public enum Per: String, Sendable, Codable, CaseIterable { case package, serving }
    public var amount: Decimal
    public var per: Per
    /// The package's contents in the food's basis unit (g or ml), needed when `per` is package.
    public var packageSize: Decimal?

    public init(amount: Decimal, per: Per, packageSize: Decimal? = nil) {
        self.amount = amount
        self.per = per
        self.packageSize = packageSize
    }
}

/// Where a food came from.
public enum FoodSource: String, Sendable, Codable, CaseIterable {
    case custom
    case openFoodFacts = "openfoodfacts"
    /// Adopted from the food catalogue (USDA FoodData Central).
    case usda
}

/// The icons Forkcast ships (served as `/icons/food/<name>.svg`).
public enum FoodIcon: String, Sendable, Codable, CaseIterable {
    case generic, apple, bread, carrot, cheese, egg, fish, meat, milk, drink, grain, nut, leaf, sweet, bowl

    public var label: String { rawValue.capitalized }
}

/// An ingredient or product with nutrition per 100 g or 100 ml (seed 001's FoodItem, seed 003's CustomFood).
public struct Food: Identifiable, Hashable, Sendable, Codable {
    public let id: UUID
    public var name: String
    public var brand: String?
    public var barcode: Barcode?
    public var basis: NutritionBasis
    public var per100: Nutrients
    public var serving: Serving?
    public var portion: String?
    public var price: Price?
    public var icon: FoodIcon
    public var source: FoodSource
    /// The catalogue food this one was adopted from (``CatalogFood/catalogId``).
    public var catalogId: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID = UUID.timeOrdered(), name: String, brand: String? = nil, barcode: Barcode? = nil, basis: NutritionBasis = .gram,
                per100: Nutrients = Nutrients(), serving: Serving? = nil, portion: String? = nil, price: Price? = nil,
                icon: FoodIcon = .generic, source: FoodSource = .custom, catalogId: String? = nil, createdAt: Date = Date(), updatedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.brand = brand
        self.barcode = barcode
        self.basis = basis
        self.per100 = per100
        self.serving = serving
        self.portion = portion
        self.price = price
        self.icon = icon
        self.source = source
        self.catalogId = catalogId
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// Problems worth telling the person about that do not stop saving (e.g. energy that the macros
    /// do not explain).
    public var warnings: [String] { FoodDraft.warnings(for: per100) }
}

/// The units an amount of food can be given in.
public enum QuantityUnit: String, Sendable, Codable, CaseIterable {
    case gram = "g"
    case milliliter = "ml"
    case serving

    public var label: String {
        switch self {
        case .gram: "g"
        case .milliliter: "ml"
        case .serving: "serving"
        }
    }
}

/// Turning an amount of a food into its share of the per-100 values.
public enum FoodMath {
    public enum ConversionError: Error, Equatable, Sendable {
        /// Grams of a food measured in ml (or the reverse): no density is known.
        case incompatibleUnit(food: String, basis: NutritionBasis, unit: QuantityUnit)
        /// Servings of a food that has no serving size.
        case noServingSize(food: String)

        public var message: String {
            switch self {
            case let .incompatibleUnit(food, basis, unit):
                "\(food) is measured per 100 \(basis.rawValue); give the amount in \(basis.rawValue) or servings, not \(unit.label)."
            case let .noServingSize(food):
                "\(food) has no serving size; give the amount in g or ml, or add a serving size to the food."
            }
        }
    }

    /// The amount in the food's basis unit (grams or millilitres).
    public static func basisAmount(of food: Food, quantity: Decimal, unit: QuantityUnit) throws(ConversionError) -> Decimal {
        switch (unit, food.basis) {
        case (.gram, .gram), (.milliliter, .milliliter):
            return quantity
        case (.serving, _):
            guard let serving = food.serving else { throw .noServingSize(food: food.name) }
            return quantity * serving.size
        default:
            throw .incompatibleUnit(food: food.name, basis: food.basis, unit: unit)
        }
    }

    /// Nutrition of an amount of food.
    public static func nutrients(of food: Food, quantity: Decimal, unit: QuantityUnit) throws(ConversionError) -> Nutrients {
        food.per100.scaled(by: try basisAmount(of: food, quantity: quantity, unit: unit) / 100)
    }

    /// Cost of an amount of food, or nil when the food has no usable price.
    public static func cost(of food: Food, quantity: Decimal, unit: QuantityUnit) throws(ConversionError) -> Decimal? {
        guard let perUnit = pricePerBasisUnit(food) else { return nil }
        return perUnit * (try basisAmount(of: food, quantity: quantity, unit: unit))
    }

    /// Price of one gram or millilitre.
    public static func pricePerBasisUnit(_ food: Food) -> Decimal? {
        guard let price = food.price else { return nil }
        switch price.per {
        case .package:
            guard let size = price.packageSize, size > 0 else { return nil }
            return price.amount / size
        case .serving:
            guard let serving = food.serving, serving.size > 0 else { return nil }
            return price.amount / serving.size
        }
    }
}

extension Food {
    /// What "some of this" means when no amount is typed (the plate's food rows): one serving when
    /// the food has one, else 100 g or 100 ml.
    public var usualPortion: (quantity: Decimal, unit: QuantityUnit) {
        if serving != nil { return (1, .serving) }
        return (100, basis == .milliliter ? .milliliter : .gram)
    }

    /// The usual portion in grams or millilitres: what a plate row shows for a food not eaten
    /// lately, so that a number typed over it is in the unit the row says.
    public var usualAmount: (quantity: Decimal, unit: QuantityUnit) {
        (serving?.size ?? 100, basis == .milliliter ? .milliliter : .gram)
    }

    /// A plate row's amount in a unit as the page sends it: "g", "ml", "serving", "" (none chosen:
    /// ``platePortion(quantity:unit:)``), or "portion:<grams>", one of the catalogue's named
    /// portions ("1 cup, chopped (128 g)"), logged as its grams. nil: no amount ("how much?") or a
    /// unit that is none of these.
    public func platePortion(quantity: Decimal?, unitText: String) -> (quantity: Decimal, unit: QuantityUnit)? {
        if unitText.hasPrefix(Self.portionPrefix) { return Self.portionGrams(unitText).flatMap { portions(quantity, of: $0) } }
        if unitText.isEmpty { return platePortion(quantity: quantity, unit: nil) }
        return QuantityUnit(rawValue: unitText).flatMap { platePortion(quantity: quantity, unit: $0) }
    }

    /// How a page names a catalogue portion as a unit: "portion:128".
    public static let portionPrefix = "portion:"

    /// The grams of a unit named "portion:<grams>"; nil for any other unit or grams that do not read.
    public static func portionGrams(_ unitText: String) -> Decimal? {
        guard unitText.hasPrefix(portionPrefix) else { return nil }
        return Decimal(typed: String(unitText.dropFirst(portionPrefix.count)))
    }

    /// `count` (one when nil) of a named portion of `grams`, logged as its grams; nil for a food
    /// measured in millilitres or a portion that is not 0 to 5 kg.
    public func portions(_ count: Decimal?, of grams: Decimal) -> (quantity: Decimal, unit: QuantityUnit)? {
        guard grams > 0, grams <= 5000, basis == .gram else { return nil }
        return ((count ?? 1) * grams, .gram)
    }

    /// The amount a plate row logs, from what was typed: no amount and no unit is the usual
    /// portion; a plain number is grams or millilitres (the food's basis), never servings, which
    /// are only ever chosen; a unit without an amount is no amount (nil: ask "how much?").
    public func platePortion(quantity: Decimal?, unit: QuantityUnit?) -> (quantity: Decimal, unit: QuantityUnit)? {
        switch (quantity, unit) {
        case (nil, nil): usualPortion
        case (let quantity?, nil): (quantity, basis == .milliliter ? .milliliter : .gram)
        case (nil, _?): nil
        case (let quantity?, let unit?): (quantity, unit)
        }
    }
}
