import ForkcastCore
import Foundation

/// `/healthz` and the document itself.
public enum Service {
    public enum Health: APIOperation {
        public typealias Answer = HealthReport
        public static let id = "health"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/healthz"
        public static let summary = "Server and database health"
        public static let tag = "system"
        public static let signedIn = false
        public static let success = Outcome(200, "Usable")
        public static let otherAnswers = [Outcome(503, "Database unusable")]
        public static let failures: [Outcome] = []
    }

    public enum Document: APIOperation {
        public static let id = "openAPI"
        public static let method = HTTPVerb.get
        public static var path: PathTemplate { APIv1.documentPath }
        public static let summary = "This OpenAPI 3.1 document, built from ForkcastContract"
        public static let tag = "system"
        public static let signedIn = false
        public static let success = Outcome(200, "The document")
        public static var rawAnswer: [String: JSONValue]? { ["application/json": ["type": "object"]] }
        public static let failures: [Outcome] = []
    }
}

/// `/api/v1/auth/*`: signing in and out.
public enum Auth {
    public enum Register: APIOperation {
        public typealias Body = RegisterInput
        public typealias Answer = SessionAnswer
        public static let id = "register"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/auth/register"
        public static let summary = "Create an account (the first one always; later ones when FORKCAST_ALLOW_SIGNUP=true)"
        public static let tag = "auth"
        public static let signedIn = false
        public static let success = Outcome(201, "Account created and signed in")
        public static let failures = [Outcome.malformed, Outcome(403, "Sign-up is closed; or password sign-in is turned off on this server"),
                                      Outcome(409, "Email already registered"), .tooLarge, .notJSON, .invalid, .unavailable]
    }

    public enum Login: APIOperation {
        public typealias Body = LoginInput
        public typealias Answer = SessionAnswer
        public static let id = "login"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/auth/login"
        public static let summary = "Sign in and receive a bearer token"
        public static let tag = "auth"
        public static let signedIn = false
        public static let success = Outcome(200, "Signed in")
        public static let failures = [Outcome.malformed, Outcome(401, "Wrong email or password"),
                                      Outcome(403, "Password sign-in is turned off on this server (FORKCAST_PASSWORD_LOGIN=false), or signed in by the web session cookie without a valid X-CSRF-Token"),
                                      Outcome(429, "Too many attempts from this address, or for this account from unknown devices; see Retry-After", headers: Outcome.retryAfter),
                                      .tooLarge, .notJSON, .invalid, .unavailable]
    }

    public enum Apple: APIOperation {
        public typealias Body = AppleSignInInput
        public typealias Answer = SessionAnswer
        public static let id = "signInWithApple"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/auth/apple"
        public static let summary = "Sign in with Apple from a native app: verifies the identity token (Apple's keys, issuer, audience = a configured app or Services ID, expiry, nonce; each token once). Signs in the linked account, creates one where sign-up is allowed (or it is the first), or, sent with a bearer token, links Apple to that account. An existing account with the same verified email is never linked without signing in to it first (409)."
        public static let tag = "auth"
        public static let signedIn = false
        public static let success = Outcome(200, "Signed in (or Apple linked to the signed-in account)")
        public static let otherAnswers = [Outcome(201, "A new account was created and signed in")]
        public static let failures = [
            Outcome.malformed,
            Outcome(401, "The token was refused: malformed, expired, wrong issuer or audience, bad signature, unknown key, nonce missing, different or used before"),
            Outcome(403, "Sign-up is closed and this Apple account is linked to none here; or a web session without a valid X-CSRF-Token"),
            Outcome(404, "Sign in with Apple is not set up on this server"),
            Outcome(409, "An account with this verified email exists and has not linked Apple (sign in to it, then send this with its bearer token); or this Apple account is linked to another account"),
            .tooLarge, .notJSON, Outcome(422, "identityToken missing"),
            Outcome(503, "The database is unavailable, or Apple's keys could not be fetched; nothing was saved"),
        ]
    }

