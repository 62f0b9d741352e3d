import Fluent
import ForkcastCore
import Foundation
import Vapor

/// Creating accounts and checking passwords, shared by the API, the web pages and `forkcast user create`.
struct AccountService {
    let db: any Database
    let passwords: AsyncPasswordHasher
    let now: Date

    struct NewAccount {
        var email: String
        var password: String
        var displayName: String?
        var timeZone: String?
    }

    static let minimumPasswordLength = 8

    /// Checks the fields of a new account; throws a ValidationError naming each bad field.
    static func validate(_ account: NewAccount) throws(ValidationError) -> NewAccount {
        var problems: [ValidationError.Field] = []
        let email = account.email.trimmed
        if email.isEmpty {
            problems.append(.init(field: "email", message: "Email is required."))
        } else if email.count > 254 || !email.contains("@") || email.hasPrefix("@") || email.hasSuffix("@") || email.contains(" ") {
            problems.append(.init(field: "email", message: "\"\(email.prefix(60))\" is not an email address."))
        }
        if account.password.count < minimumPasswordLength {
            problems.append(.init(field: "password", message: "Password must be at least \(minimumPasswordLength) characters."))
        } else if account.password.utf8.count > 72 {
            problems.append(.init(field: "password", message: "Password must be at most 72 bytes (bcrypt's limit)."))
        }
        let name = account.displayName?.trimmed
        if let name, name.count > 100 {
            problems.append(.init(field: "displayName", message: "Display name must be at most 100 characters."))
        }
        let zone = account.timeZone?.trimmed
        if let zone, !zone.isEmpty, TimeZone(identifier: zone) == nil {
            problems.append(.init(field: "timeZone", message: "\"\(zone)\" is not an IANA time zone such as Europe/Paris."))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return NewAccount(email: email, password: account.password,
                          displayName: (name?.isEmpty ?? true) ? nil : name,
                          timeZone: (zone?.isEmpty ?? true) ? nil : zone)
    }

    /// Creates an account. The first account is always allowed; later ones only when `allowSignup`.
    func register(_ input: NewAccount, allowSignup: Bool, force: Bool = false) async throws -> UserModel {
        let account: NewAccount
        do { account = try Self.validate(input) } catch { throw AppError.validation(error) }
        if !force, !allowSignup, try await UserModel.query(on: db).count() > 0 {
            throw AppError.forbidden("Sign-up is closed on this server. Ask its owner to create your account (forkcast user create) or to set FORKCAST_ALLOW_SIGNUP=true.")
        }
        if try await UserModel.query(on: db).filter(\.$emailKey == account.email.lowercased()).first() != nil {
            throw AppError.conflict("An account with that email already exists; sign in instead.")
        }
        let hash = try await passwords.hash(account.password)
        let user = UserModel(email: account.email, passwordHash: hash, displayName: account.displayName,
                             timeZone: account.timeZone ?? "UTC")
        try await user.create(on: db)
        return user
    }

    /// Returns the user when email and password match; counts failures and slows repeated ones.
    func authenticate(email: String, password: String) async throws -> UserModel {
        let key = email.trimmed.lowercased()
        let throttle = LoginThrottle(db: db, now: now)
        if let wait = try await throttle.waitTime(for: key) {
            throw AppError.tooManyRequests("Too many failed sign-ins for this email. Wait \(wait) seconds and try again.", retryAfter: wait)
        }
        let user = try await UserModel.query(on: db).filter(\.$emailKey == key).first()
        // Hash even for unknown emails, so timing does not tell which accounts exist.
        let ok: Bool
        if let user {
            ok = try await passwords.verify(password, created: user.passwordHash)
        } else {
            _ = try await passwords.hash(password)
            ok = false
        }
        guard let user, ok else {
            try await throttle.recordFailure(for: key)
            throw AppError.unauthorized("Email or password is wrong.")
        }
        try await throttle.clear(for: key)
        return user
    }
}

extension Request {
    var accounts: AccountService {
        AccountService(db: db, passwords: password.async, now: now)
    }
}
