import Foundation

/// Amounts big enough to be a slip of the keyboard ("150" carrots taken as 150 servings): the
/// person is asked once before such an entry is logged.
extension DiaryEntry {
    /// Above these an entry is worth a question: 3,000 kcal, 10 servings, 3 kg or 3 litres.
    public static let questionableEnergy: Decimal = 3000
    public static let questionableServings: Decimal = 10
    public static let questionableBasisAmount: Decimal = 3000

    /// The question to ask before logging this entry, or nil when its amount looks like a meal.
    /// `food`: the food of a food entry (for the amount in grams or millilitres).
    public func largeAmountQuestion(food: Food?) -> String? {
        let kcal = nutrients.energyKcal
        let energy = kcal.map { " is \(Self.grouped($0)) kcal" } ?? ""
        switch kind {
        case let .food(_, quantity, unit):
            let basis = food?.basis.rawValue ?? "g"
            let grams = food.flatMap { try? FoodMath.basisAmount(of: $0, quantity: quantity, unit: unit) }
            if unit == .serving, quantity > Self.questionableServings {
                let size = energy.isEmpty ? grams.map { " is \(Self.grouped($0)) \(basis)" } ?? "" : energy
                return "\(Self.grouped(quantity)) servings of \(name)\(size) — did you mean \(Self.grouped(quantity)) \(basis)?"
            }
            if let grams, grams > Self.questionableBasisAmount || (kcal ?? 0) > Self.questionableEnergy {
                let amount = unit == .serving ? "\(Self.grouped(quantity)) serving\(quantity == 1 ? "" : "s")" : "\(Self.grouped(quantity)) \(unit.label)"
                return "\(amount) of \(name)\(energy.isEmpty ? "" : energy) — is that right?"
            }
            return nil
        case let .meal(_, servings):
            guard servings > Self.questionableServings || (kcal ?? 0) > Self.questionableEnergy else { return nil }
            return "\(Self.grouped(servings)) serving\(servings == 1 ? "" : "s") of \(name)\(energy) — is that right?"
        case .quickAdd:
            guard let kcal, kcal > Self.questionableEnergy else { return nil }
            return "\(name)\(energy) — is that right?"
        case .photo:
            return nil
        }
    }

    /// "7 872" (a narrow no-break space): thousands grouped, at most one decimal point. Not a comma:
    /// the forms read "54,150" as 54.15, so a warning saying "54,150 g" would read as 54 g to those
    /// who write decimal commas.
    static func grouped(_ value: Decimal) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.numberStyle = .decimal
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = "\u{202F}"
        formatter.groupingSize = 3
        formatter.maximumFractionDigits = 1
        return formatter.string(from: value.rounded(1) as NSDecimalNumber) ?? value.display(1)
    }
}
