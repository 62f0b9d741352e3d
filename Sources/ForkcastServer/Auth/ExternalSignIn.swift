import Fluent
import ForkcastApp
import ForkcastCore
import Foundation
import Vapor

/// Signing in, linking and unlinking with a verified Apple or OpenID Connect identity: the one path
/// the web pages and the API share. The rules are ``ExternalSignInRules`` (ForkcastCore).
struct ExternalSignIn {
    let db: any Database
    let now: Date
    let allowSignup: Bool

    enum Outcome {
        case signedIn(UserModel), linked(UserModel), created(UserModel)

        var user: UserModel {
            switch self { case .signedIn(let user), .linked(let user), .created(let user): user }
        }
    }

    /// An account with the identity's verified email exists; it has to sign in and link the identity
    /// itself (never silently: whoever controls a relay address would otherwise get the account).
    struct LinkRequired: Error {
        let userID: UUID
        let email: String

        func problem(_ provider: String) -> AppError {
            .conflict("An account with \(email) already exists. Sign in to it (with its password), then link \(provider) under Settings › Sign-in methods; Forkcast never joins accounts by email alone.")
        }
    }

    func complete(_ kind: IdentityProviders.Kind, providerName: String, claims: IdentityClaims,
                  signedIn: UserModel?, displayName: String?) async throws -> Outcome {
        let linked = try await identity(kind, subject: claims.subject)
        var emailAccount: UserModel?
        if linked == nil, signedIn == nil, claims.emailVerified, let email = claims.email {
            emailAccount = try await UserModel.query(on: db).filter(\.$emailKey == Account.emailKey(email)).first()
        }
        let hasAccounts = try await UserModel.query(on: db).count() > 0
        switch ExternalSignInRules.decide(linkedTo: linked?.$user.id, signedIn: try signedIn?.requireID(),
                                          accountWithEmail: try emailAccount?.requireID(),
                                          signupAllowed: allowSignup, hasAccounts: hasAccounts) {
        case .signIn(let id):
            guard let user = try await UserModel.find(id, on: db) else { throw AppError.unauthorized("That account no longer exists.") }
            return .signedIn(user)
        case .link:
            guard let user = signedIn else { throw AppError.unauthorized("Sign in first.") }
            try await link(kind, providerName: providerName, subject: claims.subject, email: claims.email, to: user)
            return .linked(user)
        case .requiresLinkBySignedInAccount(let id):
            throw LinkRequired(userID: id, email: emailAccount?.email ?? "")
        case .linkedElsewhere:
            throw AppError.conflict("This \(providerName) account is linked to another Forkcast account. Unlink it there first.")
        case .signupClosed:
            throw AppError.forbidden("Sign-up is closed on this server, and this \(providerName) account is not linked to one here. Ask the owner to create your account (forkcast user create) or to set FORKCAST_ALLOW_SIGNUP=true; then sign in and link \(providerName) in Settings.")
        case .createAccount:
            var email = ExternalSignInRules.accountEmail(claims, provider: kind.rawValue)
            if try await UserModel.query(on: db).filter(\.$emailKey == Account.emailKey(email)).first() != nil {
                // The address belongs to an account that signs in some other way (unverified here).
                email = ExternalSignInRules.placeholderEmail(subject: claims.subject, provider: kind.rawValue)
            }
            let user = UserModel(email: email, passwordHash: "", displayName: AccountRules.displayName(from: displayName ?? claims.name),
                                 timeZone: AccountRules.defaultTimeZone)
            try await CreateAccount.store(user, on: db, now: now, onlyIfFirst: !allowSignup, identity: LinkedIdentity(provider: kind.rawValue, subject: claims.subject, email: claims.email))
            return .created(user)
        }
    }

    /// Links the identity to a signed-in account (Settings, or after the password sign-in that a
    /// ``LinkRequired`` asked for).
    func link(_ kind: IdentityProviders.Kind, providerName: String, subject: String, email: String?, to user: UserModel) async throws {
        let userID = try user.requireID()
        try await db.write { tx in
            if let existing = try await ExternalIdentityModel.query(on: tx).filter(\.$provider == kind.rawValue)
                .filter(\.$subject == subject).first() {
                guard existing.$user.id == userID else {
                    throw AppError.conflict("This \(providerName) account is linked to another Forkcast account. Unlink it there first.")
                }
                return
            }
            if try await ExternalIdentityModel.query(on: tx).filter(\.$user.$id == userID).filter(\.$provider == kind.rawValue).first() != nil {
                throw AppError.conflict("Another \(providerName) account is linked already; unlink it first.")
            }
            try await ExternalIdentityModel(userID: userID, provider: kind.rawValue, subject: subject, email: email).create(on: tx)
        }
    }

