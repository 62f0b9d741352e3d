import Foundation

/// ISO 4217 currency codes, as people pick them for prices.
public enum Currency {
    public static let common = ["EUR", "USD", "GBP", "CHF", "CAD", "AUD", "NZD", "JPY", "SEK", "NOK", "DKK", "PLN", "CZK", "INR", "BRL", "MXN", "ZAR"]

    public static func isValid(_ code: String) -> Bool {
        let c = code.uppercased()
        return c.count == 3 && c.allSatisfy { $0.isASCII && $0.isLetter } && (common.contains(c) || Locale.commonISOCurrencyCodes.contains(c))
    }

    /// "€3.20"-style text for display (two decimals).
    public static func format(_ amount: Decimal, _ code: String) -> String {
        let symbols = ["EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"]
        let value = amount.rounded(2)
        var text = "\(value)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals == 1 { text += "0" }
        } else {
            text += ".00"
        }
        if let symbol = symbols[code] { return symbol + text }
        return text + " " + code
    }
}
