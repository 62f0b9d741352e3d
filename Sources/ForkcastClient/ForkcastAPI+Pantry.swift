import ForkcastCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The household's pantry.
extension ForkcastAPI {
    /// Every lot, the one that goes off first first, with this month's waste.
    public func pantry() async throws -> PantryAnswer { try await send(Pantry.List.self, Nothing()) }

    /// Puts a lot of one of the household's foods in the pantry.
    public func addToPantry(_ input: PantryItemInput) async throws -> PantryItemAnswer { try await send(Pantry.Add.self, body: input) }

    /// A scanned pack: with no amount, the pack size on the product's label.
    public func addToPantry(_ input: PantryBarcodeInput) async throws -> PantryItemAnswer { try await send(Pantry.AddByBarcode.self, body: input) }

    public func updatePantryItem(_ id: UUID, _ input: PantryItemInput) async throws -> PantryItemAnswer {
        try await send(Pantry.Update.self, IDParameter(id), body: input)
    }

    public func deletePantryItem(_ id: UUID) async throws { _ = try await send(Pantry.Delete.self, IDParameter(id)) }

    /// Takes some of a lot out, eaten or discarded; answers what is left (0: the lot is gone).
    public func usePantryItem(_ id: UUID, _ input: PantryUseInput) async throws -> PantryItemAnswer {
        try await send(Pantry.Use.self, IDParameter(id), body: input)
    }

    /// What can I cook now: meals the pantry holds every food for (or all but one, named).
    public func cookableMeals() async throws -> CookableAnswer { try await send(Meals.Cookable.self, Nothing()) }

    /// A planned meal cooked: its ingredients for the entry's portions taken out of the pantry, once per entry.
    public func cooked(_ assignmentId: UUID) async throws -> CookedAnswer { try await send(Plan.Cooked.self, IDParameter(assignmentId)) }
}
