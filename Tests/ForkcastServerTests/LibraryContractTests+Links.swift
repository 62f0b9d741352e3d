import ForkcastApp
import ForkcastCore
@testable import ForkcastServer
import Foundation
import Testing

extension LibraryContractTests {
    @Test(arguments: Backend.allCases) func aRecipeHasOneLinkUntilItIsRevokedAndOnlyItsHouseholdSharesIt(_ backend: Backend) async throws {
        try await withLibraries(backend) { person in
            let ann = try await person(), bob = try await person()
            let mealID = UUID()
            let content = try MealDraft(description: "Soup", manualNutrition: Nutrients(energyKcal: 250)).validated()
            _ = try await ann.write { tx async throws in try await tx.meals.insert(content, id: mealID, now: monday) }
            let first = String(repeating: "a", count: 43), second = String(repeating: "b", count: 43)
            let shared = try #require(try await ShareRecipe(library: ann).share(mealID, newToken: first))
            #expect(shared.token == first && shared.isNew)
            let again = try #require(try await ShareRecipe(library: ann).share(mealID, newToken: second))
            #expect(again.token == first && !again.isNew, "sharing twice gives the same link")
            #expect(try await ShareRecipe(library: bob).share(mealID, newToken: second) == nil, "another household's meal")
            #expect(try await ShareRecipe(library: bob).revoke(mealID) == false)
            #expect(try await ann.write { tx async throws in try await tx.meals.shareToken(of: mealID) } == first)
            #expect(try await bob.write { tx async throws in try await tx.meals.shareToken(of: mealID) } == nil)
            // Saving the meal again keeps its link.
            _ = try await ann.write { tx async throws in try await tx.meals.replace(mealID, with: content, now: monday) }
            #expect(try await ann.write { tx async throws in try await tx.meals.shareToken(of: mealID) } == first)

            #expect(try await ShareRecipe(library: ann).revoke(mealID))
            #expect(try await ann.write { tx async throws in try await tx.meals.shareToken(of: mealID) } == nil)
            let renewed = try #require(try await ShareRecipe(library: ann).share(mealID, newToken: second))
            #expect(renewed.token == second && renewed.isNew, "a new link after revoking: the old one stays dead")
        }
    }
}
