import Crypto
import Fluent
import ForkcastApp
import SQLKit
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

    static var minimumPasswordLength: Int { AccountRules.minimumPasswordLength }

    /// What bcrypt sees: the password itself up to its 72-byte limit (so existing hashes keep
    /// working), a SHA-256 of it beyond that (so a long passphrase is not cut short).
    static func bcryptInput(_ password: String) -> String {
        guard password.utf8.count > 72 else { return password }
        return "sha256:" + Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// Checks the fields of a new account; throws a ValidationError naming each bad field.
    static func validate(_ account: NewAccount) throws(ValidationError) -> NewAccount {
        var problems: [ValidationError.Field] = []
        let email = account.email.trimmed
        if let problem = AccountRules.emailProblem(email) { problems.append(.init(field: "email", message: problem)) }
        if let problem = AccountRules.passwordProblem(account.password, email: email) {
            problems.append(.init(field: "password", message: problem))
        }
        let name = account.displayName?.trimmed
        if let problem = name.flatMap(AccountRules.displayNameProblem) { problems.append(.init(field: "displayName", message: problem)) }
        let zone = account.timeZone?.trimmed
        if let zone, !zone.isEmpty, let problem = AccountRules.timeZoneProblem(zone) { problems.append(.init(field: "timeZone", message: problem)) }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return NewAccount(email: email, password: account.password,
                          displayName: (name?.isEmpty ?? true) ? nil : name,
                          timeZone: (zone?.isEmpty ?? true) ? nil : zone)
    }

    /// Whether the server has any account yet (the first visit sets one up).
    func hasAccounts() async throws -> Bool {
        try await UserModel.query(on: db).count() > 0
    }

    /// Creates an account. The first account is always allowed; later ones only when `allowSignup`.
    /// `invitation`: an invitation link's token; with one, the account is created while sign-up is
    /// closed, and the link is used up (``CreateAccount``).
    func register(_ input: NewAccount, allowSignup: Bool, force: Bool = false, invitation: String? = nil) async throws -> UserModel {
        let invitation = invitation.flatMap { $0.trimmed.isEmpty ? nil : $0.trimmed }
        // A closed server tells strangers only that it is closed, not what it thinks of their input.
        if !force, !allowSignup, invitation == nil, try await UserModel.query(on: db).count() > 0 {
            throw AppError.forbidden(CreateAccount.signupClosed)
        }
        let account: NewAccount
        do { account = try Self.validate(input) } catch { throw AppError.validation(error) }
        // The password is hashed before anything looks the email up, so an address that has an
        // account is answered in the same time as one that has none (2 ms against 400 ms
        // told them apart). The email is checked inside the write that inserts.
        let hash = try await passwords.hash(Self.bcryptInput(account.password))
        let user = UserModel(email: account.email, passwordHash: hash, displayName: account.displayName,
                             timeZone: account.timeZone ?? AccountRules.defaultTimeZone)
        // Checked again inside the write: two first visits at once create one "first account".
        try await CreateAccount.store(user, on: db, now: now, onlyIfFirst: !force && !allowSignup, invitation: invitation)
        return user
    }

    /// Returns the user when email and password match. Guessing is slowed per client address and,
    /// for clients that never signed in to the account, per account (``LoginThrottle``).
    func authenticate(email: String, password: String, client: ClientIdentity) async throws -> UserModel {
        let key = Account.emailKey(email.trimmed)
        let throttle = LoginThrottle(db: db, now: now)
        if let wait = try await throttle.take(LoginThrottle.perAddress, key: client.address) {
            throw AppError.tooManyRequests("Too many sign-in attempts from your network. Wait \(wait) seconds and try again.", retryAfter: wait)
        }
        let user = try await UserModel.query(on: db).filter(\.$emailKey == key).first()
        var known = false
        if let user { known = try await throttle.isKnown(userID: try user.requireID(), client: client) }
        let networkKey = key + "|" + client.network
        if !known {
            for (bucket, bucketKey) in [(LoginThrottle.perAccountNetwork, networkKey), (LoginThrottle.perAccount, key)] {
                if let wait = try await throttle.take(bucket, key: bucketKey) {
                    throw AppError.tooManyRequests("Too many failed sign-ins for this account from devices it has not used before. Sign in from a device you used before, or wait \(wait) seconds.", retryAfter: wait)
                }
            }
        }
        // Hash even for unknown emails, so timing does not tell which accounts exist.
        let ok: Bool
        if let user, user.hasPassword {
            ok = try await passwords.verify(Self.bcryptInput(password), created: user.passwordHash)
        } else {
            _ = try await passwords.hash(Self.bcryptInput(password))
            ok = false
        }
        guard let user, ok else { throw AppError.unauthorized("Email or password is wrong.") }
        try await throttle.refund(LoginThrottle.perAddress, key: client.address)
        if !known {
            try await throttle.refund(LoginThrottle.perAccountNetwork, key: networkKey)
            try await throttle.refund(LoginThrottle.perAccount, key: key)
        }
        try await throttle.remember(userID: try user.requireID(), client: client)
        return user
    }
}

