import ForkcastCore
import Testing

@Suite("Meal validation")
struct MealValidationTests {
    @Test func trimsEveryFieldAndDropsBlankComponents() throws {
        let content = try MealDraft(description: "  Chicken curry \n", primaryProtein: " Chicken ", primaryCarb: "  ",
                                    otherComponents: [" garlic", "", "   ", "Onion "]).validated()
        #expect(content.description == "Chicken curry")
        #expect(content.primaryProtein == "Chicken")
        #expect(content.primaryCarb == nil)
        #expect(content.otherComponents == ["garlic", "Onion"])
    }

    @Test func removesDuplicateComponentsIgnoringCaseKeepingTheFirstSpelling() throws {
        let content = try MealDraft(description: "Salad", otherComponents: ["Feta", "feta", " FETA ", "Olives"]).validated()
        #expect(content.otherComponents == ["Feta", "Olives"])
    }

    @Test func rejectsAMissingDescription() {
        #expect(throws: ValidationError.self) { try MealDraft(description: "").validated() }
        do {
            _ = try MealDraft(description: " \t\n").validated()
            Issue.record("a blank description was accepted")
        } catch {
            #expect(error.message(for: "description")?.contains("required") == true)
        }
    }

    @Test func acceptsAnyUnicode() throws {
        for text in ["寿司", "🍲", "Crème brûlée", "x", "شوربة عدس", "a\u{0301}"] {
            #expect(try MealDraft(description: text).validated().description == text)
        }
    }

    @Test func limitsLengthsWithAClearMessage() {
        do {
            _ = try MealDraft(description: String(repeating: "a", count: MealDraft.maximumDescriptionLength + 1)).validated()
            Issue.record("an overlong description was accepted")
        } catch {
            #expect(error.message(for: "description")?.contains("\(MealDraft.maximumDescriptionLength)") == true)
        }
        #expect(throws: ValidationError.self) {
            try MealDraft(description: "x", primaryProtein: String(repeating: "p", count: 61)).validated()
        }
        #expect(throws: ValidationError.self) {
            try MealDraft(description: "x", otherComponents: (0...MealDraft.maximumComponents).map { "c\($0)" }).validated()
        }
        #expect(throws: Never.self) {
            try MealDraft(description: String(repeating: "é", count: MealDraft.maximumDescriptionLength)).validated()
        }
    }

    @Test func reportsEveryBadFieldAtOnce() {
        do {
            _ = try MealDraft(description: " ", primaryProtein: String(repeating: "p", count: 99)).validated()
            Issue.record("accepted")
        } catch {
            #expect(Set(error.fields.map(\.field)) == ["description", "primaryProtein"])
        }
    }

    @Test func pagingRejectsPagesOutOfRange() throws {
        #expect(throws: ValidationError.self) { try Paging(page: 0) }
        #expect(throws: ValidationError.self) { try Paging(per: 0) }
        #expect(throws: ValidationError.self) { try Paging(per: Paging.maximumPer + 1) }
        #expect(try Paging(page: 3, per: 20).offset == 40)
    }

    @Test func mealsSortWithTheirNumbersInOrderOfValue() {
        func sorted(_ names: [String]) -> [String] {
            names.sorted { MealOrdering.sortKey(description: $0) < MealOrdering.sortKey(description: $1) }
        }
        #expect(sorted(["Soup #106", "soup #36", "Soup #7", "Soup"]) == ["Soup", "Soup #7", "soup #36", "Soup #106"])
        #expect(sorted(["Day 10 stew", "Day 9 stew", "Day 009a"]) == ["Day 9 stew", "Day 009a", "Day 10 stew"])
        #expect(MealOrdering.sortKey(description: "  Ab 007 ") == "ab " + String(repeating: "0", count: 19) + "7")
        // A run longer than any number a person writes stays as typed; other scripts' digits are text.
        let long = String(repeating: "9", count: 25)
        #expect(MealOrdering.sortKey(description: long) == long)
        #expect(MealOrdering.sortKey(description: "حساء ٣٦") == "حساء ٣٦")
        for _ in 0..<200 {
            let a = Int.random(in: 0...Int.max), b = Int.random(in: 0...Int.max)
            #expect((MealOrdering.sortKey(description: "x\(a)") < MealOrdering.sortKey(description: "x\(b)")) == (a < b), "\(a) \(b)")
        }
    }
}
