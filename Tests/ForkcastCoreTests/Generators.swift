import ForkcastCore
import Foundation
import PropertyBased
import Testing

/// Generators shared by the property tests.
enum Gens {
    /// Non-blank names drawn from a small vocabulary so that filters and duplicates really meet,
    /// in varying case and with surrounding white space.
    static let vocabulary = ["Chicken", "beef", "Tofu", "lentils", "Rice", "pasta", "Garlic", "onion", "Spinach", "Crème fraîche", "寿司", "🌶 chili"]

    static let name = zip(Gen<String?>.element(of: vocabulary).map { $0! }, Gen.bool, Gen.bool).map { word, upper, padded -> String in
        let cased = upper ? word.uppercased() : word
        return padded ? "  \(cased)\t" : cased
    }

    /// Free text with any Unicode: letters, digits, accents, CJK, emoji and inner spaces.
    static let description = Gen<Character?>.element(of: Array("abcXYZ019 éßøñ寿司🍲-'") as [Character]).map { $0! }
        .string(of: 1...40)
        .filter { !$0.trimmed.isEmpty }

    static let blank = Gen<Character?>.element(of: [" ", "\t", "\n", "\r\n", "\u{00A0}", "\u{2003}"] as [Character]).map { $0! }
        .string(of: 0...8)

    static let draft = zip(description, name.optional, name.optional, name.array(of: 0...5))
        .map { MealDraft(description: $0, primaryProtein: $1, primaryCarb: $2, otherComponents: $3) }

    static let meal = draft.compactMap { try? Meal(content: $0.validated()) }

    static let meals = meal.array(of: 0...25)

    static let filter = zip(name.optional(valueRate: 0.4), name.optional(valueRate: 0.4), name.array(of: 0...2))
        .map { MealFilter(protein: $0, carb: $1, components: $2) }

    /// Any date from 1600 to 2400, leap days and year ends included.
    static let date = Gen.int(in: CalendarDate(year: 1600, month: 1, day: 1)!.dayNumber...CalendarDate(year: 2400, month: 12, day: 31)!.dayNumber)
        .map { CalendarDate(dayNumber: $0) }

    static let timeZone = Gen<String?>.element(of: ["UTC", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu"]).map { TimeZone(identifier: $0!)! }
}

extension Tag {
    @Tag static var property: Self
}
