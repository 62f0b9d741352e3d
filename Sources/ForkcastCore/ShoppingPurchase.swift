import Foundation

/// What is bought for the amount a plan needs: foods sold by the piece in whole pieces ("3 onions"
/// for 267 g), a food with a pack size in whole packs ("2 packs of 500 g"). Other foods are bought
/// by weight or volume, as needed.
public enum ShoppingPurchase {
    struct Piece {
        let one: String
        let many: String
        /// A medium one, in grams.
        let grams: Decimal
    }

    /// Foods bought by the piece, by the first word of their name, with a medium one's weight.
    static let pieces: [String: Piece] = {
        let list: [(String, String, Decimal)] = [
            ("egg", "eggs", 50), ("onion", "onions", 110), ("apple", "apples", 182), ("banana", "bananas", 118), ("lemon", "lemons", 58),
            ("lime", "limes", 67), ("orange", "oranges", 131), ("avocado", "avocados", 150), ("potato", "potatoes", 213),
            ("tomato", "tomatoes", 123), ("pepper", "peppers", 119), ("cucumber", "cucumbers", 301), ("zucchini", "zucchini", 196),
            ("courgette", "courgettes", 196), ("pear", "pears", 178), ("peach", "peaches", 150), ("nectarine", "nectarines", 142),
            ("kiwi", "kiwis", 69), ("kiwifruit", "kiwis", 69), ("mango", "mangoes", 207), ("grapefruit", "grapefruits", 246),
            ("eggplant", "eggplants", 458), ("aubergine", "aubergines", 458), ("leek", "leeks", 89), ("shallot", "shallots", 25),
        ]
        var table: [String: Piece] = [:]
        for (one, many, grams) in list {
            let piece = Piece(one: one, many: many, grams: grams)
            table[one] = piece
            table[many] = piece
        }
        return table
    }()

    /// Words of a serving's name that say it is one piece ("1 medium", "1 large egg").
    static let pieceWords = ["medium", "large", "small", "whole", "piece", "egg", "fruit", "each"]

    /// What to buy for `quantity` `unit` of `food`, or nil when it is bought as needed.
    public static func of(_ food: Food, quantity: Decimal, unit: String) -> String? {
        guard quantity > 0, unit == food.basis.rawValue else { return nil }
        if let price = food.price, price.per == .package, let size = price.packageSize, size > 0 {
            let packs = max(1, ShoppingAmount.roundedUp(quantity / size, places: 0))
            let each = ShoppingAmount.text(quantity: size, unit: unit) ?? ""
            return "\(packs) pack\(packs == 1 ? "" : "s") of \(each)"
        }
        let first = food.name.lowercased().split { !$0.isLetter }.first.map(String.init) ?? ""
        guard unit == "g", let piece = pieces[first] else { return nil }
        let label = food.serving?.label?.lowercased() ?? ""
        let weight = food.serving.flatMap { s in pieceWords.contains(where: label.contains) && s.size > 0 ? s.size : nil } ?? piece.grams
        let count = max(1, ShoppingAmount.roundedUp(quantity / weight, places: 0))
        return "\(count) \(count == 1 ? piece.one : piece.many)"
    }
}
