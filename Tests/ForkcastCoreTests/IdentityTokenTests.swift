import Foundation
import ForkcastCore
import Testing

/// The claim rules of Sign in with Apple and OpenID Connect tokens, and the account decision.
struct IdentityTokenTests {
    func token(_ payload: String) -> String {
        Base64URL.encode(Data(#"{"alg":"RS256","kid":"k"}"#.utf8)) + "." + Base64URL.encode(Data(payload.utf8)) + "." + Base64URL.encode(Data([1, 2, 3]))
    }

    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func expectation(nonces: [String] = [], groups: Set<String> = []) -> IdentityTokenRules.Expectation {
        .init(issuer: "https://appleid.apple.com", audiences: ["org.forkcast.ios"], nonces: nonces, allowedGroups: groups, now: now)
    }

    func claims(_ extra: String = "") throws -> IdentityClaims {
        try IdentityToken.parse(token(#"{"iss":"https://appleid.apple.com","aud":["x","org.forkcast.ios"],"sub":"s","exp":1800000600\#(extra)}"#)).claims
    }

    @Test func appleBooleansArriveAsBooleansOrStrings() throws {
        #expect(try claims(#","email":"a@b.c","email_verified":"true","is_private_email":true"#).emailVerified)
        #expect(try claims(#","email":"a@b.c","email_verified":true,"is_private_email":"true""#).isPrivateEmail)
        #expect(try !claims(#","email_verified":"false""#).emailVerified)
        #expect(try !claims(#","email_verified":1"#).emailVerified)
    }

    @Test func malformedTokensAreRefusedWithAReason() {
        for bad in ["", "a.b", "a.b.c.d", token("[]"), token(#"{"iss":"i","aud":"a","exp":1}"#), token(#"{"iss":"i","sub":"s","exp":1}"#),
                    token(#"{"iss":"i","sub":"s","aud":"a","exp":1e300}"#), token(#"{"iss":"i","sub":"s","aud":"a","exp":"soon"}"#)] {
            #expect(throws: IdentityTokenError.self, "\(bad)") { try IdentityToken.parse(bad) }
        }
    }

    @Test func everyClaimRuleRefusesOnItsOwn() throws {
        let good = try claims(#","nonce":"n","groups":["cooks"]"#)
        try IdentityTokenRules.check(good, expectation(nonces: ["n"], groups: ["cooks"]))
        #expect(throws: IdentityTokenError.nonceMismatch) { try IdentityTokenRules.check(good, expectation(nonces: ["other"])) }
        #expect(throws: IdentityTokenError.nonceMismatch) { try IdentityTokenRules.check(good, expectation()) }
        #expect(throws: IdentityTokenError.nonceMismatch) { try IdentityTokenRules.check(try claims(), expectation(nonces: ["n"])) }
        #expect(throws: IdentityTokenError.groupNotAllowed) { try IdentityTokenRules.check(good, expectation(nonces: ["n"], groups: ["admins"])) }
        var expected = expectation(nonces: ["n"])
        expected.now = good.expiresAt.addingTimeInterval(61)
        #expect(throws: IdentityTokenError.expired(good.expiresAt)) { try IdentityTokenRules.check(good, expected) }
        expected = expectation(nonces: ["n"])
        expected.issuer = "https://evil.example"
        #expect(throws: IdentityTokenError.wrongIssuer("https://appleid.apple.com")) { try IdentityTokenRules.check(good, expected) }
        expected = expectation(nonces: ["n"])
        expected.audiences = ["org.other"]
        #expect(throws: IdentityTokenError.wrongAudience(["x", "org.forkcast.ios"])) { try IdentityTokenRules.check(good, expected) }
        // Not before its nbf (a minute's leeway), however fresh otherwise.
        #expect(throws: IdentityTokenError.notYetValid) { try IdentityTokenRules.check(try claims(#","nbf":1800000300"#), expectation()) }
        try IdentityTokenRules.check(try claims(#","nbf":1800000030"#), expectation())
        // A token valid for a year is refused, from its iat or (without one) from now; a day is the most.
        let year = #"{"iss":"https://appleid.apple.com","aud":"org.forkcast.ios","sub":"s","iat":1800000000,"exp":1831536000}"#
        #expect(throws: IdentityTokenError.lifetimeTooLong) { try IdentityTokenRules.check(try IdentityToken.parse(token(year)).claims, expectation()) }
        let noIat = #"{"iss":"https://appleid.apple.com","aud":"org.forkcast.ios","sub":"s","exp":1800090000}"#
        #expect(throws: IdentityTokenError.lifetimeTooLong) { try IdentityTokenRules.check(try IdentityToken.parse(token(noIat)).claims, expectation()) }
        let day = #"{"iss":"https://appleid.apple.com","aud":"org.forkcast.ios","sub":"s","iat":1800000000,"exp":1800086400}"#
        try IdentityTokenRules.check(try IdentityToken.parse(token(day)).claims, expectation())
    }

    @Test func anIdentityIsNeverJoinedToAnAccountByEmailAlone() {
        let ana = UUID(), bea = UUID()
        typealias Rules = ExternalSignInRules
        #expect(Rules.decide(linkedTo: ana, signedIn: nil, accountWithEmail: bea, signupAllowed: true, hasAccounts: true) == .signIn(ana))
        #expect(Rules.decide(linkedTo: ana, signedIn: bea, accountWithEmail: nil, signupAllowed: true, hasAccounts: true) == .linkedElsewhere)
        #expect(Rules.decide(linkedTo: nil, signedIn: bea, accountWithEmail: ana, signupAllowed: false, hasAccounts: true) == .link(bea))
        #expect(Rules.decide(linkedTo: nil, signedIn: nil, accountWithEmail: ana, signupAllowed: true, hasAccounts: true) == .requiresLinkBySignedInAccount(ana))
        #expect(Rules.decide(linkedTo: nil, signedIn: nil, accountWithEmail: nil, signupAllowed: false, hasAccounts: true) == .signupClosed)
        #expect(Rules.decide(linkedTo: nil, signedIn: nil, accountWithEmail: nil, signupAllowed: false, hasAccounts: false) == .createAccount)
        #expect(Rules.placeholderEmail(subject: "001542.b041<script>\u{301}", provider: "apple") == "apple-001542b041script@users.forkcast.invalid")
    }
}