    public enum Logout: APIOperation {
        public static let id = "logout"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/auth/logout"
        public static let summary = "Revoke the token (or end the web session)"
        public static let tag = "auth"
        public static let success = Outcome(204, "Signed out")
        public static let failures = Outcome.write
    }
}

/// `/api/v1/me`, `/api/v1/export` and `/api/v1/import`: the signed-in account as a whole.
public enum Me {
    public enum Get: APIOperation {
        public typealias Answer = UserAnswer
        public static let id = "me"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/me"
        public static let summary = "The signed-in user"
        public static let tag = "auth"
        public static let success = Outcome(200, "The user")
        public static let failures = Outcome.read
    }

    public enum Update: APIOperation {
        public typealias Body = ProfileInput
        public typealias Answer = UserAnswer
        public static let id = "updateMe"
        public static let method = HTTPVerb.put
        public static let path: PathTemplate = "/api/v1/me"
        public static let summary = "Change display name, time zone or currency"
        public static let tag = "auth"
        public static let success = Outcome(200, "The user")
        public static let failures = Outcome.writeJSON
    }

    public enum Delete: APIOperation {
        public typealias Body = DeleteAccountInput
        public static let id = "deleteMe"
        public static let method = HTTPVerb.delete
        public static let path: PathTemplate = "/api/v1/me"
        public static let summary = "Delete your account and everything of it (records, photos, tokens, sessions, sync history); asks for the password, or for an account without one a fresh identity token (a sign-in in the last ten minutes) of a linked provider"
        public static let tag = "auth"
        public static let success = Outcome(204, "Deleted; the token used is gone with it")
        public static let failures = [
            Outcome.malformed, Outcome(401, "Not signed in (no token, or an unknown or expired one), or the identity token was refused"),
            Outcome(403, "Wrong password, a sign-in not linked to this account or older than ten minutes (nothing was deleted), or a web session without a valid X-CSRF-Token"),
            .tooLarge, .notJSON, Outcome(422, "Neither password nor identityToken"),
            Outcome(429, "Too many wrong passwords from your network", headers: Outcome.retryAfter), .unavailable,
        ]
    }

    public enum Export: APIOperation {
        public static let id = "exportAccount"
        public static let method = HTTPVerb.get
        public static let path: PathTemplate = "/api/v1/export"
        public static let summary = "Everything of your account as one zip: forkcast.json (every record, ids kept), the photos, and the diary as CSV (docs/export-format.md)"
        public static let tag = "account"
        public static let success = Outcome(200, "The archive (Content-Disposition: attachment)")
        public static var rawAnswer: [String: JSONValue]? { ["application/zip": RawMedia.file] }
        public static let failures = Outcome.read
    }

    public enum Import: APIOperation {
        public typealias Parameters = DryRunQuery
        public typealias Answer = AccountImportReport
        public static let id = "importAccount"
        public static let method = HTTPVerb.post
        public static let path: PathTemplate = "/api/v1/import"
        public static let summary = "Restore an export into this account, which must be empty (nothing but its built-in meal types); ids are kept; all or nothing"
        public static let tag = "account"
        public static let success = Outcome(201, "Imported: what was created")
        public static let otherAnswers = [Outcome(200, "Dry run: what would be created")]
        public static var rawBody: [String: JSONValue]? { RawMedia.each(["application/zip", "application/octet-stream"], RawMedia.upload) }
        public static let failures = [
            Outcome(400, "Empty upload, or a bad dryRun"), .notSignedIn, .csrf,
            Outcome(409, "The account already holds records, or records of the export already exist on this server"),
            Outcome(413, "Upload over 4 GB"), Outcome(415, "A photo in the archive is not a JPEG, PNG, WebP or HEIC image"),
            Outcome(422, "Not a Forkcast export, a damaged one, or a record that fails the checks a typed-in one would (named in errors)"),
            .unavailable,
        ]
        public static var parameterNotes: [String: FieldNote] {
            ["dryRun": FieldNote("true: check everything and report what would be created, changing nothing", default: false)]
        }
    }
}
