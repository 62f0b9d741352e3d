import ForkcastCore
import Foundation

/// Numbers as a person typed them in a form: an empty field is no number, anything else must read
/// as one ("12,5" and "12.5" both do, as ``Decimal/init(typed:)`` reads them). What does not read
/// is a problem on its field, shown next to it with the rest; the ranges are ForkcastCore's.
struct TypedNumbers {
    private(set) var problems: [ValidationError.Field] = []

    /// The number typed, nil when nothing was; a problem on `field` when it is not a number.
    /// `example` is shown in the message ("Enter a number, e.g. 150.").
    mutating func read(_ raw: String?, field: String, example: String? = nil) -> Decimal? {
        guard let text = raw?.trimmed, !text.isEmpty else { return nil }
        guard let value = Decimal(typed: text) else {
            problems.append(.init(field: field, message: example.map { "Enter a number, e.g. \($0)." } ?? "Enter a number."))
            return nil
        }
        return value
    }

    /// Throws every problem at once, if there is any.
    func check() throws(ValidationError) {
        guard problems.isEmpty else { throw ValidationError(problems) }
    }
}