    /// Unlinks a provider, unless it is the last way the account can sign in.
    func unlink(_ kind: IdentityProviders.Kind, providerName: String, from user: UserModel) async throws {
        let userID = try user.requireID()
        try await db.write { tx in
            let identities = try await ExternalIdentityModel.query(on: tx).filter(\.$user.$id == userID).all()
            guard let identity = identities.first(where: { $0.provider == kind.rawValue }) else {
                throw AppError.notFound("\(providerName) is not linked to this account.")
            }
            guard user.hasPassword || identities.count > 1 else {
                throw AppError.conflict("\(providerName) is the only way this account signs in; link another way first (or delete the account).")
            }
            try await identity.delete(on: tx)
        }
    }

    /// How recent a sign-in must be to confirm deleting the account.
    static let confirmationWindow: TimeInterval = 10 * 60

    /// The identity is this account's and its sign-in is recent; else a 403 that changes nothing.
    static func requireFresh(_ claims: IdentityClaims, kind: IdentityProviders.Kind, of user: UserModel, on db: any Database, now: Date) async throws {
        let linked = try await ExternalIdentityModel.query(on: db).filter(\.$provider == kind.rawValue)
            .filter(\.$subject == claims.subject).first()
        guard let linked, linked.$user.id == user.id else {
            throw AppError.forbidden("That sign-in is not one linked to this account; nothing was deleted.")
        }
        guard let issued = claims.issuedAt, now.timeIntervalSince(issued) < confirmationWindow else {
            throw AppError.forbidden("Sign in again to confirm: the sign-in must be from the last ten minutes. Nothing was deleted.")
        }
    }

    func identities(of user: UserModel) async throws -> [ExternalIdentityModel] {
        try await ExternalIdentityModel.query(on: db).filter(\.$user.$id == user.requireID()).sort(\.$provider).all()
    }

    private func identity(_ kind: IdentityProviders.Kind, subject: String) async throws -> ExternalIdentityModel? {
        try await ExternalIdentityModel.query(on: db).filter(\.$provider == kind.rawValue).filter(\.$subject == subject).first()
    }
}

extension Request {
    /// The claims of an identity token from `kind`, verified (claims, nonce, signature) and its nonce
    /// spent: a token signs in once.
    func verifiedIdentity(_ kind: IdentityProviders.Kind, token: String, nonce: String?,
                          from origin: IdentityProviders.NonceOrigin) async throws -> IdentityClaims {
        let providers = application.identityProviders
        let (parsed, claims) = try await providers.verify(token, provider: try providers.provider(kind), nonce: nonce, from: origin, http: client, now: now)
        try await UsedNonces.consume(parsed, on: db, now: now)
        return claims
    }

    /// Confirms something that cannot be undone (deleting the account) for an account without a
    /// password: a token from a sign-in in the last ten minutes with a provider linked to it.
    func confirmIdentity(token: String, nonce: String?, of user: UserModel) async throws {
        let issuer = (try? IdentityToken.parse(token))?.claims.issuer
        let providers = application.identityProviders
        guard let kind = providers.providers.values.first(where: { $0.issuer == issuer })?.kind else {
            throw AppError.unauthorized("The identity token is not from a provider this server trusts.")
        }
        let claims = try await verifiedIdentity(kind, token: token, nonce: nonce, from: .app)
        try await ExternalSignIn.requireFresh(claims, kind: kind, of: user, on: db, now: now)
    }

    /// 403 when the server has turned email and password sign-in off (FORKCAST_PASSWORD_LOGIN=false).
    func requirePasswordLogin() throws {
        guard application.forkcastConfig.passwordLogin else {
            throw AppError.forbidden("Signing in with a password is turned off on this server; sign in with \(application.identityProviders.webProviders.map(\.name).joined(separator: " or ")).")
        }
    }

    var externalSignIn: ExternalSignIn {
        ExternalSignIn(db: db, now: now, allowSignup: application.forkcastConfig.allowSignup)
    }
}