extension AccountService {
    /// Asks for the password again before something that cannot be undone (deleting the account).
    /// Guesses are slowed per client address like sign-ins.
    func confirmPassword(_ password: String, of user: UserModel, client: ClientIdentity) async throws {
        let throttle = LoginThrottle(db: db, now: now)
        if let wait = try await throttle.take(LoginThrottle.perAddress, key: client.address) {
            throw AppError.tooManyRequests("Too many wrong passwords from your network. Wait \(wait) seconds and try again.", retryAfter: wait)
        }
        guard user.hasPassword else {
            throw AppError.forbidden("This account has no password; confirm with the provider you sign in with instead. Nothing was deleted.")
        }
        guard try await passwords.verify(Self.bcryptInput(password), created: user.passwordHash) else {
            throw AppError.forbidden("That is not your password; nothing was deleted.")
        }
        try await throttle.refund(LoginThrottle.perAddress, key: client.address)
    }
}

extension Request {
    var accounts: AccountService {
        AccountService(db: db, passwords: password.async, now: now)
    }

    /// Invitations: making, listing and revoking them, and whether a link is still open.
    var inviteMember: InviteMember { InviteMember(accounts: FluentAccounts(db: db), now: now) }

    /// The household's members changing: invitations, joining, leaving, removing, handing over.
    var householdMembership: HouseholdMembership {
        HouseholdMembership(accounts: FluentAccounts(db: db, photoStore: application.photoStore), now: now)
    }

    /// Makes a link into `person`'s household (its owner only): the invitation, its token and the
    /// link, shown once, as ``makeInvitation(by:)``'s.
    func makeHouseholdInvitation(by person: UUID) async throws -> (invitation: Invitation, token: String, link: String) {
        let token = Tokens.generate()
        let invitation = try await householdMembership.invite(by: person, tokenHash: Tokens.hash(token))
        return (invitation, token, publicBaseURL + SiteURL.joinHousehold(invite: token).path)
    }

    /// Makes an invitation link for `person` (the owner only; ``InviteMember`` refuses anyone else):
    /// the invitation, its token and the sign-up link, shown once: only the token's hash is kept.
    func makeInvitation(by person: UUID) async throws -> (invitation: Invitation, token: String, link: String) {
        let token = Tokens.generate()
        let invitation = try await inviteMember(by: person, tokenHash: Tokens.hash(token))
        return (invitation, token, publicBaseURL + SiteURL.signup(invite: token).path)
    }

    /// The client signing in: its address (the proxy's X-Forwarded-For when trusted) and the
    /// browser's device cookie.
    var clientIdentity: ClientIdentity {
        var address = remoteAddress?.ipAddress ?? "unknown"
        if application.forkcastConfig.trustProxy,
           let forwarded = headers.first(name: "X-Forwarded-For")?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
           !forwarded.isEmpty {
            address = String(forwarded.prefix(64))
        }
        let device = cookies[SecurityHeadersMiddleware.deviceCookie]?.string
        return ClientIdentity(address: address, device: device.flatMap { $0.count == 43 ? $0 : nil })
    }
}
