import ForkcastCore
import Foundation
import Testing

/// Filtering itself runs in the database (MealRepository; property 5 and the API tests prove it
/// there). Core holds what both sides share: the criteria as given, and the facets.
@Suite("Filter criteria and facets")
struct FilterTests {
    let curry = Meal(description: "Curry", primaryProtein: "Chicken", primaryCarb: "Rice", otherComponents: ["Garlic", "Onion"])
    let bolognese = Meal(description: "Bolognese", primaryProtein: "Beef", primaryCarb: "Pasta", otherComponents: ["garlic", "Tomato"])
    let salad = Meal(description: "Salad", primaryProtein: nil, primaryCarb: nil, otherComponents: [])

    var all: [Meal] { [curry, bolognese, salad] }

    @Test func criteriaAreTrimmedAndBlankOnesDropped() {
        let filter = MealFilter(protein: "  Chicken ", carb: " ", components: [" Garlic", "", "  "], text: "\t")
        #expect(filter.proteinKey == "chicken" && filter.carb == nil && filter.text == nil)
        #expect(filter.componentKeys == ["garlic"])
        #expect(filter.isActive && !MealFilter(protein: " ").isActive)
    }

    @Test func facetsAreDistinctIgnoringCase() {
        let facets = MealFacets(of: all)
        #expect(facets.proteins == ["Beef", "Chicken"])
        #expect(facets.carbs == ["Pasta", "Rice"])
        #expect(facets.components == ["Garlic", "Onion", "Tomato"])
        #expect(MealFacets(of: []) == MealFacets())
    }
}
