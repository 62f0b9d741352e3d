import Foundation

/// The order of the meal library: unplanned meals first, meals already planned in the current
/// window last (seed 002 Req 2.5); within each group by description ignoring case, with numbers
/// in order of their value ("Soup #36" before "Soup #106"), then by id.
public enum MealOrdering {
    /// Digits a number is padded to in the key: every whole number a person writes fits.
    static let numberWidth = 20

    /// The sort key the server and the database both use: the description ignoring case, each run
    /// of digits without its leading zeros and padded to ``numberWidth``, so that comparing keys
    /// as text (SQLite and PostgreSQL alike) orders numbers by value. A longer run stays as it is.
    public static func sortKey(description: String) -> String {
        let text = description.matchKey
        var key = ""
        key.reserveCapacity(text.utf8.count + 8)
        var digits = Substring()
        func flush() {
            guard !digits.isEmpty else { return }
            let value = digits.drop { $0 == "0" }
            if value.count <= numberWidth {
                key += String(repeating: "0", count: numberWidth - value.count)
                key += value
            } else {
                key += digits
            }
            digits = Substring()
        }
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index].isASCII, text[index].isNumber {
                digits = digits.isEmpty ? text[index..<next] : text[digits.startIndex..<next]
            } else {
                flush()
                key.append(text[index])
            }
            index = next
        }
        flush()
        return key
    }
}
