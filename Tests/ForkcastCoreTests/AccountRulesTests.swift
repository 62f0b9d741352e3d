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

    @Test func aNameFromAnotherServiceIsKeptToATypedNamesLength() throws {
        // Nobody is there to be asked to shorten it, so it is cut where a typed one is refused.
        let long = String(repeating: "e\u{301}", count: 150)
        let kept = try #require(AccountRules.displayName(from: "  " + long + " "))
        #expect(kept.count == AccountRules.maximumDisplayNameLength && AccountRules.displayNameProblem(kept) == nil)
        #expect(AccountRules.displayName(from: " \n ") == nil && AccountRules.displayName(from: nil) == nil)
        #expect(AccountRules.displayName(from: "  Ada  ") == "Ada")
    }

    @Test func emailsRefuseWhatNobodyTypesInOne() {
        #expect(AccountRules.emailProblem(" ana@example.com ") == nil)
        #expect(AccountRules.emailProblem("ana.b+diary@mail.example.org") == nil)
        // A NUL is read as U+FFFD (JSON's \u0000, a form's %00), as is a broken byte: neither is an address.
        for bad in ["x\u{FFFD}@example.com", "x\u{0}@example.com", "ana@exa\u{FFFD}mple.com", "a<b>@example.com",
                    "ana@example", "@example.com", "ana@@example.com", "a..b@example.com"] {
            #expect(AccountRules.emailProblem(bad) != nil, "\(bad.debugDescription)")
        }
    }

    @Test func timeZonesAreIANANames() {
        #expect(AccountRules.timeZoneProblem("Europe/Paris") == nil)
        #expect(AccountRules.timeZoneProblem(" America/New_York ") == nil)
        #expect(AccountRules.timeZoneProblem("Mars/Olympus")?.contains("IANA") == true)
        #expect(AccountRules.timeZoneProblem("<script>")?.contains("<script>") == true, "named back as given, escaped by the page")
    }
}

@Suite("Household names")
struct HouseholdNameTests {
    @Test func aNewHouseholdIsNamedAfterItsPerson() {
        #expect(Household.defaultName(for: "Ana") == "Ana's household")
        #expect(Household.defaultName(for: "  ") == "My household" && Household.defaultName(for: nil) == "My household")
        let long = String(repeating: "x", count: AccountRules.maximumDisplayNameLength)
        #expect(Household.defaultName(for: long).count == Household.maximumNameLength, "a long display name still makes a valid name")
        #expect((try? Household.validated(name: Household.defaultName(for: long))) != nil)
    }

    @Test func aNameIsTrimmedNotEmptyAndAtMostAHundredCharacters() throws {
        #expect(try Household.validated(name: " Casa  ") == "Casa")
        #expect(try Household.validated(name: String(repeating: "e\u{301}", count: 100)).count == 100, "characters, not scalars")
        #expect(throws: ValidationError.self) { try Household.validated(name: " \n ") }
        #expect(throws: ValidationError.self) { try Household.validated(name: String(repeating: "a", count: 101)) }
    }
}
