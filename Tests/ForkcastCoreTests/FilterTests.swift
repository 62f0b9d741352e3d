import ForkcastCore
import Foundation
import Testing

@Suite("Filtering, facets and order")
struct FilterTests {
    let curry = Meal(description: "Curry", primaryProtein: "Chicken", primaryCarb: "Rice", otherComponents: ["Garlic", "Onion"])
    let bolognese = Meal(description: "Bolognese", primaryProtein: "Beef", primaryCarb: "Pasta", otherComponents: ["garlic", "Tomato"])
    let salad = Meal(description: "Salad", primaryProtein: nil, primaryCarb: nil, otherComponents: [])

    var all: [Meal] { [curry, bolognese, salad] }

    @Test func noCriteriaReturnsEveryMeal() {
        #expect(MealFilter().apply(to: all) == all)
        #expect(!MealFilter(protein: "  ", components: ["", " "]).isActive)
    }

    @Test func emptyLibraryFiltersToNothing() {
        #expect(MealFilter(protein: "Chicken").apply(to: []).isEmpty)
    }

    @Test func matchesIgnoringCaseAndWhiteSpace() {
        #expect(MealFilter(protein: " chicken ").apply(to: all) == [curry])
        #expect(MealFilter(carb: "PASTA").apply(to: all) == [bolognese])
    }

    @Test func componentFiltersNeedEveryComponent() {
        #expect(MealFilter(components: ["GARLIC"]).apply(to: all) == [curry, bolognese])
        #expect(MealFilter(components: ["garlic", "onion"]).apply(to: all) == [curry])
        #expect(MealFilter(components: ["garlic", "basil"]).apply(to: all).isEmpty)
    }

    @Test func allCriteriaMustMatch() {
        #expect(MealFilter(protein: "Beef", components: ["Onion"]).apply(to: all).isEmpty)
        #expect(MealFilter(protein: "beef", carb: "pasta", components: ["tomato"]).apply(to: all) == [bolognese])
    }

    @Test func aFilterWithNoResultIsEmpty() {
        #expect(MealFilter(protein: "Tofu").apply(to: all).isEmpty)
    }

    @Test func textSearchLooksInDescriptionAndComponents() {
        #expect(MealFilter(text: "bolo").apply(to: all) == [bolognese])
        #expect(MealFilter(text: "TOMATO").apply(to: all) == [bolognese])
    }

    @Test func facetsAreDistinctIgnoringCase() {
        let facets = MealFacets(of: all)
        #expect(facets.proteins == ["Beef", "Chicken"])
        #expect(facets.carbs == ["Pasta", "Rice"])
        #expect(facets.components == ["Garlic", "Onion", "Tomato"])
        #expect(MealFacets(of: []) == MealFacets())
    }

    @Test func plannedMealsComeLast() {
        let ordered = MealOrdering.ordered(all, planned: [bolognese.id])
        #expect(ordered.map(\.description) == ["Curry", "Salad", "Bolognese"])
        #expect(MealOrdering.ordered([], planned: []).isEmpty)
    }
}
