import ForkcastCore
import Foundation

/// `/healthz` and the document itself.
public enum Service {
    public enum Health: APIOperation {
        public typealias Answer = HealthReport
        public static let spec = OperationSpec(.get, "/healthz", "health", tag: "system", summary: "Server and database health",
            success: Outcome(200, "Usable"), failures: [], otherAnswers: [Outcome(503, "Database unusable")], signedIn: false)
    }

    public enum Document: APIOperation {
        public static let spec = OperationSpec(.get, APIv1.documentPath, "openAPI", tag: "system",
            summary: "This OpenAPI 3.1 document, built from ForkcastContract", success: Outcome(200, "The document"), failures: [],
            signedIn: false, rawAnswer: ["application/json": ["type": "object"]])
    }
}

/// `/api/v1/auth/*`: signing in and out.
public enum Auth {
    public enum Register: APIOperation {
        public typealias Body = RegisterInput
        public typealias Answer = SessionAnswer
        public static let spec = OperationSpec(.post, "/api/v1/auth/register", "register", tag: "auth",
            summary: "Create an account (the first one always; later ones when FORKCAST_ALLOW_SIGNUP=true)",
            success: Outcome(201, "Account created and signed in"),
            failures: [Outcome.malformed, Outcome(403, "Sign-up is closed; or password sign-in is turned off on this server"),
                Outcome(409, "Email already registered"), .tooLarge, .notJSON, .invalid, .unavailable], signedIn: false)
    }

    public enum Login: APIOperation {
        public typealias Body = LoginInput
        public typealias Answer = SessionAnswer
        public static let spec = OperationSpec(.post, "/api/v1/auth/login", "login", tag: "auth",
            summary: "Sign in and receive a bearer token", success: Outcome(200, "Signed in"),
            failures: [Outcome.malformed, Outcome(401, "Wrong email or password"),
                Outcome(403, "Password sign-in is turned off on this server (FORKCAST_PASSWORD_LOGIN=false), or signed in by the web session cookie without a valid X-CSRF-Token"),
                Outcome(429, "Too many attempts from this address, or for this account from unknown devices; see Retry-After", headers: Outcome.retryAfter),
                .tooLarge, .notJSON, .invalid, .unavailable], signedIn: false)
    }

    public enum Apple: APIOperation {
        public typealias Body = AppleSignInInput
        public typealias Answer = SessionAnswer
        public static let spec = OperationSpec(.post, "/api/v1/auth/apple", "signInWithApple", tag: "auth",
            summary: "Sign in with Apple from a native app: verifies the identity token (Apple's keys, issuer, audience = a configured app or Services ID, expiry, nonce; each token once). Signs in the linked account, creates one where sign-up is allowed (or it is the first), or, sent with a bearer token, links Apple to that account. An existing account with the same verified email is never linked without signing in to it first (409).",
            success: Outcome(200, "Signed in (or Apple linked to the signed-in account)"),
            failures: [
                Outcome.malformed,
                Outcome(401, "The token was refused: malformed, expired, wrong issuer or audience, bad signature, unknown key, nonce missing, different or used before"),
                Outcome(403, "Sign-up is closed and this Apple account is linked to none here; or a web session without a valid X-CSRF-Token"),
                Outcome(404, "Sign in with Apple is not set up on this server"),
                Outcome(409, "An account with this verified email exists and has not linked Apple (sign in to it, then send this with its bearer token); or this Apple account is linked to another account"),
                .tooLarge, .notJSON, Outcome(422, "identityToken missing"),
                Outcome(503, "The database is unavailable, or Apple's keys could not be fetched; nothing was saved"),
            ], otherAnswers: [Outcome(201, "A new account was created and signed in")], signedIn: false)
    }

    public enum Logout: APIOperation {
        public static let spec = OperationSpec(.post, "/api/v1/auth/logout", "logout", tag: "auth",
            summary: "Revoke the token (or end the web session)", success: Outcome(204, "Signed out"), failures: Outcome.write)
    }
}

/// `/api/v1/me`, `/api/v1/export` and `/api/v1/import`: the signed-in account as a whole.
public enum Me {
    public enum Get: APIOperation {
        public typealias Answer = UserAnswer
        public static let spec = OperationSpec(.get, "/api/v1/me", "me", tag: "auth", summary: "The signed-in user",
            success: Outcome(200, "The user"), failures: Outcome.read)
    }

    public enum Update: APIOperation {
        public typealias Body = ProfileInput
        public typealias Answer = UserAnswer
        public static let spec = OperationSpec(.put, "/api/v1/me", "updateMe", tag: "auth",
            summary: "Change display name, time zone or currency", success: Outcome(200, "The user"), failures: Outcome.writeJSON)
    }

    public enum Delete: APIOperation {
        public typealias Body = DeleteAccountInput
        public static let spec = OperationSpec(.delete, "/api/v1/me", "deleteMe", tag: "auth",
            summary: "Delete your account and everything of it (records, photos, tokens, sessions, sync history); asks for the password, or for an account without one a fresh identity token (a sign-in in the last ten minutes) of a linked provider",
            success: Outcome(204, "Deleted; the token used is gone with it"),
            failures: [
                Outcome.malformed, Outcome(401, "Not signed in (no token, or an unknown or expired one), or the identity token was refused"),
                Outcome(403, "Wrong password, a sign-in not linked to this account or older than ten minutes (nothing was deleted), or a web session without a valid X-CSRF-Token"),
                .tooLarge, .notJSON, Outcome(422, "Neither password nor identityToken"),
                Outcome(429, "Too many wrong passwords from your network", headers: Outcome.retryAfter), .unavailable,
            ])
    }

    public enum Export: APIOperation {
        public static let spec = OperationSpec(.get, "/api/v1/export", "exportAccount", tag: "account",
            summary: "Everything of your account as one zip: forkcast.json (every record, ids kept), the photos, and the diary as CSV (docs/export-format.md)",
            success: Outcome(200, "The archive (Content-Disposition: attachment)"), failures: Outcome.read,
            rawAnswer: ["application/zip": RawMedia.file])
    }

    public enum Import: APIOperation {
        public typealias Parameters = DryRunQuery
        public typealias Answer = AccountImportReport
        public static let spec = OperationSpec(.post, "/api/v1/import", "importAccount", tag: "account",
            summary: "Restore an export into this account, which must be empty (nothing but its built-in meal types); ids are kept; all or nothing",
            success: Outcome(201, "Imported: what was created"),
            failures: [
                Outcome(400, "Empty upload, or a bad dryRun"), .notSignedIn, .csrf,
                Outcome(409, "The account already holds records, or records of the export already exist on this server"),
                Outcome(413, "Upload over 4 GB"), Outcome(415, "A photo in the archive is not a JPEG, PNG, WebP or HEIC image"),
                Outcome(422, "Not a Forkcast export, a damaged one, or a record that fails the checks a typed-in one would (named in errors)"),
                .unavailable,
            ],
            parameterNotes: ["dryRun": FieldNote("true: check everything and report what would be created, changing nothing", default: false)],
            otherAnswers: [Outcome(200, "Dry run: what would be created")],
            rawBody: RawMedia.each(["application/zip", "application/octet-stream"], RawMedia.upload))
    }
}
