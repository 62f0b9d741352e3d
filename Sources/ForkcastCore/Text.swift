import Foundation

extension String {
    /// The string without leading and trailing white space and newlines.
    public var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The key two names share when they differ only in case or surrounding white space.
    public var matchKey: String { trimmed.lowercased() }

    /// nil for the empty string ("no slot" from a blank form field).
    public var nilIfEmptyString: String? { isEmpty ? nil : self }
}
