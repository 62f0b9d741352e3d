import Foundation

/// Rules for account fields: emails, passwords, and where a sign-in may send the browser next.
public enum AccountRules {
    public static let maximumDisplayNameLength = 100
    /// The zone "today" is computed in for an account that did not say (a sign-in from elsewhere).
    public static let defaultTimeZone = "UTC"

    /// A display name from another service (Sign in with Apple, OpenID): kept to the length a
    /// typed one may have, since nobody is there to be asked to shorten it; empty means none.
    public static func displayName(from provided: String?) -> String? {
        guard let name = provided?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        return String(name.prefix(maximumDisplayNameLength))
    }

    /// A display name (trimmed) is at most 100 characters; empty means none.
    public static func displayNameProblem(_ name: String) -> String? {
        name.trimmingCharacters(in: .whitespacesAndNewlines).count > maximumDisplayNameLength
            ? "Display name must be at most \(maximumDisplayNameLength) characters." : nil
    }

    /// A time zone is an IANA name the system knows ("today" is computed in it).
    public static func timeZoneProblem(_ zone: String) -> String? {
        let zone = zone.trimmingCharacters(in: .whitespacesAndNewlines)
        return TimeZone(identifier: zone) == nil ? "\"\(zone.prefix(60))\" is not an IANA time zone such as Europe/Paris." : nil
    }

    public static let minimumPasswordLength = 8
    /// Long passphrases are welcome: the server hashes ones beyond bcrypt's 72 bytes with SHA-256
    /// first, so every character counts.
    public static let maximumPasswordLength = 256

    /// A problem with an email address, or nil when it is a usable address: one `@`, a local part
    /// of 1–64 characters without spaces, quotes, angle brackets or control characters, and a
    /// domain of dot-separated labels (letters, digits, hyphens; not starting or ending with one).
    /// U+FFFD, which a NUL or a broken byte is read as, is not a character anyone types in one.
    public static func emailProblem(_ raw: String) -> String? {
        let email = raw.trimmed
        if email.isEmpty { return "Email is required." }
        let shown = "\"\(email.prefix(60))\" is not an email address"
        guard email.utf8.count <= 254 else { return "\(shown): it is longer than 254 characters." }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "\(shown): it needs exactly one @, as in name@example.com." }
        let local = parts[0], domain = parts[1]
        let forbidden = CharacterSet.whitespacesAndNewlines.union(.controlCharacters).union(CharacterSet(charactersIn: "\"<>()[]\\,;:\u{FFFD}"))
        guard (1...64).contains(local.utf8.count), local.unicodeScalars.allSatisfy({ !forbidden.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
            return "\(shown): the part before @ is not valid."
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let labelCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-"))
        guard labels.count >= 2, labels.allSatisfy({ label in
            (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { labelCharacters.contains($0) }
        }) else {
            return "\(shown): the part after @ must be a domain such as example.com."
        }
        return nil
    }

    /// A problem with a new password, or nil: 8 to 256 characters, not only
    /// white space, not one of the most common passwords and not the email address itself.
    public static func passwordProblem(_ password: String, email: String = "") -> String? {
        if password.count < minimumPasswordLength { return "Password must be at least \(minimumPasswordLength) characters." }
        if password.unicodeScalars.count > maximumPasswordLength { return "Password must be at most \(maximumPasswordLength) characters." }
        if password.trimmed.isEmpty { return "Password cannot be only spaces." }
        let key = password.lowercased()
        if CommonPasswords.all.contains(key) || Set(key).count == 1 {
            return "That password is one of the most common ones and is guessed first; choose another."
        }
        let emailKey = email.trimmed.lowercased()
        if !emailKey.isEmpty, key == emailKey || key == emailKey.split(separator: "@").first.map(String.init) {
            return "Password must not be your email address."
        }
        return nil
    }

    /// A path on this site that is safe to redirect to after sign-in, or nil.
    ///
    /// Browsers drop tabs and line breaks from URLs and read `\` as `/`, so `/\t/evil.example`
    /// becomes `//evil.example`, another site. Only a single leading `/` followed by something
    /// other than `/` or `\`, with no control characters, spaces or backslashes anywhere, is kept.
    public static func localRedirectPath(_ raw: String?) -> String? {
        guard let raw, raw.utf8.count <= 2048 else { return nil }
        let scalars = raw.unicodeScalars
        guard scalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0 != "\\" && !(0x80...0x9F).contains($0.value) }) else { return nil }
        guard raw.hasPrefix("/"), !raw.hasPrefix("//") else { return nil }
        guard let components = URLComponents(string: raw), components.scheme == nil, components.host == nil else { return nil }
        return raw
    }
}

/// Invitation links: one-time links by which the server's owner lets a person create an
/// account while sign-up is closed.
public enum InvitationRules {
    /// How many days a link stays good.
    public static let lifetimeDays = 7
    public static var lifetime: TimeInterval { TimeInterval(lifetimeDays) * 86_400 }
    /// At most this many links waiting at once (a leaked session cannot mint thousands).
    public static let openLimit = 20
}
