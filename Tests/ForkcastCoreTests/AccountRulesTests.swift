import ForkcastCore
import Foundation
import Testing

/// Registration and settings ask the same rules (each used to be written twice).
@Suite("Account rules")
struct AccountRulesTests {
    @Test func displayNamesAreAtMostAHundredCharactersOnceTrimmed() {
        #expect(AccountRules.displayNameProblem(String(repeating: "é", count: 100)) == nil)
        #expect(AccountRules.displayNameProblem("  " + String(repeating: "a", count: 100) + "  ") == nil)
        #expect(AccountRules.displayNameProblem(String(repeating: "a", count: 101))?.contains("100") == true)
        // Combining marks make one character each with their base.
        #expect(AccountRules.displayNameProblem(String(repeating: "e\u{301}", count: 100)) == nil)
    }

    @Test func timeZonesAreIANANames() {
        #expect(AccountRules.timeZoneProblem("Europe/Paris") == nil)
        #expect(AccountRules.timeZoneProblem(" America/New_York ") == nil)
        #expect(AccountRules.timeZoneProblem("Mars/Olympus")?.contains("IANA") == true)
        #expect(AccountRules.timeZoneProblem("<script>")?.contains("<script>") == true, "named back as given, escaped by the page")
    }
}
